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

from synthetic_touchscreen import OneTouch, fixtures, header_of

header = header_of(fixtures / "ts-wacom-isdv4-e6-double-tap-1f.evemu")
target = fixtures / "synthetic-ts-wacom-flick-up-1f.evemu"

rng = random.Random(20261123)
touch = OneTouch()
x0, y0 = 1400, 1250
t = 1700000000.0
touch.frame(t, x0, y0, first=True)
for _ in range(3):
    t += 0.010
    touch.frame(t, x0 + rng.randint(-1, 1), y0 + rng.randint(-1, 1))
steps = 14
for i in range(1, steps + 1):
    t += 0.010
    s = (i / steps) ** 2
    touch.frame(t, x0 + round(30 * s) + rng.randint(-1, 1), y0 - round(700 * s) + rng.randint(-1, 1))
t += 0.010
touch.lift(t)

touch.write(target, header, "make-synthetic-flick.py", "a one-finger flick up, 0.18 s")
print(f"wrote {target} ({len(touch.events)} events)", file=sys.stderr)
