"""Sends an MPD server what Cantata 2.5 sends when it starts (mpd-interface/mpdconnection.cpp:
reconnect, getStatus, getStats, getUrlHandlers, getTagTypes, getStickerSupport, playListInfo,
outputs, loadLibrary, listPlaylists, the covers), in the order mpd 0.23's log showed for a real
Cantata on the test library, on its two connections: one for commands, one that idles. Then
what a user does next: an album added to the queue, a song added to a stored playlist — and
the idling connection must hear of each. Checks each answer against the test library
(Tests/TestSupport/Music/ClientLibrary.swift); exits 1 with a clear message on any protocol
error or wrong answer. Cantata itself (MPDClientCantataTests) is not run under the
sanitizers; this script is.

    mpd_cantata.py HOST PORT PICTURES_FOLDER
"""
import os
import socket
import sys

import mpd

ALBUM_FOLDERS = ["Ann Arbor/First Light/", "Ann Arbor/Second Wind/", "Bea Quartet/Night Songs/",
                 "Compilations/Summer Mix/"]


def fail(message):
    print(f"mpd_cantata.py: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def connect(host, port):
    client = mpd.MPDClient()
    client.timeout = 10
    client.connect(host, int(port))
    expect(client.mpd_version.startswith("0.23"), f"protocol version {client.mpd_version} (Cantata reads it from the greeting)")
    return client


class IdleConnection:
    """Cantata's idle socket: `idle` written, the `changed:` lines read when they come (10 s at
    most). python-mpd2 3.0's synchronous client has no way to send an idle and read it later."""

    def __init__(self, host, port):
        self.socket = socket.create_connection((host, int(port)), timeout=10)
        self.file = self.socket.makefile("rwb")
        greeting = self.file.readline()
        expect(greeting.startswith(b"OK MPD 0.23"), f"idle connection's greeting {greeting!r}")

    def command(self, line):
        self.file.write(line.encode() + b"\n")
        self.file.flush()

    def answer(self, what):
        lines = []
        try:
            while True:
                line = self.file.readline().decode().rstrip("\n")
                if line == "OK":
                    return lines
                if line.startswith("ACK") or not line:
                    fail(f"{what}: {line or 'connection closed'} after {lines}")
                lines.append(line)
        except socket.timeout:
            fail(f"{what}: no answer within 10 s (lines so far: {lines})")

    def answer_or_refusal(self, what):
        line = self.file.readline().decode().rstrip("\n")
        while line.startswith("channel: "):
            line = self.file.readline().decode().rstrip("\n")
        expect(line == "OK" or line.startswith("ACK ["), f"{what}: {line!r}")

    def changes(self, what):
        return [line.removeprefix("changed: ") for line in self.answer(what)]

    def close(self):
        self.file.close()
        self.socket.close()


def songs_below(client, folder, songs):
    """recursivelyListDir: lsinfo, then each subfolder."""
    for entry in client.lsinfo(folder) if folder else client.lsinfo():
        if "directory" in entry:
            songs_below(client, entry["directory"], songs)
        elif "file" in entry:
            songs.append(entry)


def main(host, port, pictures):
    with open(os.path.join(pictures, "cover.jpg"), "rb") as f:
        cover = f.read()
    commands = connect(host, port)
    idle = IdleConnection(host, port)
    # The idle connection: is cantata-dynamic about (channels), then idle. Cantata takes any
    # refusal for "no dynamic playlists" and goes on, so this does too (mpd 0.23 answers an
    # empty list; Aubade has no client-to-client channels yet: ACK 5, unknown command).
    idle.command("channels")
    idle.answer_or_refusal("channels")
    idle.command("idle")

    # MPDServerInfo::detect: stats, then an lsinfo of Cantata's own URI, refused by mpd (Cantata
    # reads the first line of the answer to tell Mopidy and forked-daapd from mpd).
    stats = commands.stats()
    expect(stats.get("songs") == "11" and stats.get("albums") == "4", f"stats: {stats}")
    try:
        commands.lsinfo("mpd-client://cantata/2.5.0")
        fail("lsinfo mpd-client://cantata/2.5.0 was answered")
    except mpd.CommandError:
        pass
    partitions = commands.listpartitions()
    expect([p["partition"] for p in partitions] == ["default"], f"listpartitions: {partitions}")
    status = commands.status()
    for key in ["volume", "repeat", "random", "single", "consume", "playlist", "playlistlength", "state"]:
        expect(key in status, f"status has no {key}: {status}")
    expect(commands.playlistinfo() == [], "playlistinfo of an empty queue")
    commands.status()
    commands.stats()
    handlers = list(commands.urlhandlers())
    expect("http://" in handlers, f"urlhandlers: {handlers}")
    tags = list(commands.tagtypes())
    for tag in ["Artist", "Album", "AlbumArtist", "Title", "Track", "Disc", "Genre", "Date", "Composer", "Performer"]:
        expect(tag in tags, f"tagtypes lacks {tag}: {tags}")
    names = list(commands.commands())
    expect("albumart" in names and "idle" in names, f"commands: {names}")
    commands.playlistinfo()
    commands.status()
    outputs = commands.outputs()
    expect(len(outputs) >= 1 and outputs[0].get("outputenabled") == "1", f"outputs: {outputs}")
    root = commands.lsinfo()
    expect([e.get("directory") for e in root if "directory" in e] == ["Ann Arbor", "Bea Quartet", "Compilations"],
           f"lsinfo of the root: {root}")
    expect(commands.currentsong() == {}, "currentsong with an empty queue")

    # loadLibrary: list genre (more than "OK" means a real database), then every folder.
    genres = commands.list("genre")
    expect(len(genres) >= 2, f"list genre: {genres} (Cantata would take the server for a UPnP proxy)")
    songs = []
    songs_below(commands, "", songs)
    expect(len(songs) == 11, f"{len(songs)} songs under lsinfo, not 11")
    by_file = {s["file"]: s for s in songs}
    calm = by_file.get("Ann Arbor/Second Wind/2-01 Calm.mp3", {})
    expect((calm.get("title"), calm.get("disc"), calm.get("track"), calm.get("albumartist"), calm.get("date"), calm.get("time"))
           == ("Calm", "2", "1", "Ann Arbor", "2004", "20"), f"Calm as lsinfo lists it: {calm}")
    expect(commands.listplaylists() == [], "listplaylists")
    try:
        commands.listplaylistinfo("[Radio Streams]")
        fail("listplaylistinfo of Cantata's streams playlist, which does not exist, was answered")
    except mpd.CommandError as error:
        expect(error.errno is mpd.FailureResponseCode.NO_EXIST, f"listplaylistinfo [Radio Streams]: {error}")
    commands.playlistinfo()
    commands.status()
    commands.outputs()

    # Covers: Cantata asks for each album's folder, with a slash, chunk by chunk.
    for folder in ALBUM_FOLDERS:
        try:
            picture = bytes(commands.albumart(folder)["binary"])
        except mpd.CommandError as error:
            expect(error.errno is mpd.FailureResponseCode.NO_EXIST, f"albumart {folder!r}: {error}")
            picture = None
        if folder == "Ann Arbor/First Light/":
            expect(picture == cover, f"albumart {folder!r}: not cover.jpg ({len(picture or b'')} bytes)")
        else:
            expect(picture is None, f"albumart {folder!r}: {len(picture or b'')} bytes where there is no cover")

    # The user adds an album (a command list of adds, as Cantata sends them): the idler hears.
    commands.command_list_ok_begin()
    for song in ["Ann Arbor/Second Wind/1-01 Gale.mp3", "Ann Arbor/Second Wind/1-02 Breeze.mp3",
                 "Ann Arbor/Second Wind/2-01 Calm.mp3"]:
        commands.add(song)
    commands.command_list_end()
    # (Aubade also says `player`: its player makes the first song of an empty queue current at
    # once, where mpd waits for `play`. Cantata reads the status again either way.)
    changes = idle.changes("idle, then an album added")
    expect("playlist" in changes and set(changes) <= {"playlist", "player"},
           f"the idle connection's answer to the album added: {changes}")
    info = commands.playlistinfo()
    expect([s.get("title") for s in info] == ["Gale", "Breeze", "Calm"], f"playlistinfo: {info}")
    changes = commands.plchangesposid(0)
    expect([c["cpos"] for c in changes] == ["0", "1", "2"], f"plchangesposid 0: {changes}")

    # Saved as a playlist, then a song added to that playlist: each announced.
    idle.command("idle stored_playlist")
    commands.save("Cantata list")
    changes = idle.changes("idle, then save")
    expect(changes == ["stored_playlist"], f"the idle connection's answer to save: {changes}")
    idle.command("idle stored_playlist")
    commands.playlistadd("Cantata list", "Bea Quartet/Night Songs/01 Owl.mp3")
    changes = idle.changes("idle, then playlistadd")
    expect(changes == ["stored_playlist"], f"the idle connection's answer to playlistadd: {changes}")
    listed = [s.get("title") for s in commands.listplaylistinfo("Cantata list")]
    expect(listed == ["Gale", "Breeze", "Calm", "Owl"], f"listplaylistinfo after playlistadd: {listed}")
    commands.rm("Cantata list")
    commands.clear()
    commands.disconnect()
    idle.close()
    print("ok: Cantata's start-up and first steps")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        main(*sys.argv[1:])
    except (mpd.MPDError, OSError) as error:
        fail(f"{type(error).__name__}: {error}")
