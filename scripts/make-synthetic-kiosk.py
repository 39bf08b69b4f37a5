#!/usr/bin/env python3
"""Writes the kiosk fixtures (all synthetic: no real recording of these gestures was found).
The device descriptions are real ones, copied from the fixtures; the events are generated,
deterministically (running it again writes the same files).

- synthetic-ts-dell-canvas27-edge-swipe-{left,right,top,bottom}-1f.evemu: on the Dell Canvas 27
  (595 x 334 mm, resolution 55/98 units per mm), one finger lands 2 mm from an edge and sweeps
  80 mm straight inwards in 0.25 s (eased, 1 mm of sideways drift), then lifts.
- synthetic-ts-dell-canvas27-swipe-20mm-in-1f.evemu: the same sweep to the right, starting
  20 mm in from the left edge (not an edge swipe).
- synthetic-ts-wacom-tap-rotated-{0,90,180,270}-1f.evemu: on the Wacom ISDv4 E6 (0..2776 x
  0..1569), a panel mounted rotated by that many degrees clockwise (libinput's matrices, see
  Sources/GestureTraces/TouchMapping.swift) and a person tapping the point a quarter of the way
  across and 30 % of the way down the screen as they see it: the recorded coordinates are the
  panel's, so the tap lands there only when the replay is told the rotation.
"""
import math
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
fixtures = root / "Fixtures"


def header_of(name):
    header = []
    for line in (fixtures / name).read_text().splitlines():
        if line.startswith("E:") or line.startswith("# Events below") or line.startswith("################################"):
            break
        header.append(line)
    return header


class Recording:
    def __init__(self, t0=1700000000.0):
        self.t = t0
        self.events = []

    def emit(self, etype, code, value):
        sec = int(self.t)
        usec = int(round((self.t - sec) * 1_000_000))
        if usec == 1_000_000:
            sec, usec = sec + 1, 0
        self.events.append(f"E: {sec}.{usec:06d} {etype:04x} {code:04x} {value}")

    def frame(self, x, y, first=False):
        if first:
            self.emit(3, 0x2f, 0)
            self.emit(3, 0x39, 1)
        self.emit(3, 0x35, x)
        self.emit(3, 0x36, y)
        if first:
            self.emit(1, 0x14a, 1)
        self.emit(3, 0x00, x)
        self.emit(3, 0x01, y)
        self.emit(0, 0, 0)

    def lift(self):
        self.emit(3, 0x39, -1)
        self.emit(1, 0x14a, 0)
        self.emit(0, 0, 0)


def write(name, header, recording, what):
    text = ("\n".join(header) + f"\n# Events below: synthetic (scripts/make-synthetic-kiosk.py), not a recording: {what}\n"
            + "\n".join(recording.events) + "\n")
    (fixtures / name).write_text(text)
    print(f"wrote {name} ({len(recording.events)} events)", file=sys.stderr)


# Dell Canvas 27: 0..32767 on both axes, 55 units/mm across, 98 units/mm down.
dell = header_of("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu")
RX, RY, MAX = 55.0, 98.0, 32767
WIDTH_MM, HEIGHT_MM = MAX / RX, MAX / RY


def sweep(start_mm, direction, what, name):
    """One finger from start_mm (x, y in mm) 80 mm along direction (unit vector), 0.25 s."""
    r = Recording()
    steps = 31  # 8 ms frames
    side = (-direction[1], direction[0])
    for i in range(steps + 1):
        s = (1 - math.cos(math.pi * i / steps)) / 2
        drift = 1.0 * s  # mm sideways
        x = start_mm[0] + 80 * s * direction[0] + drift * side[0]
        y = start_mm[1] + 80 * s * direction[1] + drift * side[1]
        r.frame(round(x * RX), round(y * RY), first=(i == 0))
        r.t += 0.008
    r.lift()
    write(name, dell, r, what)


mid_x, mid_y = WIDTH_MM / 2, HEIGHT_MM / 2
sweep((2, mid_y), (1, 0), "from 2 mm inside the left edge, 80 mm right", "synthetic-ts-dell-canvas27-edge-swipe-left-1f.evemu")
sweep((WIDTH_MM - 2, mid_y), (-1, 0), "from 2 mm inside the right edge, 80 mm left", "synthetic-ts-dell-canvas27-edge-swipe-right-1f.evemu")
sweep((mid_x, 2), (0, 1), "from 2 mm inside the top edge, 80 mm down", "synthetic-ts-dell-canvas27-edge-swipe-top-1f.evemu")
sweep((mid_x, HEIGHT_MM - 2), (0, -1), "from 2 mm inside the bottom edge, 80 mm up", "synthetic-ts-dell-canvas27-edge-swipe-bottom-1f.evemu")
sweep((20, mid_y), (1, 0), "from 20 mm inside the left edge, 80 mm right", "synthetic-ts-dell-canvas27-swipe-20mm-in-1f.evemu")

# Wacom ISDv4 E6: 0..2776 across, 0..1569 down.
wacom = header_of("ts-wacom-isdv4-e6-tap-1f.evemu")
WX, WY = 2776, 1569
# libinput's clockwise rotation matrices [a, b, c, d, e, f]: screen = (a x + b y + c, d x + e y + f).
ROTATIONS = {0: (1, 0, 0, 0, 1, 0), 90: (0, -1, 1, 1, 0, 0), 180: (-1, 0, 1, 0, -1, 1), 270: (0, 1, 0, -1, 0, 1)}
TARGET = (0.25, 0.30)  # where the person touches, as a share of the screen's width and height
for degrees, (a, b, c, d, e, f) in ROTATIONS.items():
    # Solve [a b; d e] (x, y) = target - (c, f) for the panel's normalized point.
    det = a * e - b * d
    u, v = TARGET[0] - c, TARGET[1] - f
    x = (e * u - b * v) / det
    y = (a * v - d * u) / det
    r = Recording()
    px, py = round(x * WX), round(y * WY)
    r.frame(px, py, first=True)
    for _ in range(3):
        r.t += 0.020
        r.frame(px, py)
    r.t += 0.020
    r.lift()
    write(f"synthetic-ts-wacom-tap-rotated-{degrees}-1f.evemu", wacom, r,
          f"a panel rotated {degrees} degrees clockwise, tapped at 25 % across and 30 % down the screen")
