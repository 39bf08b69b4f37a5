#!/usr/bin/env python3
"""Builds the png fuzz target's seeds (Fuzz/corpus/png/): one small picture of every colour
type and depth the reader takes, its rows under each of PNG's five filters, and a PPM. Run once;
the output is committed (make-seeds.py, which rebuilds the other targets' seeds, leaves these)."""
import os, struct, zlib

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "Fuzz", "corpus", "png")
os.makedirs(out, exist_ok=True)

def chunk(kind, body):
    typed = kind + body
    return struct.pack(">I", len(body)) + typed + struct.pack(">I", zlib.crc32(typed) & 0xFFFFFFFF)

def png(width, height, depth, colour, rows, palette=b""):
    """rows: each row's bytes with its filter byte first."""
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
    if palette:
        data += chunk(b"PLTE", palette)
    data += chunk(b"tEXt", b"Comment\x00seed") + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    return data

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
kinds = [(0, 8), (0, 16), (2, 8), (2, 16), (4, 8), (4, 16), (6, 8), (6, 16), (3, 1), (3, 2), (3, 4), (3, 8)]
width, height = 5, 4
for colour, depth in kinds:
    row_bytes = (width * channels[colour] * depth + 7) // 8
    palette = bytes(range(0, 3 * (1 << min(depth, 4)))) if colour == 3 else b""
    for f in range(5):
        rows = [bytes([f]) + bytes(((x * 7 + y * 13) & (0x0F if colour == 3 else 0xFF)) for x in range(row_bytes))
                for y in range(height)]
        write(f"c{colour}-d{depth}-filter{f}.png", png(width, height, depth, colour, rows, palette))
write("picture.ppm", b"P6\n# a comment\n3 2\n255\n" + bytes(range(18)))
print("png seeds:", len(os.listdir(out)))
