"""What the synthetic touchpad fixture scripts share (make-synthetic-pointer.py,
make-synthetic-touchpad-gestures.py): the real device description of a fixture, a trace's evemu
lines, and protocol B contacts on the Elantech pad of the Samsung 700Z3A (3260 x 2282 units at
32 units/mm, about 102 x 71 mm, 5 slots, a clickpad), positions in millimetres."""
import math
import random
from pathlib import Path

root = Path(__file__).resolve().parent.parent
fixtures = root / "Fixtures"
RES = 32  # units per mm, from the Elantech description
MAX_X, MAX_Y = 3260, 2282


def header_of(path):
    header = []
    for line in path.read_text().splitlines():
        if line.startswith("E:") or line.startswith("# Events below") or line.startswith("# events:"):
            break
        header.append(line)
    return header


class Trace:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.t = 1700000000.0
        self.lines = []

    def emit(self, etype, code, value):
        sec = int(self.t)
        usec = int(round((self.t - sec) * 1_000_000))
        if usec == 1_000_000:
            sec, usec = sec + 1, 0
        self.lines.append(f"E: {sec}.{usec:06d} {etype:04x} {code:04x} {value}")

    def syn(self):
        self.emit(0, 0, 0)

    def wait(self, seconds):
        self.t += seconds


class Touchpad(Trace):
    """Protocol B contacts on the Elantech pad (or another pad: `units`), positions in mm."""

    TOOLS = {1: 0x145, 2: 0x14D, 3: 0x14E, 4: 0x14F}

    def __init__(self, seed):
        super().__init__(seed)
        self.down = {}  # slot -> (x, y) in units
        self.next_id = 100
        self.tool = 0
        self.jitter = 1  # each position wobbles by up to this many units, as a real finger's does
        # The pad's axes: the minimum and maximum of x and y, and units per mm of each.
        self.units = ((0, MAX_X, RES), (0, MAX_Y, RES))

    def frame(self, contacts, button=None, fingers=None, pressures=None):
        """contacts: {slot: (x_mm, y_mm)}; slots absent are lifted. `fingers`: how many fingers
        the BTN_TOOL_* key says are down, when more than the slots (default: the contacts).
        `pressures`: {slot: ABS_MT_PRESSURE} for contacts that press harder or lighter than a
        finger's 40 (a palm)."""
        pressures = pressures or {}
        (min_x, max_x, res_x), (min_y, max_y, res_y) = self.units
        for slot in sorted(set(self.down) | set(contacts)):
            self.emit(3, 0x2F, slot)
            if slot not in contacts:
                self.emit(3, 0x39, -1)
                del self.down[slot]
                continue
            x_mm, y_mm = contacts[slot]
            x = min(max_x, max(min_x, min_x + round(x_mm * res_x) + self.rng.randint(-self.jitter, self.jitter)))
            y = min(max_y, max(min_y, min_y + round(y_mm * res_y) + self.rng.randint(-self.jitter, self.jitter)))
            if slot not in self.down:
                self.emit(3, 0x39, self.next_id)
                self.next_id += 1
            self.emit(3, 0x35, x)
            self.emit(3, 0x36, y)
            self.emit(3, 0x3A, pressures.get(slot, 40))
            self.down[slot] = (x, y)
        tool = len(contacts) if fingers is None else fingers
        if tool != self.tool:
            if self.tool == 0:
                self.emit(1, 0x14A, 1)
            if self.tool in self.TOOLS:
                self.emit(1, self.TOOLS[self.tool], 0)
            if tool in self.TOOLS:
                self.emit(1, self.TOOLS[tool], 1)
            if tool == 0:
                self.emit(1, 0x14A, 0)
            self.tool = tool
        if button is not None:
            self.emit(1, 0x110, button)
        if self.down:
            first = self.down[min(self.down)]
            self.emit(3, 0x00, first[0])
            self.emit(3, 0x01, first[1])
            self.emit(3, 0x18, pressures.get(min(self.down), 40))
        else:
            self.emit(3, 0x18, 0)
        self.syn()


def ease(i, steps):
    return (1 - math.cos(math.pi * i / steps)) / 2


def still(pad, contacts, seconds, button=None):
    frames = max(1, round(seconds / 0.0125))
    for n in range(frames):
        pad.wait(0.0125)
        pad.frame(contacts, button if n == 0 else None)
