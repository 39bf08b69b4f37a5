#!/usr/bin/env python3
"""Writes a large synthetic touchscreen recording for the replay benchmarks.

    generate_traces.py --format libinput|evemu --size-mb N --out FILE [--seed S]

The recording is made of many realistic gestures one after another on a 10-slot multitouch
touchscreen (4096 x 2304 units, 14 units/mm: a 13" screen): taps, two-finger taps, double
taps, long presses, one- and two-finger pans, swipes, pinches and rotations, sampled at
125 Hz with timing jitter (±0.4 ms) and positional jitter (a finger's tremor, about 0.1 mm),
eased motion, and pauses of 0.35-1.2 s between gestures. Events follow the kernel's
multitouch protocol B as a touchscreen sends it: ABS_MT_SLOT when the slot changes,
ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y only when they change, BTN_TOUCH on first down and
last up, the legacy ABS_X/ABS_Y of the first contact, then SYN_REPORT.

`libinput` writes `libinput record` YAML (version 1) with the per-event comments libinput
record writes; `evemu` writes an evemu-record file (absolute timestamps, the SYN_REPORT
separator comments). Gestures are written until the file reaches N megabytes (10^6 bytes).
The same seed gives the same file. Prints the counts (events, frames, gestures) on stdout
as `key=value` lines.
"""
import argparse
import math
import os
import random
import sys

X_MAX, Y_MAX, RES = 4095, 2303, 14
SLOTS = 10
FRAME_US = 8000          # 125 Hz
MM = RES                 # units per millimetre

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR = 0, 1, 47, 48
ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 53, 54, 57
BTN_TOUCH = 330

NAMES = {
    (EV_ABS, ABS_X): "ABS_X", (EV_ABS, ABS_Y): "ABS_Y",
    (EV_ABS, ABS_MT_SLOT): "ABS_MT_SLOT", (EV_ABS, ABS_MT_TOUCH_MAJOR): "ABS_MT_TOUCH_MAJOR",
    (EV_ABS, ABS_MT_POSITION_X): "ABS_MT_POSITION_X", (EV_ABS, ABS_MT_POSITION_Y): "ABS_MT_POSITION_Y",
    (EV_ABS, ABS_MT_TRACKING_ID): "ABS_MT_TRACKING_ID", (EV_KEY, BTN_TOUCH): "BTN_TOUCH",
}
TYPE_NAMES = {EV_ABS: "EV_ABS", EV_KEY: "EV_KEY"}
ABSINFO = {  # code: (min, max, fuzz, flat, resolution)
    ABS_X: (0, X_MAX, 0, 0, RES), ABS_Y: (0, Y_MAX, 0, 0, RES),
    ABS_MT_SLOT: (0, SLOTS - 1, 0, 0, 0), ABS_MT_TOUCH_MAJOR: (0, 255, 0, 0, 1),
    ABS_MT_POSITION_X: (0, X_MAX, 0, 0, RES), ABS_MT_POSITION_Y: (0, Y_MAX, 0, 0, RES),
    ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0),
}
NAME = "GestureKit Bench Touchscreen"
DEVICE_ID = (3, 0x1FC9, 0x0B1C, 0x0100)


def clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def ease(t):
    """Smoothstep: a finger accelerates and decelerates."""
    return t * t * (3 - 2 * t)


