"""Writes iTunes freeform atoms ("----:com.apple.iTunes:NAME") into an M4A file, which ffmpeg's
muxer cannot: ReplayGain, iTunSMPB, MusicBrainz ids, as iTunes and taggers write them.
"atom:NAME=VALUE" sets the text atom NAME itself instead ("atom:soar=Ann, The": the sort
atoms ffmpeg 5.1's muxer does not write).

    m4a_tags.py FILE NAME=VALUE...
"""
import sys

from mutagen.mp4 import MP4, MP4FreeForm


def main():
    path, pairs = sys.argv[1], sys.argv[2:]
    tagged = MP4(path)
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name.startswith("atom:"):
            tagged[name[len("atom:"):]] = [value]
        else:
            tagged["----:com.apple.iTunes:" + name] = [MP4FreeForm(value.encode("utf-8"))]
    tagged.save()


if __name__ == "__main__":
    main()
