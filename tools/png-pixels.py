#!/usr/bin/env python3
"""tools/png-pixels.py — reads a PNG (8-bit greyscale, RGB or RGBA, not interlaced: what
Chromium's --screenshot writes) with the standard library alone and answers questions about
its pixels, for the browser test of the maps (tests/e2e/t_maps.sh).

  png-pixels.py FILE size                     prints "W H"
  png-pixels.py FILE count RRGGBB X0 Y0 X1 Y1 [TOL]
                                              prints how many pixels of the box (inclusive)
                                              are within TOL (default 24) of the colour on
                                              every channel
"""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (0, 2, 6) or interlace:
                raise SystemExit(f"{path}: unsupported PNG (depth {depth}, type {ctype})")
            bpp = {0: 1, 2: 3, 6: 4}[ctype]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if w is None:
        raise SystemExit(f"{path}: no IHDR")
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def pixel(rows, bpp, x, y):
    px = rows[y][x * bpp:(x + 1) * bpp]
    return (px[0], px[0], px[0]) if bpp == 1 else tuple(px[:3])


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    w, h, bpp, rows = read_png(argv[1])
    if argv[2] == "size":
        print(w, h)
        return
    if argv[2] == "count" and len(argv) in (8, 9):
        want = tuple(int(argv[3][i:i + 2], 16) for i in (0, 2, 4))
        x0, y0, x1, y1 = (int(v) for v in argv[4:8])
        tol = int(argv[8]) if len(argv) == 9 else 24
        n = 0
        for y in range(max(0, y0), min(h - 1, y1) + 1):
            for x in range(max(0, x0), min(w - 1, x1) + 1):
                if all(abs(p - q) <= tol for p, q in zip(pixel(rows, bpp, x, y), want)):
                    n += 1
        print(n)
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