class Touchscreen:
    """Turns per-frame finger positions into protocol-B evdev events."""

    def __init__(self, rng):
        self.rng = rng
        self.slot = 0              # the slot the kernel last reported
        self.state = {}            # slot -> (tracking id, x, y, major)
        self.next_tid = 1
        self.legacy = None         # last ABS_X/ABS_Y
        self.time_us = 0

    def frame(self, fingers):
        """fingers: dict slot -> (x, y) for contacts down in this frame. Returns events."""
        ev = []
        for slot in sorted(set(self.state) | set(fingers)):
            old = self.state.get(slot)
            new = fingers.get(slot)
            if old is None and new is None:
                continue
            changes = []
            if old is None:
                x, y = clamp(round(new[0]), 0, X_MAX), clamp(round(new[1]), 0, Y_MAX)
                major = self.rng.randint(18, 30)
                changes = [(EV_ABS, ABS_MT_TRACKING_ID, self.next_tid), (EV_ABS, ABS_MT_POSITION_X, x),
                           (EV_ABS, ABS_MT_POSITION_Y, y), (EV_ABS, ABS_MT_TOUCH_MAJOR, major)]
                self.state[slot] = (self.next_tid, x, y, major)
                self.next_tid = self.next_tid % 65535 + 1
            elif new is None:
                changes = [(EV_ABS, ABS_MT_TRACKING_ID, -1)]
                del self.state[slot]
            else:
                tid, ox, oy, major = old
                x, y = clamp(round(new[0]), 0, X_MAX), clamp(round(new[1]), 0, Y_MAX)
                if x != ox:
                    changes.append((EV_ABS, ABS_MT_POSITION_X, x))
                if y != oy:
                    changes.append((EV_ABS, ABS_MT_POSITION_Y, y))
                self.state[slot] = (tid, x, y, major)
            if changes:
                if slot != self.slot:
                    ev.append((EV_ABS, ABS_MT_SLOT, slot))
                    self.slot = slot
                ev.extend(changes)
        if not ev:
            return ev
        was_down = self.legacy is not None
        if self.state:
            first = self.state[min(self.state)]
            if not was_down:
                ev.append((EV_KEY, BTN_TOUCH, 1))
            lx, ly = first[1], first[2]
            if self.legacy is None or self.legacy[0] != lx:
                ev.append((EV_ABS, ABS_X, lx))
            if self.legacy is None or self.legacy[1] != ly:
                ev.append((EV_ABS, ABS_Y, ly))
            self.legacy = (lx, ly)
        elif was_down:
            ev.append((EV_KEY, BTN_TOUCH, 0))
            self.legacy = None
        return ev


