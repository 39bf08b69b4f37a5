#!/usr/bin/env python3
"""Writes Fixtures/synthetic-ts-wacom-flick-up-1f.evemu: a one-finger flick up on the Wacom
ISDv4 E6 touchscreen, as a person throws a list. The only real one-finger swipe among the
fixtures (the Pixel Tablet's) begins sideways, so it does not scroll a list that scrolls only
vertically; this one begins and stays vertical. The device description is the real one
(copied from the Wacom fixture) and the events are generated: touch down at (1400, 1250),
30 ms nearly still, then 700 units up and 30 to the right in 0.14 s, speeding up (the
distance grows as the square of the time), lifted while moving, 10 ms frames with ±1 unit of
jitter. Deterministic (fixed seed): running it again writes the same file."""
import random
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
source = root / "Fixtures" / "ts-wacom-isdv4-e6-double-tap-1f.evemu"
target = root / "Fixtures" / "synthetic-ts-wacom-flick-up-1f.evemu"

header = []
for line in source.read_text().splitlines():
    if line.startswith("E:") or line.startswith("# Events below"):
        break
    header.append(line)

rng = random.Random(20261123)
t = 1700000000.0
events = []


def emit(t, etype, code, value):
    sec = int(t)
    usec = int(round((t - sec) * 1_000_000))
    if usec == 1_000_000:
        sec, usec = sec + 1, 0
    events.append(f"E: {sec}.{usec:06d} {etype:04x} {code:04x} {value}")


def frame(t, x, y, first=False):
    if first:
        emit(t, 3, 0x39, 1)
    emit(t, 3, 0x35, x)
    emit(t, 3, 0x36, y)
    if first:
        emit(t, 1, 0x14a, 1)
    emit(t, 3, 0x00, x)
    emit(t, 3, 0x01, y)
    emit(t, 0, 0, 0)


x0, y0 = 1400, 1250
frame(t, x0, y0, first=True)
for _ in range(3):
    t += 0.010
    frame(t, x0 + rng.randint(-1, 1), y0 + rng.randint(-1, 1))
steps = 14
for i in range(1, steps + 1):
    t += 0.010
    s = (i / steps) ** 2
    frame(t, x0 + round(30 * s) + rng.randint(-1, 1), y0 - round(700 * s) + rng.randint(-1, 1))
t += 0.010
emit(t, 3, 0x39, -1)
emit(t, 1, 0x14a, 0)
emit(t, 0, 0, 0)

text = ("\n".join(header) + "\n# Events below: synthetic (scripts/make-synthetic-flick.py), not a recording: "
        "a one-finger flick up, 0.18 s\n" + "\n".join(events) + "\n")
target.write_text(text)
print(f"wrote {target} ({len(events)} events)", file=sys.stderr)
