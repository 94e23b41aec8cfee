"""Writes Xvfb's screen as a PNG: Xvfb started with `-fbdir DIR` keeps its framebuffer in
DIR/Xvfb_screen0 as an XWD image (a header, a colour map, then the pixels), updated as the
screen changes. Standard library only (zlib, struct), so a screenshot needs no ImageMagick.
Prints the share of the screen's pixels that are not the most common colour, so a caller can
tell an empty screen from one with a window on it.

    xwd_to_png.py XWD_FILE PNG_FILE
"""
import struct
import sys
import zlib


def read_xwd(path):
    with open(path, "rb") as f:
        data = f.read()
    header_size, version = struct.unpack(">II", data[:8])
    if version != 7:
        sys.exit(f"xwd_to_png.py: {path}: XWD version {version}, not 7")
    fields = struct.unpack(">25I", data[:100])
    (_, _, pixmap_format, depth, width, height, _, byte_order, _, _, _, bits_per_pixel,
     bytes_per_line, _, red_mask, green_mask, blue_mask, _, _, ncolors) = fields[:20]
    if pixmap_format != 2 or bits_per_pixel != 32:
        sys.exit(f"xwd_to_png.py: {path}: format {pixmap_format}, {bits_per_pixel} bits per pixel: only "
                 "32-bit ZPixmap is read (start Xvfb with a depth of 24)")
    offset = header_size + ncolors * 12
    rows = []
    little = byte_order == 0
    shifts = [mask_shift(m) for m in (red_mask, green_mask, blue_mask)]
    for y in range(height):
        line = data[offset + y * bytes_per_line: offset + y * bytes_per_line + width * 4]
        pixels = struct.unpack(("<" if little else ">") + f"{width}I", line)
        row = bytearray(width * 3)
        for x, p in enumerate(pixels):
            row[3 * x] = (p & red_mask) >> shifts[0]
            row[3 * x + 1] = (p & green_mask) >> shifts[1]
            row[3 * x + 2] = (p & blue_mask) >> shifts[2]
        rows.append(bytes(row))
    return width, height, rows


def mask_shift(mask):
    shift = 0
    while mask and not mask & 1:
        mask >>= 1
        shift += 1
    return shift


def write_png(path, width, height, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    width, height, rows = read_xwd(sys.argv[1])
    write_png(sys.argv[2], width, height, rows)
    counts = {}
    for row in rows[::4]:
        for x in range(0, len(row), 12):
            key = row[x:x + 3]
            counts[key] = counts.get(key, 0) + 1
    total = sum(counts.values())
    print(f"{width}x{height} non-background {1 - max(counts.values()) / total:.3f}")


if __name__ == "__main__":
    main()
