"""Tags the files of the MPD side-by-side library (Tests/TestSupport/MPD/MPDTestLibrary.swift)
as taggers do, which lame cannot: ID3v2.4 frames of any kind (TXXX and UFID MusicBrainz ids,
COMM comments, several values in one frame, an embedded APIC front cover) and FLAC Vorbis
comments. The plan is a JSON list, one object a file:

    {"path": "A/01.mp3", "frames": [["TIT2", "Title"], ["TCON", "Rock", "Pop"],
                                    ["TXXX:MusicBrainz Album Id", "…"], ["COMM", "text"],
                                    ["UFID:http://musicbrainz.org", "…"]],
     "picture": "cover.jpg"}
    {"path": "B/01.flac", "comments": [["TITLE", "Title"], ["PERFORMER", "A", "B"]]}

Paths are relative to the library folder. Frames replace whatever the file had.

    mpd_library_tags.py LIBRARY PLAN.json
"""
import json
import os
import sys

from mutagen import id3
from mutagen.flac import FLAC


def id3_frame(spec):
    name, values = spec[0], spec[1:]
    if name.startswith("TXXX:"):
        return id3.TXXX(encoding=3, desc=name[5:], text=values)
    if name.startswith("UFID:"):
        return id3.UFID(owner=name[5:], data=values[0].encode("ascii"))
    if name == "COMM":
        return id3.COMM(encoding=3, lang="eng", desc="", text=values)
    return getattr(id3, name)(encoding=3, text=values)


def tag_mp3(path, entry, library):
    tags = id3.ID3()
    for spec in entry.get("frames", []):
        tags.add(id3_frame(spec))
    if "picture" in entry:
        with open(os.path.join(library, entry["picture"]), "rb") as image:
            tags.add(id3.APIC(encoding=3, mime="image/jpeg", type=3, desc="Front", data=image.read()))
    tags.save(path, v2_version=4)


def tag_flac(path, entry):
    tagged = FLAC(path)
    tagged.delete()
    for spec in entry.get("comments", []):
        tagged[spec[0]] = spec[1:]
    tagged.save()


def main():
    library, plan = sys.argv[1], sys.argv[2]
    with open(plan, encoding="utf-8") as source:
        entries = json.load(source)
    for entry in entries:
        path = os.path.join(library, entry["path"])
        if path.endswith(".flac"):
            tag_flac(path, entry)
        else:
            tag_mp3(path, entry, library)


if __name__ == "__main__":
    main()
