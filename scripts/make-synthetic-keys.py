#!/usr/bin/env python3
"""Writes Fixtures/synthetic-mouse-logitech-k400-modifiers-wheel-click.evemu: the modifier keys
held while a wheel turns and a button clicks (REPLAY.md's "Keys"). The one keyboard recording
with a modifier in evemu-devices (the Logitech K400 Plus's, holding Ctrl and pressing C) has no
pointer events, so the events here are generated; the device description is the real K400
Plus's, a keyboard with a touchpad that reports as a mouse (REL_X/REL_Y, REL_WHEEL, BTN_LEFT),
read from that recording (argument 1; evemu-devices, MIT). Events: the pointer moves, shift is
held over three backward detents of the wheel, released, then two forward detents; Ctrl held
over a click; Caps Lock pressed and released (on), a click, pressed and released again (off);
Super and Alt held over a click.

It also writes Fixtures/synthetic-mouse-logitech-k400-ctrl-wheel-zoom.evemu, the zoom of a
scroll view (REPLAY.md's "our additions": a wheel turned with Ctrl held zooms): the pointer
moves, Ctrl is held over three forward detents, a pause, one backward detent, and released; then
two forward detents without it (a scroll).

Deterministic: running it again writes the same files."""
import sys
from pathlib import Path

source = Path(sys.argv[1])
fixtures = Path(__file__).resolve().parent.parent / "Fixtures"

header = []
for line in source.read_text().splitlines():
    if line.startswith("E:"):
        break
    header.append(line)

events = []


def emit(t, etype, code, value):
    sec = int(t)
    usec = int(round((t - sec) * 1_000_000))
    events.append(f"E: {sec}.{usec:06d} {etype:04x} {code:04x} {value}")


def frame(t, *changes):
    for etype, code, value in changes:
        emit(t, etype, code, value)
    emit(t, 0, 0, 0)


KEY, REL = 1, 2
LEFTSHIFT, LEFTCTRL, LEFTALT, LEFTMETA, CAPSLOCK = 42, 29, 56, 125, 58
BTN_LEFT, REL_X, REL_WHEEL = 0x110, 0, 8

t0 = 1700000000.0


def write(name):
    target = fixtures / name
    lines = header + [f"# Synthetic events written by scripts/make-synthetic-keys.py (the description is the real K400 Plus's)"] + events
    target.write_text("\n".join(lines) + "\n")
    print(f"wrote {target} ({len(events)} events)", file=sys.stderr)
    events.clear()


frame(t0 + 0.00, (REL, REL_X, 5))
frame(t0 + 0.10, (KEY, LEFTSHIFT, 1))
for i in range(3):
    frame(t0 + 0.20 + 0.05 * i, (REL, REL_WHEEL, -1))
frame(t0 + 0.60, (KEY, LEFTSHIFT, 0))
for i in range(2):
    frame(t0 + 0.90 + 0.05 * i, (REL, REL_WHEEL, 1))
frame(t0 + 1.40, (KEY, LEFTCTRL, 1))
frame(t0 + 1.50, (KEY, BTN_LEFT, 1))
frame(t0 + 1.58, (KEY, BTN_LEFT, 0))
frame(t0 + 1.70, (KEY, LEFTCTRL, 0))
frame(t0 + 2.00, (KEY, CAPSLOCK, 1))
frame(t0 + 2.05, (KEY, CAPSLOCK, 0))
frame(t0 + 2.30, (KEY, BTN_LEFT, 1))
frame(t0 + 2.37, (KEY, BTN_LEFT, 0))
frame(t0 + 2.60, (KEY, CAPSLOCK, 1))
frame(t0 + 2.65, (KEY, CAPSLOCK, 0))
frame(t0 + 2.90, (KEY, LEFTMETA, 1))
frame(t0 + 2.95, (KEY, LEFTALT, 1))
frame(t0 + 3.10, (KEY, BTN_LEFT, 1))
frame(t0 + 3.18, (KEY, BTN_LEFT, 0))
frame(t0 + 3.30, (KEY, LEFTALT, 0), (KEY, LEFTMETA, 0))
frame(t0 + 3.80, (REL, REL_X, -5))

write("synthetic-mouse-logitech-k400-modifiers-wheel-click.evemu")

frame(t0 + 0.00, (REL, REL_X, 5))
frame(t0 + 0.10, (KEY, LEFTCTRL, 1))
for i in range(3):
    frame(t0 + 0.20 + 0.05 * i, (REL, REL_WHEEL, 1))
frame(t0 + 0.80, (REL, REL_WHEEL, -1))
frame(t0 + 1.30, (KEY, LEFTCTRL, 0))
for i in range(2):
    frame(t0 + 1.60 + 0.05 * i, (REL, REL_WHEEL, 1))
frame(t0 + 2.30, (REL, REL_X, -5))
write("synthetic-mouse-logitech-k400-ctrl-wheel-zoom.evemu")
