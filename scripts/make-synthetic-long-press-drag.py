#!/usr/bin/env python3
"""Writes Fixtures/synthetic-ts-wacom-long-press-drag-1f.evemu: a long press and drag on the
Wacom ISDv4 E6 touchscreen. There is no real recording of that gesture among the fixtures, so
the device description is the real one (copied from the Wacom fixture) and the events are
generated: touch down, 0.8 s held still (with ±2 units of jitter, under 1 pt), a 0.6 s drag
of 840 units (about 300 pt on a 1000-pt screen) to the right with eased speed, 0.1 s still,
lift. Deterministic (fixed seed): running it again writes the same file."""
import math
import random
import sys

from synthetic_touchscreen import OneTouch, fixtures, header_of

header = header_of(fixtures / "ts-wacom-isdv4-e6-double-tap-1f.evemu")
target = fixtures / "synthetic-ts-wacom-long-press-drag-1f.evemu"

rng = random.Random(20261122)
touch = OneTouch()
x0, y0 = 700, 600
t = 1700000000.0
touch.frame(t, x0, y0, first=True)
# Held still for 0.8 s, 10 ms frames, with sensor jitter.
for _ in range(80):
    t += 0.010
    touch.frame(t, x0 + rng.randint(-2, 2), y0 + rng.randint(-2, 2))
# Dragged 840 units right and 60 down over 0.6 s, eased (slow, fast, slow).
steps = 60
for i in range(1, steps + 1):
    t += 0.010
    s = (1 - math.cos(math.pi * i / steps)) / 2
    touch.frame(t, x0 + round(840 * s) + rng.randint(-1, 1), y0 + round(60 * s) + rng.randint(-1, 1))
# Still for 0.1 s, then lifted.
for _ in range(10):
    t += 0.010
    touch.frame(t, x0 + 840 + rng.randint(-1, 1), y0 + 60 + rng.randint(-1, 1))
t += 0.010
touch.lift(t)

touch.write(target, header, "make-synthetic-long-press-drag.py")
print(f"wrote {target} ({len(touch.events)} events)", file=sys.stderr)