class Gestures:
    """Yields frames (dict slot -> (x, y)) and pauses for realistic gestures."""

    def __init__(self, rng):
        self.rng = rng

    def tremor(self):
        return self.rng.gauss(0, 1.4), self.rng.gauss(0, 1.4)

    def point(self, margin=300):
        return (self.rng.uniform(margin, X_MAX - margin), self.rng.uniform(margin, Y_MAX - margin))

    def hold(self, positions, frames):
        """Fingers held at positions for `frames` frames, with tremor."""
        for _ in range(frames):
            yield {s: (p[0] + self.tremor()[0], p[1] + self.tremor()[1]) for s, p in positions.items()}

    def path(self, starts, ends, frames):
        """Fingers moving from starts to ends, eased, with tremor."""
        for i in range(1, frames + 1):
            t = ease(i / frames)
            out = {}
            for s in starts:
                dx, dy = self.tremor()
                out[s] = (starts[s][0] + (ends[s][0] - starts[s][0]) * t + dx,
                          starts[s][1] + (ends[s][1] - starts[s][1]) * t + dy)
            yield out

    def tap(self, fingers=1, at=None):
        c = at or self.point()
        pos = {s: (c[0] + s * 22 * MM, c[1] + self.rng.uniform(-3, 3) * MM) for s in range(fingers)}
        yield from self.hold(pos, self.rng.randint(6, 17))     # 50-140 ms down

    def double_tap(self):
        c = self.point()
        yield from self.tap(at=c)
        yield ("pause", self.rng.randint(80_000, 200_000))
        yield from self.tap(at=(c[0] + self.rng.uniform(-2, 2) * MM, c[1] + self.rng.uniform(-2, 2) * MM))

    def long_press(self):
        yield from self.hold({0: self.point()}, self.rng.randint(75, 150))  # 0.6-1.2 s

    def pan(self, fingers):
        c = self.point(600)
        angle = self.rng.uniform(0, 2 * math.pi)
        dist = self.rng.uniform(20, 90) * MM
        d = (math.cos(angle) * dist, math.sin(angle) * dist)
        starts = {s: (c[0] + s * 18 * MM, c[1]) for s in range(fingers)}
        ends = {s: (p[0] + d[0], p[1] + d[1]) for s, p in starts.items()}
        yield from self.hold(starts, 2)
        yield from self.path(starts, ends, self.rng.randint(38, 110))   # 0.3-0.9 s
        yield from self.hold(ends, self.rng.randint(1, 4))

    def swipe(self):
        c = self.point(900)
        direction = self.rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        dist = self.rng.uniform(40, 70) * MM
        start = {0: c}
        end = {0: (c[0] + direction[0] * dist + self.rng.uniform(-4, 4) * MM,
                   c[1] + direction[1] * dist + self.rng.uniform(-4, 4) * MM)}
        yield from self.hold(start, 1)
        yield from self.path(start, end, self.rng.randint(15, 30))      # 120-240 ms

    def two_finger(self, spread, turn):
        c = self.point(700)
        r0 = self.rng.uniform(12, 30) * MM
        r1 = r0 * spread
        a0 = self.rng.uniform(0, math.pi)
        frames = self.rng.randint(50, 110)                              # 0.4-0.9 s
        def fingers(r, a):
            return {0: (c[0] + r * math.cos(a), c[1] + r * math.sin(a)),
                    1: (c[0] - r * math.cos(a), c[1] - r * math.sin(a))}
        yield from self.hold(fingers(r0, a0), 2)
        for i in range(1, frames + 1):
            t = ease(i / frames)
            f = fingers(r0 + (r1 - r0) * t, a0 + turn * t)
            yield {s: (p[0] + self.tremor()[0], p[1] + self.tremor()[1]) for s, p in f.items()}

    def pinch(self):
        spread = self.rng.choice([self.rng.uniform(1.6, 2.6), self.rng.uniform(0.35, 0.65)])
        yield from self.two_finger(spread, self.rng.uniform(-0.08, 0.08))

    def rotate(self):
        turn = self.rng.choice([-1, 1]) * self.rng.uniform(0.5, 1.6)
        yield from self.two_finger(self.rng.uniform(0.95, 1.05), turn)

    def any(self):
        kind = self.rng.choices(
            ["tap", "tap2", "double", "long", "pan1", "pan2", "swipe", "pinch", "rotate"],
            weights=[20, 4, 10, 6, 16, 10, 14, 12, 8])[0]
        return kind, {
            "tap": lambda: self.tap(), "tap2": lambda: self.tap(2), "double": self.double_tap,
            "long": self.long_press, "pan1": lambda: self.pan(1), "pan2": lambda: self.pan(2),
            "swipe": self.swipe, "pinch": self.pinch, "rotate": self.rotate,
        }[kind]()


def header_libinput():
    out = ["# libinput record", "version: 1", "ndevices: 1", "libinput:", '  version: "1.22.1"',
           '  git: "unknown"', "system:", '  os: "debian:12"', '  kernel: "6.1.0"', '  dmi: "unknown"',
           "devices:", "- node: /dev/input/event7", "  evdev:", f"    # Name: {NAME}",
           f"    # ID: bus 0x{DEVICE_ID[0]:x} vendor 0x{DEVICE_ID[1]:x} product 0x{DEVICE_ID[2]:x} version 0x{DEVICE_ID[3]:x}",
           f'    name: "{NAME}"', f"    id: [{', '.join(str(v) for v in DEVICE_ID)}]", "    codes:",
           "      0: [0, 1, 2, 3, 4] # EV_SYN", "      1: [330] # EV_KEY",
           f"      3: [{', '.join(str(c) for c in sorted(ABSINFO))}] # EV_ABS", "    absinfo:"]
    for code in sorted(ABSINFO):
        out.append(f"      {code}: [{', '.join(str(v) for v in ABSINFO[code])}]")
    out += ["    properties: [1]", "  hid: []", "  udev:", "    properties:",
            "    - ID_INPUT=1", "    - ID_INPUT_TOUCHSCREEN=1", "  quirks:", "  events:"]
    return "\n".join(out) + "\n"


