#!/usr/bin/env python3
"""Writes the synthetic pointer fixtures (Fixtures/synthetic-*.evemu): touchpad taps, clicks,
scrolls, pinches and rotations, and a mouse's double click and wheel. No real recording of these
gestures with a license that allows committing it was found (see Fixtures/SOURCES.md), so the
device descriptions are real ones copied from fixtures (the Elantech touchpad of the Samsung
700Z3A: 3260 x 2282 units at 32 units/mm, about 102 x 71 mm, 5 slots; the Saitek R.A.T.5 mouse)
and the events are generated here, in millimetres of the pad. Deterministic (fixed seed):
running it again writes the same files."""
import math
import sys

from synthetic_touchpad import Touchpad, Trace, ease, fixtures, header_of, still


def tap_1f():
    pad = Touchpad(1)
    pad.frame({0: (50, 35)})
    still(pad, {0: (50, 35)}, 0.075)
    pad.wait(0.0125)
    pad.frame({})
    return pad, "one-finger tap, 87 ms, at the pad's centre"


def click_1f():
    pad = Touchpad(2)
    pad.frame({0: (50, 50)})
    still(pad, {0: (50, 50)}, 0.05)
    pad.wait(0.0125)
    pad.frame({0: (50, 50)}, button=1)
    still(pad, {0: (50, 50)}, 0.12)
    pad.wait(0.0125)
    pad.frame({0: (50, 50)}, button=0)
    still(pad, {0: (50, 50)}, 0.05)
    pad.wait(0.0125)
    pad.frame({})
    return pad, "one finger presses the pad's button (a click) for 137 ms, without moving"


def scroll_down_2f():
    pad = Touchpad(3)
    a, b = (42, 20), (60, 20)
    pad.frame({0: a, 1: b})
    still(pad, {0: a, 1: b}, 0.05)
    steps = 40  # 0.5 s
    for i in range(1, steps + 1):
        d = 30 * ease(i, steps)
        pad.wait(0.0125)
        pad.frame({0: (a[0], a[1] + d), 1: (b[0], b[1] + d)})
    pad.wait(0.0125)
    pad.frame({})
    return pad, "two fingers 18 mm apart slide 30 mm down together in 0.5 s"


def flick_then_hold_2f():
    pad = Touchpad(10)
    a, b = (42, 50), (60, 50)
    pad.frame({0: a, 1: b})
    still(pad, {0: a, 1: b}, 0.025)
    steps = 12  # 0.15 s at a steady 200 mm/s: the fingers lift while still moving
    for i in range(1, steps + 1):
        d = 30 * i / steps
        pad.wait(0.0125)
        pad.frame({0: (a[0], a[1] - d), 1: (b[0], b[1] - d)})
    pad.wait(0.0125)
    pad.frame({})
    pad.wait(0.15)
    c, e = (44, 40), (62, 40)
    pad.frame({0: c, 1: e})
    still(pad, {0: c, 1: e}, 0.4)
    pad.wait(0.0125)
    pad.frame({})
    return pad, ("two fingers 18 mm apart flick 30 mm up in 0.15 s at a steady speed and lift while moving; "
                 "0.15 s later two fingers land and rest, still, for 0.4 s")


def pinch(pad, centre, start_half, end_half, seconds, angle=0.0):
    pad.frame({0: (centre[0] - start_half, centre[1]), 1: (centre[0] + start_half, centre[1])})
    still(pad, {0: (centre[0] - start_half, centre[1]), 1: (centre[0] + start_half, centre[1])}, 0.0375)
    steps = round(seconds / 0.0125)
    for i in range(1, steps + 1):
        s = ease(i, steps)
        half = start_half + (end_half - start_half) * s
        theta = math.radians(angle * s)
        dx, dy = half * math.cos(theta), half * math.sin(theta)
        pad.wait(0.0125)
        pad.frame({0: (centre[0] - dx, centre[1] - dy), 1: (centre[0] + dx, centre[1] + dy)})
    return half, theta


def pinch_out_2f():
    pad = Touchpad(4)
    pinch(pad, (50, 35), 10, 20, 0.5)
    pad.wait(0.0125)
    pad.frame({})
    return pad, "two fingers spread symmetrically from 20 mm to 40 mm apart in 0.5 s (scale 2)"


