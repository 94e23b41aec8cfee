"""Drives an MPD server as myMPD (the web client, on libmpdclient) does when it starts and
builds its album cache (src/mpd_worker/album_cache.c): binarylimit, the commands and tag types
it may use, only the tags it wants (tagtypes clear + enable, in a command list), the database's
date (stats), then every song that has an album and an album artist in windows of
MPD_RESULTS_MAX songs — `search "((Album != '') AND (AlbumArtist !=''))" window START:END`,
the next window while the last was full — and the same with `find`; then its simple album
cache and the browse views: list AlbumArtist, list Album group AlbumArtist, count, an album's
songs in disc order, its cover (albumart, then readpicture) in binarylimit chunks. Checks
each answer against the test library (Tests/TestSupport/Music/ClientLibrary.swift) and exits
1 with a clear message on any protocol error or wrong answer.

    mpd_mympd.py HOST PORT PICTURES_FOLDER WINDOW

WINDOW is MPD_RESULTS_MAX (myMPD's is 1000; a small one makes a small library span windows).
"""
import os
import sys

import mpd

ALBUM_TAGS = ["Artist", "Album", "AlbumArtist", "Title", "Track", "Disc", "Date", "Genre"]
ALBUMS = {("Ann Arbor", "First Light"): 3, ("Ann Arbor", "Second Wind"): 3,
          ("Bea Quartet", "Night Songs"): 2, ("Various Artists", "Summer Mix"): 2}


def fail(message):
    print(f"mpd_mympd.py: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def album_cache(client, command, expression, window):
    """album_cache_create: windows until one comes back short."""
    songs, start = [], 0
    while True:
        page = getattr(client, command)(expression, "window", f"{start}:{start + window}")
        expect(len(page) <= window, f"{command} window {start}:{start + window} gave {len(page)} songs")
        songs += page
        start += window
        if len(songs) < start:
            return songs


def picture(client, command, uri):
    """The whole picture: python-mpd2 asks for the chunks by offset, as myMPD's loop does."""
    answer = getattr(client, command)(uri)
    return bytes(answer["binary"]) if answer else None


def main(host, port, pictures, window):
    window = int(window)
    with open(os.path.join(pictures, "cover.jpg"), "rb") as f:
        cover = f.read()
    with open(os.path.join(pictures, "embedded.png"), "rb") as f:
        embedded = f.read()
    mpd.MPDClient.add_command("binarylimit", mpd.MPDClient._parse_nothing)
    client = mpd.MPDClient()
    client.timeout = 10
    client.connect(host, int(port))
    expect(client.mpd_version.startswith("0.23"), f"protocol version {client.mpd_version}")

    # The connection's set-up: chunks of 8 KiB, the features (commands), the tags.
    client.binarylimit(8192)
    commands = set(client.commands())
    for needed in ["albumart", "readpicture", "binarylimit", "tagtypes", "list", "playlistadd", "searchadd"]:
        expect(needed in commands, f"{needed!r} missing from commands")
    expect(isinstance(list(client.notcommands()), list), "notcommands")
    tags = list(client.tagtypes())
    for tag in ALBUM_TAGS:
        expect(tag in tags, f"tag type {tag} missing from tagtypes: {tags}")
    client.command_list_ok_begin()
    client.tagtypes("clear")
    client.tagtypes("enable", *ALBUM_TAGS)
    client.command_list_end()
    expect(sorted(client.tagtypes()) == sorted(ALBUM_TAGS), f"tagtypes after clear + enable: {list(client.tagtypes())}")
    db_update = client.stats().get("db_update")
    expect(db_update and int(db_update) > 0, f"stats db_update {db_update!r}")

    # The album cache, as myMPD 11+ sends it (search) and as the expression reads with find.
    for command, expression in [("search", "((Album != '') AND (AlbumArtist !=''))"),
                                ("find", "((Album != '') AND (AlbumArtist != ''))")]:
        songs = album_cache(client, command, expression, window)
        expect(len(songs) == 10, f"{command} {expression} in windows of {window}: {len(songs)} songs, not 10")
        expect(len({s["file"] for s in songs}) == 10, f"{command}: a song twice across windows")
        albums = {}
        for song in songs:
            extra = set(song) - {"file", "last-modified", "format", "time", "duration"} - {t.lower() for t in ALBUM_TAGS}
            expect(not extra, f"{command}: {song['file']} has {sorted(extra)}, which were not enabled")
            key = (song.get("albumartist"), song.get("album"))
            albums[key] = albums.get(key, 0) + 1
        expect(albums == ALBUMS, f"{command}: albums {albums}")
    second_wind = client.find("((Album == 'Second Wind') AND (AlbumArtist == 'Ann Arbor'))", "sort", "Disc", "window", "0:1000")
    expect([(s.get("disc"), s.get("track"), s.get("title")) for s in second_wind] ==
           [("1", "1", "Gale"), ("1", "2", "Breeze"), ("2", "1", "Calm")], f"Second Wind by disc: {second_wind}")

    # The simple cache and the browse views.
    grouped = client.list("Album", "group", "AlbumArtist")
    # python-mpd2 gathers a group's values into a list.
    pairs = {(g["albumartist"], album) for g in grouped
             for album in (g["album"] if isinstance(g["album"], list) else [g["album"]]) if album}
    expect(pairs == set(ALBUMS), f"list Album group AlbumArtist: {grouped}")
    artists = [a["albumartist"] for a in client.list("AlbumArtist")]
    expect(artists == ["", "Ann Arbor", "Bea Quartet", "Various Artists"], f"list AlbumArtist: {artists}")
    count = client.count("AlbumArtist", "Ann Arbor")
    expect(count.get("songs") == "6" and int(count.get("playtime", 0)) >= 120, f"count AlbumArtist 'Ann Arbor': {count}")
    counted = client.count("group", "AlbumArtist")  # python-mpd2 folds the groups into lists
    expect((counted.get("albumartist"), counted.get("songs")) ==
           (["", "Ann Arbor", "Bea Quartet", "Various Artists"], ["1", "6", "2", "2"]), f"count group AlbumArtist: {counted}")
    expect(client.count("((Album == 'Night Songs') AND (Disc == '2'))").get("songs") == "0", "count with no match")

    # Covers: albumart first, readpicture when there is no cover file (8 KiB chunks, then 64).
    expect(picture(client, "albumart", "Ann Arbor/First Light/02 Morning.mp3") == cover, "albumart is not cover.jpg")
    try:
        picture(client, "albumart", "Bea Quartet/Night Songs/02 Moth.mp3")
        fail("albumart of a folder with no cover file answered")
    except mpd.CommandError as error:
        expect(error.errno is mpd.FailureResponseCode.NO_EXIST, f"albumart with no cover: {error}")
    expect(picture(client, "readpicture", "Bea Quartet/Night Songs/02 Moth.mp3") == embedded,
           "readpicture is not the embedded PNG")
    client.binarylimit(65536)
    expect(picture(client, "readpicture", "Bea Quartet/Night Songs/01 Owl.mp3") == embedded,
           "readpicture in one 64 KiB chunk")
    client.disconnect()
    print(f"ok: myMPD's album cache in windows of {window}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    try:
        main(*sys.argv[1:])
    except (mpd.MPDError, OSError) as error:
        fail(f"{type(error).__name__}: {error}")
