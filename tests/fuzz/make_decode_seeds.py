#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_decode (tests/fuzz/corpus/decode): small
PNGs of every colour type and bit depth stb_image reads (grey, grey+alpha,
RGB, RGBA, palette with tRNS; 1 to 16 bits; Adam7 interlaced) and small raw16
and r32 files. Each file starts with the target's three selector bytes:
encoding (0 PNG, 1 raw16, 2 r32) and the raw width (little-endian, 0 = square).
Deterministic; rerun after changing it and commit the output."""
import os
import struct
import sys
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "decode")


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def sample(x, y, depth):
    return ((x * 5 + y * 3) * 37) % (1 << depth)


def channels(color_type):
    return {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]


def pack_row(values, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", v) for v in values)
    if depth == 8:
        return bytes(values)
    per = 8 // depth
    out = bytearray()
    for i in range(0, len(values), per):
        byte = 0
        for j, v in enumerate(values[i:i + per]):
            byte |= v << (8 - depth * (j + 1))
        out.append(byte)
    return bytes(out)


def scanlines(w, h, color_type, depth, filters, xs=None, ys=None):
    xs = xs if xs is not None else range(w)
    ys = ys if ys is not None else range(h)
    raw = bytearray()
    for n, y in enumerate(ys):
        values = []
        for x in xs:
            for c in range(channels(color_type)):
                values.append(sample(x + c, y, depth))
        # Filter type as stored, with the row unfiltered: the decoder must
        # still accept it; type 0 (none) keeps the pixels as written.
        raw.append(filters[n % len(filters)])
        raw += pack_row(values, depth)
    return bytes(raw)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(w, h, color_type, depth, interlace=False, filters=(0,), extra=b""):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 1 if interlace else 0)
    if interlace:
        data = b""
        for x0, y0, dx, dy in ADAM7:
            xs, ys = range(x0, w, dx), range(y0, h, dy)
            if len(xs) and len(ys):
                data += scanlines(w, h, color_type, depth, filters, xs, ys)
    else:
        data = scanlines(w, h, color_type, depth, filters)
    body = chunk(b"IHDR", ihdr)
    if color_type == 3:
        body += chunk(b"PLTE", bytes(range(0, 48)))
        body += chunk(b"tRNS", bytes([0, 128, 255]))
    body += extra
    # Two IDAT chunks: the decoder must join them.
    z = zlib.compress(data, 9)
    body += chunk(b"IDAT", z[: len(z) // 2]) + chunk(b"IDAT", z[len(z) // 2:])
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b"")


def write(name, selector, payload):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes(selector) + payload)


def main():
    os.makedirs(OUT, exist_ok=True)
    png_seeds = {
        "grey1.png": png(9, 5, 0, 1),
        "grey2.png": png(7, 3, 0, 2),
        "grey4.png": png(5, 4, 0, 4),
        "grey8.png": png(8, 8, 0, 8),
        "grey16.png": png(8, 8, 0, 16),
        "grey8-filters.png": png(6, 5, 0, 8, filters=(1, 2, 3, 4, 0)),
        "grey16-filters.png": png(6, 5, 0, 16, filters=(4, 3, 2, 1, 0)),
        "grey8-adam7.png": png(11, 9, 0, 8, interlace=True),
        "grey16-adam7.png": png(9, 10, 0, 16, interlace=True, filters=(0, 1, 2, 3, 4)),
        "grey-alpha8.png": png(4, 4, 4, 8),
        "grey-alpha16.png": png(4, 3, 4, 16),
        "rgb8.png": png(5, 5, 2, 8, filters=(0, 1)),
        "rgb16.png": png(3, 4, 2, 16),
        "rgba8.png": png(4, 4, 6, 8, filters=(2, 3)),
        "rgba16-adam7.png": png(5, 6, 6, 16, interlace=True),
        "palette4.png": png(6, 3, 3, 4),
        "palette8.png": png(4, 4, 3, 8),
        "grey8-trns-gama.png": png(4, 4, 0, 8, extra=chunk(b"tRNS", b"\x00\x07") + chunk(b"gAMA", struct.pack(">I", 45455))),
        "one-pixel.png": png(1, 1, 0, 16),
    }
    for name, data in png_seeds.items():
        write(name, (0, 0, 0), data)
    raw16 = b"".join(struct.pack("<H", (k * 4099) & 0xFFFF) for k in range(16))
    write("square4.raw16", (1, 0, 0), raw16)
    write("wide8x2.raw16", (1, 8, 0), raw16)
    r32 = b"".join(struct.pack("<f", v) for v in (0.0, 1.0, -2.5, 1e30, float("inf"), float("nan"), 5e-45, 0.5, 3.0))
    write("square3.r32", (2, 0, 0), r32)
    write("row9.r32", (2, 9, 0), r32)
    return 0


if __name__ == "__main__":
    sys.exit(main())
