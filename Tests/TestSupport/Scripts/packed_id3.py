"""The ID3 tag a packed-audio HLS station puts in front of each ADTS segment (hls_server.py adds
it as it serves a segment): PRIV com.apple.streaming.transportStreamTimestamp (where the segment
starts, in 90 kHz ticks, 33 bits in 8 bytes) and, from ROOT/packed-titles.txt, the title current
at the segment's start (TIT2, TPE1).

ROOT/packed-titles.txt: one "SECONDS<TAB>ARTIST<TAB>TITLE" a line, the first at 0.
ROOT/packed-bad.txt: "SECONDS<TAB>KIND" lines: from SECONDS on, segments get a malformed tag of
KIND instead (huge-size, frame-past-end, huge-frame, truncated, not-syncsafe), one segment each,
in turn, after which good tags go on.

A segment's start is counted from the ADTS frames (1024 samples each) of the segments before it
(seg-<frequency>-<n>.aac, n from 0: the segment muxer deletes none).
"""
import os
import re
import threading

FIRST_TICKS = 900000  # ten seconds: a station's clock does not start at zero
RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
_LOCK = threading.Lock()
_FRAMES = {}


def syncsafe(value):
    return bytes([(value >> 21) & 0x7F, (value >> 14) & 0x7F, (value >> 7) & 0x7F, value & 0x7F])


def frame(ident, body):
    return ident.encode("ascii") + syncsafe(len(body)) + b"\x00\x00" + body


def adts_frames(path):
    """(frames, sample rate) of an ADTS file."""
    with open(path, "rb") as handle:
        data = handle.read()
    count, offset, rate = 0, 0, 44100
    while offset + 7 <= len(data) and data[offset] == 0xFF and data[offset + 1] & 0xF0 == 0xF0:
        rate = RATES[(data[offset + 2] >> 2) & 0x0F]
        length = ((data[offset + 3] & 0x03) << 11) | (data[offset + 4] << 3) | (data[offset + 5] >> 5)
        if length < 7:
            break
        count += 1
        offset += length
    return count, rate


def segment_start(root, name):
    """Samples before segment `name` and its rate, or None when it is not a numbered segment."""
    match = re.fullmatch(r"(seg-\d+-)(\d+)\.aac", name)
    if not match:
        return None
    prefix, number = match.group(1), int(match.group(2))
    samples, rate = 0, 44100
    for earlier in range(number):
        path = os.path.join(root, "%s%05d.aac" % (prefix, earlier))
        with _LOCK:
            known = _FRAMES.get(path)
        if known is None:
            known = adts_frames(path)
            with _LOCK:
                _FRAMES[path] = known
        samples += known[0] * 1024
        rate = known[1]
    if number == 0:
        rate = adts_frames(os.path.join(root, name))[1]
    return samples, rate


def lines(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return [line.rstrip("\n").split("\t") for line in handle if line.strip()]
    except FileNotFoundError:
        return []


def malformed(kind, timestamp):
    body = frame("PRIV", b"com.apple.streaming.transportStreamTimestamp\x00" + timestamp)
    if kind == "huge-size":  # a tag that says it is 256 MiB long
        return b"ID3\x04\x00\x00" + b"\x7f\x7f\x7f\x7f" + body
    if kind == "frame-past-end":  # a TIT2 frame that says it is far longer than the tag
        bad = b"TIT2" + syncsafe(1 << 26) + b"\x00\x00\x03Bad Title"
        return b"ID3\x04\x00\x00" + syncsafe(len(body + bad)) + body + bad
    if kind == "huge-frame":  # a 200 KiB TIT2 frame, whole
        big = frame("TIT2", b"\x03" + b"A" * (200 * 1024))
        return b"ID3\x04\x00\x00" + syncsafe(len(body + big)) + body + big
    if kind == "truncated":  # a tag cut short: its size counts bytes that are not there
        whole = frame("TIT2", b"\x03Cut Title") + frame("TPE1", b"\x03Cut Artist")
        return (b"ID3\x04\x00\x00" + syncsafe(len(body + whole)) + body + whole)[:30]
    if kind == "not-syncsafe":  # size bytes with their high bit set
        return b"ID3\x04\x00\x00\x80\x80\x80\xff" + body
    raise ValueError(kind)


def tag(root, name):
    """The bytes to put in front of segment `name` (empty when it gets none)."""
    start = segment_start(root, name)
    titles = lines(os.path.join(root, "packed-titles.txt"))
    if start is None or not titles:
        return b""
    samples, rate = start
    seconds = samples / rate
    ticks = (FIRST_TICKS + samples * 90000 // rate) & ((1 << 33) - 1)
    timestamp = ticks.to_bytes(8, "big")
    bad = [(float(at), kind) for at, kind in lines(os.path.join(root, "packed-bad.txt"))]
    started = [kind for at, kind in bad if at <= seconds]
    if bad and started:
        number = int(re.fullmatch(r"seg-\d+-(\d+)\.aac", name).group(1))
        first = min(at for at, _ in bad)
        # The segments from the first bad second on: one of each kind in turn.
        index = number - int(segment_index_at(root, name, first))
        kinds = [kind for _, kind in sorted(bad)]
        if 0 <= index < len(kinds):
            return malformed(kinds[index], timestamp)
    current = [entry for entry in titles if float(entry[0]) <= seconds + 1e-6][-1]
    frames = frame("PRIV", b"com.apple.streaming.transportStreamTimestamp\x00" + timestamp)
    frames += frame("TIT2", b"\x03" + current[2].encode("utf-8"))
    if current[1]:
        frames += frame("TPE1", b"\x03" + current[1].encode("utf-8"))
    return b"ID3\x04\x00\x00" + syncsafe(len(frames)) + frames


def segment_index_at(root, name, seconds):
    """The number of the first segment that starts at or after `seconds`."""
    prefix = re.fullmatch(r"(seg-\d+-)\d+\.aac", name).group(1)
    number = 0
    while True:
        path = os.path.join(root, "%s%05d.aac" % (prefix, number))
        if not os.path.exists(path):
            return number
        samples, rate = segment_start(root, "%s%05d.aac" % (prefix, number))
        if samples / rate >= seconds - 1e-6:
            return number
        number += 1
