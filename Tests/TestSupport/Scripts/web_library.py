"""The web benchmark's library: ALBUMS albums of TRACKS tracks, every file written whole (one
short MP3's frames behind an ID3v2.4 tag of its own), so that each album has its own album,
artist, album artist and track numbers — a cover grid of ALBUMS distinct albums — and, in 3 of
4 album folders (spread by a hash), a `cover.jpg` of its own.

    web_library.py make OUT BASE.mp3 LONG.mp3 COVERS_DIR ALBUMS TRACKS MANIFEST.json

BASE.mp3: the audio of every track (its own tags, if any, are dropped) but the last album's
last, which is LONG.mp3's (a track that plays on while the benchmark toggles play and pause). COVERS_DIR: JPEGs
(`*.jpg`); album N's cover is the (N mod count)th with a comment segment naming the album
inserted after its start-of-image marker, so every cover file is distinct (Mopidy-Local keeps
one image per distinct content and would otherwise serve a few URLs for all albums, which
the browser would fetch once) while the picture stays the same.

Tags are written here, not with mutagen: 20,000 files take a few seconds. Names come from
mpd_library (the MPD benchmark's words): artists `artist_name`, albums `album_name`, titles
`title_of`, so 1 % of the titles hold mpd_library.SEARCH_WORD. 10 albums an artist;
`Artist/Album/NN Title.mp3`. MANIFEST (outside OUT, written last) says what was made: the
search word and how many titles hold it, the first album by album artist, the long track, the
albums that have a cover (by name: album names are unique here), the counts, bytes.
Everything follows from the numbers: two runs write the same library.
"""
import json
import os
import sys
import time

from mpd_library import SEARCH_WORD, album_name, artist_name, safe, title_of

ALBUMS_PER_ARTIST = 10
VERSION = 1


def syncsafe(number):
    return bytes([(number >> 21) & 0x7F, (number >> 14) & 0x7F, (number >> 7) & 0x7F, number & 0x7F])


def text_frame(frame_id, text):
    body = b"\x03" + text.encode("utf-8")  # UTF-8
    return frame_id.encode("ascii") + syncsafe(len(body)) + b"\x00\x00" + body


def id3(frames):
    body = b"".join(frames) + b"\x00" * 64  # a little padding, as taggers leave
    return b"ID3\x04\x00\x00" + syncsafe(len(body)) + body


def audio_of(path):
    """BASE.mp3's MPEG frames: without a leading ID3v2 tag or a trailing ID3v1 tag."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:3] == b"ID3":
        size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
        data = data[10 + size + (10 if data[5] & 0x10 else 0):]
    if len(data) > 128 and data[-128:-125] == b"TAG":
        data = data[:-128]
    return data


def libjpeg_order(jpeg):
    """The JPEG with its frame header (SOFn) before its Huffman tables, as libjpeg writes it:
    ffmpeg writes DHT first, and Mopidy-Local's size reader, which stops at the first marker
    in 0xC0…0xCF (DHT is 0xC4), would then read a 769×2 image (Iris sorts images by width)."""
    segments, index = [], 2
    while jpeg[index] == 0xFF and jpeg[index + 1] != 0xDA:  # up to start-of-scan
        length = int.from_bytes(jpeg[index + 2:index + 4], "big")
        segments.append(jpeg[index:index + 2 + length])
        index += 2 + length
    frames = [s for s in segments if s[1] in range(0xC0, 0xD0) and s[1] not in (0xC4, 0xC8, 0xCC)]
    others = [s for s in segments if s not in frames]
    tables = next(i for i, s in enumerate(others) if s[1] == 0xC4)
    return jpeg[:2] + b"".join(others[:tables] + frames + others[tables:]) + jpeg[index:]


def distinct_cover(jpeg, album):
    """The JPEG with a COM segment after SOI: other bytes, the same picture."""
    comment = f"web benchmark album {album}".encode("ascii")
    return jpeg[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + jpeg[2:]


def make(out, base, long, covers_dir, albums, tracks, manifest):
    started = time.monotonic()
    audio = audio_of(base)
    long_audio = audio_of(long)
    long_track = None
    covers = []
    for name in sorted(os.listdir(covers_dir)):
        if name.endswith(".jpg"):
            with open(os.path.join(covers_dir, name), "rb") as handle:
                covers.append(libjpeg_order(handle.read()))
    if not covers:
        raise SystemExit(f"no *.jpg in {covers_dir}")
    os.makedirs(out)
    total = 0
    cover_count = 0
    matches = 0
    artists = (albums + ALBUMS_PER_ARTIST - 1) // ALBUMS_PER_ARTIST
    for album in range(albums):
        owner = album // ALBUMS_PER_ARTIST
        artist = artist_name(owner)
        name = album_name(album)
        folder = os.path.join(out, safe(artist), safe(name))
        os.makedirs(folder)
        year = str(1960 + (album * 7) % 64)
        for position in range(tracks):
            number = album * tracks + position
            title = title_of(number)
            matches += SEARCH_WORD in title
            tag = id3([text_frame("TIT2", title), text_frame("TPE1", artist), text_frame("TPE2", artist),
                       text_frame("TALB", name), text_frame("TRCK", f"{position + 1}/{tracks}"),
                       text_frame("TDRC", year)])
            path = os.path.join(folder, f"{position + 1:02d} {safe(title)}.mp3")
            last = number == albums * tracks - 1
            with open(path, "wb") as handle:
                total += handle.write(tag + (long_audio if last else audio))
            if last:
                long_track = {"uri": os.path.relpath(path, out), "title": title, "album": name, "artist": artist}
        # 3 of 4 albums, spread by a hash: album_name's adjective repeats every 100 albums, so
        # `album % 4` would leave every album of some adjectives (all "Amber …") without one.
        if (album * 2654435761 >> 8) % 4 != 3:
            with open(os.path.join(folder, "cover.jpg"), "wb") as handle:
                total += handle.write(distinct_cover(covers[album % len(covers)], album))
            cover_count += 1
    # The grids are sorted by album artist, then album: the first album is the first artist's
    # alphabetically first album.
    first = min(((artist_name(album // ALBUMS_PER_ARTIST), album_name(album)) for album in range(albums)))
    covered = sorted(album_name(album) for album in range(albums)
                     if os.path.exists(os.path.join(out, safe(artist_name(album // ALBUMS_PER_ARTIST)), safe(album_name(album)), "cover.jpg")))
    facts = {
        "version": VERSION,
        "seconds": round(time.monotonic() - started, 1),
        "count": albums * tracks,
        "albums": albums,
        "tracksPerAlbum": tracks,
        "artists": artists,
        "covers": cover_count,
        "coverSources": len(covers),
        "searchWord": SEARCH_WORD,
        "searchMatches": matches,
        "firstAlbum": first[1],
        "firstArtist": first[0],
        "longTrack": long_track,
        "coveredAlbums": covered,
        "bytes": total,
        "made": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()),
    }
    with open(manifest + ".tmp", "w") as handle:
        json.dump(facts, handle, indent=1, sort_keys=True)
    os.rename(manifest + ".tmp", manifest)


def main():
    if sys.argv[1:2] == ["make"] and len(sys.argv) == 9:
        make(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]), sys.argv[8])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
