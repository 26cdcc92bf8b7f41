#!/usr/bin/env python3
"""Fails unless the PNG given is a real picture of a window: right size, many colours,
no single colour covering nearly everything. Reads any 8-bit RGB/RGBA PNG with the
standard library only."""
import struct, sys, zlib

def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit(f"{path}: expected 8-bit RGB or RGBA, got depth {depth} colour type {colour}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows

path = sys.argv[1]
w, h, ch, rows = read_png(path)
counts = {}
for row in rows[::4]:
    for x in range(0, w * ch, ch * 4):
        px = row[x:x + 3]
        counts[px] = counts.get(px, 0) + 1
total = sum(counts.values())
top = max(counts.values())
print(f"{path}: {w}x{h}, {len(counts)} colours in the sample, most common covers {100 * top / total:.0f}%")
if w < 640 or h < 400:
    sys.exit("screenshot too small")
if len(counts) < 20 or top > 0.9 * total:
    sys.exit("screenshot looks blank")
