"""Drives an MPD server as Home Assistant's mpd integration does (homeassistant/components/mpd,
media_player.py), with python-mpd2's asyncio client as it uses it: a new connection for every
poll (status, currentsong, the playlists), the picture of each new song (readpicture, then
albumart; ACK 50 "no such file" is no error: no picture), and the services: play a song or a
stored playlist (clear, add/load, play), volume set and up/down, play/pause, next, repeat,
shuffle, stop. Checks each answer against the test library (Tests/TestSupport/Music/
ClientLibrary.swift) and exits 1 with a clear message on any protocol error or wrong answer.

    mpd_home_assistant.py HOST PORT PICTURES_FOLDER

PICTURES_FOLDER holds cover.jpg (beside Ann Arbor/First Light) and embedded.png (inside the
Bea Quartet songs).
"""
import asyncio
import hashlib
import os
import sys

import mpd
from mpd.asyncio import MPDClient

DAWN = "Ann Arbor/First Light/01 Dawn.mp3"
OWL = "Bea Quartet/Night Songs/01 Owl.mp3"
LOOSE = "loose tone.mp3"


def fail(message):
    print(f"mpd_home_assistant.py: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


class Entity:
    """MpdDevice, reduced to what it sends and reads."""

    def __init__(self, host, port):
        self.host, self.port = host, int(port)
        self.status, self.currentsong, self.playlists = {}, {}, None
        self.image_file, self.image_hash, self.image = None, None, None
        self.client = MPDClient()
        self.client.timeout = 10

    async def connect(self):
        await asyncio.wait_for(self.client.connect(self.host, self.port), 15)

    def disconnect(self):
        try:
            self.client.disconnect()
        except mpd.ConnectionError:
            pass

    async def update(self):
        """async_update: one connection, status, currentsong, the picture, the playlists."""
        await self.connect()
        try:
            self.status = await self.client.status()
            self.currentsong = await self.client.currentsong()
            await self.update_image()
            if self.playlists is None:
                self.playlists = [p["playlist"] for p in await self.client.listplaylists()]
        finally:
            self.disconnect()

    async def update_image(self):
        file = self.currentsong.get("file")
        if file == self.image_file:
            return
        response = await self.image_response(file) if file else None
        self.image = bytes(response["binary"]) if response else None
        self.image_hash = hashlib.sha256(self.image).hexdigest()[:16] if self.image else None
        self.image_type = response.get("type", "image/png") if response else None
        self.image_file = file

    async def image_response(self, file):
        commands = list(await self.client.commands())
        response = None
        if "readpicture" in commands:
            try:
                response = await self.client.readpicture(file)
            except mpd.CommandError as error:
                if error.errno is not mpd.FailureResponseCode.NO_EXIST:
                    fail(f"readpicture {file!r}: {error} (Home Assistant logs this as a warning)")
        if "albumart" in commands and not response:
            try:
                response = await self.client.albumart(file)
            except mpd.CommandError as error:
                if error.errno is not mpd.FailureResponseCode.NO_EXIST:
                    fail(f"albumart {file!r}: {error} (Home Assistant logs this as a warning)")
        return response or None

    async def service(self, *calls):
        """A service call: its own connection, its commands in order."""
        await self.connect()
        try:
            for name, *arguments in calls:
                await getattr(self.client, name)(*arguments)
        finally:
            self.disconnect()

    @property
    def state(self):
        return {"play": "playing", "pause": "paused"}.get(self.status.get("state"), "off")


async def main(host, port, pictures):
    with open(os.path.join(pictures, "cover.jpg"), "rb") as f:
        cover = f.read()
    with open(os.path.join(pictures, "embedded.png"), "rb") as f:
        embedded = f.read()
    entity = Entity(host, port)

    await entity.update()
    expect(entity.state == "off", f"state {entity.status.get('state')!r} with an empty queue")
    expect(entity.currentsong == {}, f"currentsong with an empty queue: {entity.currentsong}")
    expect(entity.playlists == [], f"listplaylists: {entity.playlists}")
    expect("volume" in entity.status, f"no volume in status: Home Assistant offers no volume control ({entity.status})")

    # play_media(music, DAWN): clear, add, play.
    await entity.service(("clear",), ("add", DAWN), ("play",))
    await entity.update()
    expect(entity.state == "playing", f"state {entity.status.get('state')!r} after play_media")
    song = entity.currentsong
    expect((song.get("file"), song.get("title"), song.get("artist"), song.get("album")) ==
           (DAWN, "Dawn", "Ann Arbor", "First Light"), f"currentsong: {song}")
    expect(song.get("time") == "20", f"media_duration (currentsong time) {song.get('time')!r}")
    position = entity.status.get("elapsed")
    expect(position is not None and 0 <= float(position) <= 20, f"media_position (status elapsed) {position!r}")
    expect(entity.image == cover, f"the picture of {DAWN} is not cover.jpg ({len(entity.image or b'')} bytes)")

    # Volume: set, up, down (setvol, as the entity does).
    await entity.service(("setvol", 40))
    await entity.update()
    expect(entity.status.get("volume") == "40", f"volume {entity.status.get('volume')!r} after setvol 40")
    await entity.service(("setvol", int(entity.status["volume"]) + 5))
    await entity.update()
    expect(entity.status.get("volume") == "45", f"volume {entity.status.get('volume')!r} after volume up")

    # Pause, then media_play: pause 0 when paused.
    await entity.service(("pause", 1))
    await entity.update()
    expect(entity.state == "paused", f"state {entity.status.get('state')!r} after pause 1")
    await entity.service(("pause", 0) if entity.status["state"] == "pause" else ("play",))
    await entity.update()
    expect(entity.state == "playing", f"state {entity.status.get('state')!r} after media_play")

    # Next: a song with an embedded picture, then one with no picture at all.
    await entity.service(("add", OWL), ("add", LOOSE), ("next",))
    await entity.update()
    expect(entity.currentsong.get("file") == OWL, f"after next: {entity.currentsong}")
    expect(entity.image == embedded, f"the picture of {OWL} is not the embedded PNG ({len(entity.image or b'')} bytes)")
    expect(entity.image_type == "image/png", f"readpicture's type {entity.image_type!r}")
    await entity.service(("next",))
    await entity.update()
    expect(entity.currentsong.get("file") == LOOSE, f"after next: {entity.currentsong}")
    expect(entity.currentsong.get("title") is None, f"an untagged song has a title: {entity.currentsong}")
    expect(entity.image is None and entity.image_hash is None, "a song with no picture got one")

    # Repeat one, shuffle.
    await entity.service(("repeat", 1), ("single", 1), ("random", 1))
    await entity.update()
    expect((entity.status.get("repeat"), entity.status.get("single"), entity.status.get("random")) == ("1", "1", "1"),
           f"repeat/single/random after set_repeat(one), set_shuffle: {entity.status}")
    await entity.service(("repeat", 0), ("single", 0), ("random", 0))

    # select_source: a stored playlist (clear, load, play), found by listplaylists.
    await entity.service(("save", "evening"))
    entity.playlists = None
    await entity.update()
    expect(entity.playlists == ["evening"], f"listplaylists after save: {entity.playlists}")
    await entity.service(("clear",), ("load", "evening"), ("play",))
    await entity.update()
    expect(entity.state == "playing" and entity.currentsong.get("file") == DAWN,
           f"after select_source(evening): {entity.status.get('state')} {entity.currentsong}")
    expect(entity.status.get("playlistlength") == "3", f"playlistlength {entity.status.get('playlistlength')!r}")
    await entity.connect()
    try:
        queue = [(s.get("file"), s.get("pos")) for s in await entity.client.playlistinfo()]
    finally:
        entity.disconnect()
    expect(queue == [(DAWN, "0"), (OWL, "1"), (LOOSE, "2")], f"playlistinfo after select_source(evening): {queue}")

    # turn_off: stop.
    await entity.service(("stop",))
    await entity.update()
    expect(entity.state == "off", f"state {entity.status.get('state')!r} after turn_off")
    print("ok: Home Assistant's polls and services")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        asyncio.run(main(*sys.argv[1:]))
    except (mpd.MPDError, OSError, asyncio.TimeoutError) as error:
        fail(f"{type(error).__name__}: {error}")