def header_evemu():
    out = ["# EVEMU 1.3", f'# Input device name: "{NAME}"',
           f"# Input device ID: bus 0x{DEVICE_ID[0]:02x} vendor 0x{DEVICE_ID[1]:04x} product 0x{DEVICE_ID[2]:04x} version 0x{DEVICE_ID[3]:04x}",
           "# Generated by Benchmarks/generate_traces.py", f"N: {NAME}",
           "I: " + " ".join(f"{v:04x}" for v in DEVICE_ID), "P: 02 00 00 00 00 00 00 00"]
    types = 1 << EV_SYN | 1 << EV_KEY | 1 << EV_ABS
    out.append("B: 00 " + " ".join(f"{(types >> (8 * i)) & 0xFF:02x}" for i in range(8)))
    keys = [0] * 96
    keys[BTN_TOUCH // 8] |= 1 << (BTN_TOUCH % 8)
    for line in range(12):
        out.append("B: 01 " + " ".join(f"{b:02x}" for b in keys[line * 8:line * 8 + 8]))
    absbits = [0] * 8
    for code in ABSINFO:
        absbits[code // 8] |= 1 << (code % 8)
    out.append("B: 03 " + " ".join(f"{b:02x}" for b in absbits))
    for code in sorted(ABSINFO):
        a = ABSINFO[code]
        out.append(f"A: {code:02x} {a[0]} {a[1]} {a[2]} {a[3]} {a[4]}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--format", choices=["libinput", "evemu"], required=True)
    ap.add_argument("--size-mb", type=float, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    target = int(args.size_mb * 1_000_000)
    screen = Touchscreen(rng)
    gestures = Gestures(rng)
    libinput = args.format == "libinput"
    base_s = 0 if libinput else 1_700_000_000
    counts = {"events": 0, "frames": 0, "gestures": 0}
    tmp = args.out + ".tmp"
    with open(tmp, "w", buffering=1 << 20) as f:
        f.write(header_libinput() if libinput else header_evemu())
        written = f.tell()
        t_us = rng.randint(0, 999_999)
        last_frame_us = t_us
        chunk = []

        def emit(fingers):
            nonlocal t_us, last_frame_us
            events = screen.frame(fingers)
            if not events:
                return
            t = t_us + rng.randint(-400, 400)
            sec, usec = base_s + t // 1_000_000, t % 1_000_000
            delta_ms = (t - last_frame_us) // 1000
            last_frame_us = t
            if libinput:
                chunk.append("  - evdev:")
                for typ, code, value in events:
                    chunk.append(f"    - [{sec:3d}, {usec:6d}, {typ:2d}, {code:3d}, {value:7d}] # "
                                 f"{TYPE_NAMES[typ]} / {NAMES[(typ, code)]:<20s} {value:6d}")
                chunk.append(f"    - [{sec:3d}, {usec:6d}, {0:2d}, {0:3d}, {0:7d}] # "
                             f"------------ SYN_REPORT (0) ---------- +{delta_ms}ms")
            else:
                for typ, code, value in events:
                    chunk.append(f"E: {sec}.{usec:06d} {typ:04x} {code:04x} {value}")
                chunk.append(f"E: {sec}.{usec:06d} 0000 0000 0")
                chunk.append(f"# ------------ SYN_REPORT (0) ---------- +{delta_ms}ms")
            counts["events"] += len(events) + 1
            counts["frames"] += 1

        while written < target:
            kind, frames = gestures.any()
            for item in frames:
                if isinstance(item, tuple):          # a pause inside the gesture (double tap)
                    emit({})
                    t_us += item[1]
                    continue
                emit(item)
                t_us += FRAME_US
            emit({})                                  # all fingers up
            t_us += rng.randint(350_000, 1_200_000)   # a pause between gestures
            counts["gestures"] += 1
            if len(chunk) > 20_000:
                text = "\n".join(chunk) + "\n"
                f.write(text)
                written += len(text.encode())
                chunk.clear()
        if chunk:
            f.write("\n".join(chunk) + "\n")
    os.replace(tmp, args.out)
    counts["bytes"] = os.path.getsize(args.out)
    for k, v in counts.items():
        print(f"{k}={v}")


if __name__ == "__main__":
    sys.exit(main())
