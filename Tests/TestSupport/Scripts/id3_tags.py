"""Writes an ID3v2.4 tag into an MP3 file, as a tagger (Picard, Kid3, beets: mutagen) does:
the text frames a music library is browsed by, and an embedded front cover.

    id3_tags.py FILE NAME=VALUE... [picture=PATH]

NAME is one of title, artist, albumartist, album, track ("2/3"), disc ("1/2"), genre, date,
composer; picture=PATH embeds that file as an APIC front cover (type 3) whose MIME type is
told by its name (.png or .jpg). Any tag the file had is replaced.
"""
import sys

from mutagen.id3 import APIC, ID3, TALB, TCOM, TCON, TDRC, TIT2, TPE1, TPE2, TPOS, TRCK

FRAMES = {
    "title": TIT2, "artist": TPE1, "albumartist": TPE2, "album": TALB, "track": TRCK,
    "disc": TPOS, "genre": TCON, "date": TDRC, "composer": TCOM,
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path, pairs = sys.argv[1], sys.argv[2:]
    tag = ID3()
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name == "picture":
            mime = "image/png" if value.endswith(".png") else "image/jpeg"
            with open(value, "rb") as picture:
                tag.add(APIC(encoding=3, mime=mime, type=3, desc="Cover", data=picture.read()))
        elif name in FRAMES:
            tag.add(FRAMES[name](encoding=3, text=[value]))
        else:
            sys.exit(f"id3_tags.py: unknown tag {name!r} in {pair!r}")
    tag.save(path, v2_version=4)


if __name__ == "__main__":
    main()