def pinch_out_in_2f():
    pad = Touchpad(5)
    pinch(pad, (50, 35), 10, 20, 0.4)
    steps = 32
    for i in range(1, steps + 1):
        half = 20 - 12 * ease(i, steps)
        pad.wait(0.0125)
        pad.frame({0: (50 - half, 35), 1: (50 + half, 35)})
    pad.wait(0.0125)
    pad.frame({})
    return pad, "two fingers spread from 20 mm to 40 mm apart in 0.4 s, then close to 16 mm in 0.4 s"


def rotate_cw_2f():
    pad = Touchpad(6)
    pinch(pad, (50, 35), 14, 14, 0.6, angle=90)
    pad.wait(0.0125)
    pad.frame({})
    return pad, "two fingers 28 mm apart turn 90 degrees clockwise about their centre in 0.6 s"


def move_then_pinch_2f():
    pad = Touchpad(7)
    pad.frame({0: (30, 50)})
    steps = 32
    for i in range(1, steps + 1):
        pad.wait(0.0125)
        pad.frame({0: (30 + 40 * ease(i, steps), 50 - 25 * ease(i, steps))})
    pad.wait(0.0125)
    pad.frame({})
    pad.wait(0.3)
    pinch(pad, (50, 35), 10, 20, 0.5)
    pad.wait(0.0125)
    pad.frame({})
    return pad, ("one finger moves 40 mm right and 25 mm up in 0.4 s (moving the pointer) and lifts; "
                 "0.3 s later two fingers spread from 20 mm to 40 mm apart in 0.5 s")


class Mouse(Trace):
    def move(self, dx, dy):
        if dx:
            self.emit(2, 0, dx)
        if dy:
            self.emit(2, 1, dy)
        self.syn()

    def button(self, value):
        self.emit(4, 4, 0x90001)
        self.emit(1, 0x110, value)
        self.syn()

    def wheel(self, detents):
        self.emit(2, 8, detents)
        self.syn()


def mouse_double_click():
    m = Mouse(8)
    for _ in range(10):
        m.wait(0.008)
        m.move(3, 1)
    m.wait(0.2)
    m.button(1)
    m.wait(0.07)
    m.button(0)
    m.wait(0.12)
    m.button(1)
    m.wait(0.06)
    m.button(0)
    m.wait(0.3)
    m.move(1, 0)
    return m, ("moves 30 x 10 units in 80 ms, then two clicks of the left button (70 ms and 60 ms "
               "down, 120 ms apart) without moving")


def mouse_wheel():
    m = Mouse(9)
    for _ in range(5):
        m.wait(0.008)
        m.move(-4, -2)
    for _ in range(4):
        m.wait(0.06)
        m.wheel(1)
    m.wait(0.5)
    for _ in range(2):
        m.wait(0.06)
        m.wheel(-1)
    m.wait(0.4)
    m.move(1, 0)
    return m, ("moves 20 x 10 units up-left, turns the wheel 4 detents forward (60 ms apart), "
               "pauses 0.5 s, turns it 2 detents back")


def main():
    elantech = header_of(fixtures / "tp-elantech-samsung-move-1f.evemu")
    saitek = header_of(fixtures / "mouse-saitek-rat5-move-click.evemu")
    made = [
        ("synthetic-tp-elantech-tap-1f.evemu", elantech, tap_1f),
        ("synthetic-tp-elantech-click-1f.evemu", elantech, click_1f),
        ("synthetic-tp-elantech-scroll-down-2f.evemu", elantech, scroll_down_2f),
        ("synthetic-tp-elantech-flick-then-hold-2f.evemu", elantech, flick_then_hold_2f),
        ("synthetic-tp-elantech-pinch-out-2f.evemu", elantech, pinch_out_2f),
        ("synthetic-tp-elantech-pinch-out-in-2f.evemu", elantech, pinch_out_in_2f),
        ("synthetic-tp-elantech-rotate-cw-2f.evemu", elantech, rotate_cw_2f),
        ("synthetic-tp-elantech-move-then-pinch-2f.evemu", elantech, move_then_pinch_2f),
        ("synthetic-mouse-saitek-double-click.evemu", saitek, mouse_double_click),
        ("synthetic-mouse-saitek-wheel.evemu", saitek, mouse_wheel),
    ]
    for name, header, make in made:
        trace, what = make()
        text = ("\n".join(header) + "\n# Events below: synthetic (scripts/make-synthetic-pointer.py), "
                f"not a recording: {what}\n" + "\n".join(trace.lines) + "\n")
        (fixtures / name).write_text(text)
        print(f"wrote {name} ({len(trace.lines)} events)", file=sys.stderr)


main()
