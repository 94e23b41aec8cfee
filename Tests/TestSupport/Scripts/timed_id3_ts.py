"""Writes an MPEG-TS file that carries only timed ID3 (the way an HLS station's packager
carries its titles): a PAT, a PMT with one stream of type 0x15 (metadata in PES) described as
ID3 (the metadata descriptor ffmpeg's own muxer writes), and one PES packet per tag, its PTS
the moment the tag starts. ffmpeg then muxes it beside the audio into the HLS segments
(`-map 1:d -c:d copy`), as a station's packager would.

    timed_id3_ts.py OUT.ts --every SECONDS --until SECONDS [--title SECONDS ARTIST TITLE]...
                    [--bad SECONDS KIND]...

A tag goes out every SECONDS (stations repeat the current title) and at every title change;
each holds TIT2 (title) and TPE1 (artist); its PES timestamp says when it starts. `--bad`: at
SECONDS a malformed tag of KIND (packed_id3.py's kinds but huge-frame, which a PES cannot hold)
goes out instead.

FFmpeg's demuxer (5.1) skips a 5-byte metadata access unit header at the start of every
type-0x15 PES payload, so each payload here starts with one: ffmpeg reading this file gets the
tag whole and writes it as a station does (the bare tag after the PES header).
"""
import argparse
import struct

import packed_id3

TS_PACKET = 188
PMT_PID = 0x1000
ID3_PID = 0x0102
FIRST_PTS = 90000  # one second: a station's clock does not start at zero


def syncsafe(value):
    return bytes([(value >> 21) & 0x7F, (value >> 14) & 0x7F, (value >> 7) & 0x7F, value & 0x7F])


def frame(ident, body):
    return ident.encode("ascii") + syncsafe(len(body)) + b"\x00\x00" + body


def id3_tag(artist, title):
    frames = frame("TIT2", b"\x03" + title.encode("utf-8"))
    if artist:
        frames += frame("TPE1", b"\x03" + artist.encode("utf-8"))
    return b"ID3\x04\x00\x00" + syncsafe(len(frames)) + frames


def crc32_mpeg(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc


class Writer:
    def __init__(self, out):
        self.out = out
        self.counters = {}

    def packets(self, pid, payload, start):
        """Splits `payload` into TS packets of `pid` (the last one padded by its adaptation field)."""
        while True:
            counter = self.counters.get(pid, 0)
            self.counters[pid] = (counter + 1) & 0x0F
            header = bytes([0x47, (0x40 if start else 0) | (pid >> 8), pid & 0xFF])
            room = TS_PACKET - 4
            chunk, payload = payload[:room], payload[room:]
            if len(chunk) < room:
                stuffing = room - len(chunk)
                if stuffing == 1:
                    adaptation = b"\x00"
                else:
                    adaptation = bytes([stuffing - 1, 0x00]) + b"\xFF" * (stuffing - 2)
                self.out.write(header + bytes([0x30 | counter]) + adaptation + chunk)
            else:
                self.out.write(header + bytes([0x10 | counter]) + chunk)
            start = False
            if not payload:
                return

    def section(self, pid, table):
        self.packets(pid, b"\x00" + table + struct.pack(">I", crc32_mpeg(table)), True)

    def tables(self):
        # PAT: program 1 in PMT_PID.
        body = struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HH", 1, 0xE000 | PMT_PID)
        self.section(0, bytes([0x00]) + struct.pack(">H", 0xB000 | (len(body) + 4)) + body)
        # PMT: one metadata stream (type 0x15) described as ID3, as ffmpeg's muxer writes it.
        descriptor = bytes([0x26, 13]) + b"\xFF\xFF" + b"ID3 " + b"\xFF" + b"ID3 " + b"\x00\x0F"
        stream = bytes([0x15]) + struct.pack(">HH", 0xE000 | ID3_PID, 0xF000 | len(descriptor)) + descriptor
        body = struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HH", 0xE000 | ID3_PID, 0xF000) + stream
        self.section(PMT_PID, bytes([0x02]) + struct.pack(">H", 0xB000 | (len(body) + 4)) + body)

    def pes(self, pts, data):
        # The metadata access unit header FFmpeg skips: service 0, sequence, flags, length.
        wrapped = bytes([0, 0, 0xDF]) + struct.pack(">H", len(data)) + data
        stamp = bytes([0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF, 0x01 | ((pts >> 14) & 0xFE),
                       (pts >> 7) & 0xFF, 0x01 | ((pts << 1) & 0xFE)])
        header = bytes([0x80, 0x80, 5]) + stamp
        packet = b"\x00\x00\x01\xBD" + struct.pack(">H", len(header) + len(wrapped)) + header + wrapped
        self.packets(ID3_PID, packet, True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--every", type=float, default=1.0)
    parser.add_argument("--until", type=float, default=120.0)
    parser.add_argument("--title", nargs=3, action="append", metavar=("SECONDS", "ARTIST", "TITLE"), default=[])
    parser.add_argument("--bad", nargs=2, action="append", metavar=("SECONDS", "KIND"), default=[])
    arguments = parser.parse_args()
    titles = sorted((float(at), artist, title) for at, artist, title in arguments.title)
    if not titles or titles[0][0] > 0:
        raise SystemExit("the first --title must start at 0")
    bad = {round(float(at), 6): kind for at, kind in arguments.bad}
    moments = set(at for at, _, _ in titles) | set(bad)
    step = 0
    while step * arguments.every <= arguments.until:
        moments.add(round(step * arguments.every, 6))
        step += 1
    with open(arguments.out, "wb") as out:
        writer = Writer(out)
        for at in sorted(moments):
            current = [entry for entry in titles if entry[0] <= at][-1]
            pts = FIRST_PTS + round(at * 90000)
            writer.tables()
            if round(at, 6) in bad:
                writer.pes(pts, packed_id3.malformed(bad[round(at, 6)], pts.to_bytes(8, "big")))
            else:
                writer.pes(pts, id3_tag(current[1], current[2]))


if __name__ == "__main__":
    main()
