#!/usr/bin/env python3
"""Writes the synthetic touchpad gesture fixtures (Fixtures/synthetic-tp-elantech-*.evemu) that
follow libinput 1.22's gesture tests (test/test-gestures.c, test/test-touchpad.c): fingers that
lift a few milliseconds apart at the end of a pinch or swipe, three and four fingers on one
horizontal line swiping and holding, a scroll that goes back to pointer motion. The device
description is the real Elantech pad of the Samsung 700Z3A, copied from
tp-elantech-samsung-move-1f.evemu (see scripts/synthetic_touchpad.py); the events are generated
here in millimetres of the pad, as people make them (fingers never land or lift in the same
millisecond except where a scenario says so). Deterministic (fixed seeds): running it again writes
the same files."""
import sys

from synthetic_touchpad import Touchpad, ease, fixtures, header_of, still

FRAME = 0.0125  # the Elantech's 80 Hz


def move(pad, start, offset, seconds):
    """Every contact of `start` ({slot: (x, y)} in mm) slides by `offset` (mm), eased."""
    steps = round(seconds / FRAME)
    for i in range(1, steps + 1):
        s = ease(i, steps)
        pad.wait(FRAME)
        pad.frame({k: (x + offset[0] * s, y + offset[1] * s) for k, (x, y) in start.items()})
    return {k: (x + offset[0], y + offset[1]) for k, (x, y) in start.items()}


def lift_one_by_one(pad, contacts, gap):
    """The contacts lift in slot order, `gap` seconds apart, without moving."""
    left = dict(contacts)
    for slot in sorted(contacts):
        pad.wait(gap)
        del left[slot]
        pad.frame(left)


def pinch_out_lift_apart_2f():
    pad = Touchpad(20)
    a, b = (40, 35), (60, 35)
    pad.frame({0: a, 1: b})
    still(pad, {0: a, 1: b}, 0.0375)
    steps = 40  # 0.5 s
    for i in range(1, steps + 1):
        half = 10 + 10 * ease(i, steps)
        pad.wait(FRAME)
        pad.frame({0: (50 - half, 35), 1: (50 + half, 35)})
    lift_one_by_one(pad, {0: (30, 35), 1: (70, 35)}, 0.02)
    return pad, ("two fingers spread symmetrically from 20 mm to 40 mm apart in 0.5 s (scale 2); "
                 "the left finger lifts 20 ms later, the right one 20 ms after it")


def swipe_right_line_3f():
    pad = Touchpad(21)
    pad.jitter = 0  # on one line to the unit, as litest puts them
    start = {0: (35, 35), 1: (50, 35), 2: (65, 35)}
    pad.frame(start)
    still(pad, start, 0.0375)
    end = move(pad, start, (25, 0), 0.4)
    lift_one_by_one(pad, end, 0.015)
    return pad, ("three fingers on one horizontal line (the same y), 15 mm apart, swipe 25 mm right in "
                 "0.4 s and lift 15 ms apart")


def swipe_up_line_4f():
    pad = Touchpad(22)
    pad.jitter = 0
    start = {0: (30, 50), 1: (44, 50), 2: (58, 50), 3: (72, 50)}
    pad.frame(start)
    still(pad, start, 0.0375)
    end = move(pad, start, (0, -25), 0.4)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("four fingers on one horizontal line, 14 mm apart, swipe 25 mm up in 0.4 s and lift "
                 "together")


def hold_line_3f():
    pad = Touchpad(23)
    pad.jitter = 0
    start = {0: (35, 35), 1: (50, 35), 2: (65, 35)}
    pad.frame(start)
    still(pad, start, 0.4)
    pad.wait(FRAME)
    pad.frame({})
    return pad, "three fingers on one horizontal line, 15 mm apart, rest still for 0.4 s and lift together"


def scroll_then_move_1f():
    pad = Touchpad(24)
    start = {0: (42, 20), 1: (60, 20)}
    pad.frame(start)
    still(pad, start, 0.05)
    end = move(pad, start, (0, 20), 0.3)
    pad.wait(FRAME)
    pad.frame({0: end[0]})
    move(pad, {0: end[0]}, (25, 0), 0.3)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("two fingers 18 mm apart scroll 20 mm down in 0.3 s; the right finger lifts and the "
                 "left one moves on 25 mm right in 0.3 s (pointer motion)")


def hold_then_jitter_1f():
    pad = Touchpad(25)
    pad.jitter = 0
    pad.frame({0: (50, 35)})
    pad.wait(0.0625)  # the pad reports nothing while the finger rests (litest's hold tests)
    pad.frame({0: (51, 35)})
    still(pad, {0: (51, 35)}, 0.6)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("one finger lands and rests; 62.5 ms later, past the 40 ms hold timeout, one frame puts it "
                 "1 mm right (a jitter), then it rests 0.6 s more and lifts")


def thumb_rest_scroll_up_2f():
    pad = Touchpad(26)
    thumb = (30, 66)  # in the bottom button area: the pad is 71 mm tall, the area its lowest 10 mm
    pad.frame({0: thumb})
    still(pad, {0: thumb}, 0.3)
    start = {0: thumb, 1: (45, 30), 2: (63, 30)}
    pad.wait(FRAME)
    pad.frame(start)
    still(pad, start, 0.025)
    steps = 32  # 0.4 s
    for i in range(1, steps + 1):
        d = 20 * ease(i, steps)
        pad.wait(FRAME)
        pad.frame({0: thumb, 1: (45, 30 - d), 2: (63, 30 - d)})
    pad.wait(FRAME)
    pad.frame({0: thumb})
    still(pad, {0: thumb}, 0.1)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("a thumb rests in the clickpad's bottom button area (5 mm above the bottom edge); 0.3 s later "
                 "two fingers 18 mm apart land above it and scroll 20 mm up in 0.4 s, and lift; the thumb lifts "
                 "0.1 s later")


def synaptics_swipe_right_3f():
    pad = Touchpad(27)
    # The Synaptics PS/2 pad: X 1472..5472, Y 1408..4448 without a resolution, which libinput
    # takes for 69 x 50 mm; two slots for three fingers (BTN_TOOL_TRIPLETAP says how many).
    pad.units = ((1472, 5472, 4000 / 69), (1408, 4448, 3040 / 50))
    start = {0: (25, 20), 1: (40, 22)}
    pad.frame(start, fingers=3)
    for _ in range(20):  # they rest 0.25 s first, longer than libinput's 180 ms three-finger hold
        pad.wait(FRAME)
        pad.frame(start, fingers=3)
    steps = 24  # 0.3 s
    for i in range(1, steps + 1):
        d = 20 * ease(i, steps)
        pad.wait(FRAME)
        pad.frame({k: (x + d, y) for k, (x, y) in start.items()}, fingers=3)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("three fingers on a pad with two slots (BTN_TOOL_TRIPLETAP, two of them reported) rest "
                 "0.25 s, swipe 20 mm right in 0.3 s and lift together")


def palm_pressure_move_1f():
    pad = Touchpad(28)
    # libinput 1.22 labels a touch a palm when its ABS_MT_PRESSURE passes 130 (tp_init_palmdetect_pressure's
    # default; no quirk of the Elantech pad changes it): a palm pressing at 200, a finger at 40.
    palm, press = (78, 45), {0: 200}
    pad.frame({0: palm}, pressures=press)
    for _ in range(16):  # 0.2 s
        pad.wait(FRAME)
        pad.frame({0: palm}, pressures=press)
    steps = 32  # 0.4 s, at a steady 75 mm/s from the first frame (no hold)
    for i in range(steps + 1):
        pad.wait(FRAME)
        pad.frame({0: palm, 1: (25 + 30 * i / steps, 30)}, pressures=press)
    pad.wait(FRAME)
    pad.frame({0: palm}, pressures=press)
    for _ in range(8):  # 0.1 s
        pad.wait(FRAME)
        pad.frame({0: palm}, pressures=press)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("a palm presses on the right half of the pad (ABS_MT_PRESSURE 200, a finger's 40) and rests; "
                 "0.2 s later a finger lands left of it and moves 30 mm right in 0.4 s at a steady speed, and "
                 "lifts; the palm lifts 0.1 s later")


def palm_edge_rest_1f():
    pad = Touchpad(29)
    # libinput 1.22's palm edge zones on the 102 mm wide Elantech pad (tp_init_palmdetect_edge):
    # its left and right 8 mm (8 % of the width, at most 8 mm). A palm lands 4 mm from the left
    # edge and drifts 4 mm down in 0.5 s, staying in the zone.
    steps = 40  # 0.5 s
    for i in range(steps + 1):
        if i:
            pad.wait(FRAME)
        pad.frame({0: (4, 30 + 4 * i / steps)})
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("a palm lands alone 4 mm from the pad's left edge (inside libinput's 8 mm palm edge zone), "
                 "drifts 4 mm down in 0.5 s without leaving the zone, and lifts")


def thumb_lands_while_moving_1f():
    pad = Touchpad(30)
    # libinput 1.22's speed-based thumb (tp_thumb_update_multifinger): a touch that lands while
    # another has moved faster than 20 mm/s for more than 5 frames, 25 mm or more below it (or
    # 35 mm beside it), is a thumb. The finger moves at 60 mm/s; the thumb lands 33 mm below it,
    # above the clickpad's button area (its lowest 10 mm) and libinput's thumb area (15 %).
    steps = 40  # 0.5 s
    thumb = (60, 58)
    for i in range(steps + 1):
        if i:
            pad.wait(FRAME)
        contacts = {0: (20 + 30 * i / steps, 25)}
        if 20 <= i < 32:
            contacts[1] = thumb
        pad.frame(contacts)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("a finger moves 30 mm right at a steady 60 mm/s; 0.25 s in, a thumb lands 33 mm below it, "
                 "rests 0.15 s and lifts while the finger moves on; the finger lifts at the end")


def thumb_creeps_in_thumb_area_1f():
    pad = Touchpad(36)
    # libinput 1.22 jails a lone touch that lands in the lowest 15 % of a clickpad at least 50 mm
    # tall (tp_thumb_needs_jail: below upper_thumb_line, 60.4 mm on the 71 mm Elantech) until it
    # leaves that area or moves faster than 20 mm/s for 10 frames. The thumb lands in the bottom
    # button area (its lowest 10 mm) and creeps 8 mm sideways at 10 mm/s: past the button area's
    # 5 mm, still in the thumb area and slow.
    thumb = {0: (40, 66)}
    pad.frame(thumb)
    still(pad, thumb, 0.2)
    end = move(pad, thumb, (8, 0), 0.8)
    still(pad, end, 0.1)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("a thumb lands alone in the clickpad's bottom button area (5 mm above the bottom edge), rests "
                 "0.2 s, creeps 8 mm right in 0.8 s (10 mm/s) without leaving the lowest 15 % of the pad, rests "
                 "0.1 s and lifts")


def thumb_left_alone_creeps_1f():
    pad = Touchpad(37)
    # libinput 1.22's tp_thumb_update_multifinger: a touch landing more than 100 ms after another
    # and more than 25 mm below it is a thumb (THUMB_STATE_PINCH); left alone when the finger
    # lifts, in the lowest 15 % of the pad, it is revived jailed (THUMB_STATE_REVIVED_JAILED). A
    # finger rests 36 mm above the bottom edge; the thumb lands in the bottom button area 0.3 s
    # later, 30 mm below it; the finger lifts, and the thumb creeps 8 mm right at 10 mm/s.
    finger, thumb = (50, 35), (40, 66)
    pad.frame({0: finger})
    still(pad, {0: finger}, 0.3)
    pad.wait(FRAME)
    pad.frame({0: finger, 1: thumb})
    still(pad, {0: finger, 1: thumb}, 0.2)
    pad.wait(FRAME)
    pad.frame({1: thumb})
    still(pad, {1: thumb}, 0.2)
    end = move(pad, {1: thumb}, (8, 0), 0.8)
    still(pad, end, 0.1)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("a finger lands and rests; 0.3 s later a thumb lands 31 mm below it, in the clickpad's bottom "
                 "button area; 0.2 s later the finger lifts, and the thumb, left alone, rests 0.2 s, creeps 8 mm "
                 "right in 0.8 s (10 mm/s) without leaving the lowest 15 % of the pad, rests 0.1 s and lifts")


# Taps, after libinput 1.22's tap tests (test/test-touchpad-tap.c): fingers that rest a few
# frames and lift, well inside its 180 ms tap timeout, a second tap or a drag landing inside its
# 180 ms drag timeout, and the two ways a touch is no tap: moving more than 1.3 mm, or resting
# longer than the timeout. Replayed with tapping on (the Elantech has a left button: libinput's
# default is off there).

def tap(pad, contacts, seconds=0.075):
    """`contacts` land in one frame, rest `seconds` and lift in one frame."""
    pad.frame(contacts)
    still(pad, contacts, seconds)
    pad.wait(FRAME)
    pad.frame({})


def tap_2f():
    pad = Touchpad(30)
    contacts = {0: (42, 35), 1: (60, 35)}
    pad.frame(contacts)
    still(pad, contacts, 0.075)
    lift_one_by_one(pad, contacts, FRAME)
    return pad, ("two fingers 18 mm apart land together, rest 75 ms and lift one frame (12.5 ms) apart: "
                 "a two-finger tap (libinput: the right button)")


def tap_3f():
    pad = Touchpad(31)
    tap(pad, {0: (35, 35), 1: (50, 35), 2: (65, 35)})
    return pad, ("three fingers 15 mm apart land together, rest 75 ms and lift together: a three-finger tap "
                 "(libinput: the middle button)")


def double_tap_1f():
    pad = Touchpad(32)
    tap(pad, {0: (50, 35)})
    pad.wait(0.1)
    tap(pad, {0: (50.5, 35.5)})
    return pad, ("one finger taps (rests 75 ms), lifts for 100 ms and taps again 0.7 mm away: a double tap")


def tap_drag_1f():
    pad = Touchpad(33)
    tap(pad, {0: (40, 35)})
    pad.wait(0.1)
    pad.frame({0: (40, 35)})
    still(pad, {0: (40, 35)}, 0.05)
    end = move(pad, {0: (40, 35)}, (20, 0), 0.4)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("one finger taps (rests 75 ms), lifts for 100 ms, lands again, rests 50 ms, moves 20 mm right "
                 "in 0.4 s and lifts: a tap-and-drag")


def tap_move_1f():
    pad = Touchpad(34)
    pad.frame({0: (50, 35)})
    move(pad, {0: (50, 35)}, (6, 0), 0.1)
    pad.wait(FRAME)
    pad.frame({})
    return pad, ("one finger lands, moves 6 mm right in 0.1 s and lifts: quick, but it moved past libinput's "
                 "1.3 mm, no tap")


def tap_long_1f():
    pad = Touchpad(35)
    # Without jitter: a finger that wobbles a unit moves the pointer once the tap is off the
    # table, and when the decoder turns its hysteresis on for such a wobble is not what this
    # recording is about.
    pad.jitter = 0
    tap(pad, {0: (50, 35)}, seconds=0.3)
    return pad, ("one finger lands, rests 0.3 s perfectly still (no jitter) and lifts: down past libinput's "
                 "180 ms tap timeout, no tap")


def main():
    elantech = header_of(fixtures / "tp-elantech-samsung-move-1f.evemu")
    made = [
        ("synthetic-tp-elantech-pinch-out-lift-apart-2f.evemu", pinch_out_lift_apart_2f),
        ("synthetic-tp-elantech-swipe-right-line-3f.evemu", swipe_right_line_3f),
        ("synthetic-tp-elantech-swipe-up-line-4f.evemu", swipe_up_line_4f),
        ("synthetic-tp-elantech-hold-line-3f.evemu", hold_line_3f),
        ("synthetic-tp-elantech-scroll-then-move-1f.evemu", scroll_then_move_1f),
        ("synthetic-tp-elantech-hold-then-jitter-1f.evemu", hold_then_jitter_1f),
        ("synthetic-tp-elantech-thumb-rest-scroll-up-2f.evemu", thumb_rest_scroll_up_2f),
        ("synthetic-tp-elantech-palm-pressure-move-1f.evemu", palm_pressure_move_1f),
        ("synthetic-tp-elantech-palm-edge-rest-1f.evemu", palm_edge_rest_1f),
        ("synthetic-tp-elantech-thumb-lands-while-moving-1f.evemu", thumb_lands_while_moving_1f),
        ("synthetic-tp-elantech-thumb-creeps-in-thumb-area-1f.evemu", thumb_creeps_in_thumb_area_1f),
        ("synthetic-tp-elantech-thumb-left-alone-creeps-1f.evemu", thumb_left_alone_creeps_1f),
    ]
    made += [
        ("synthetic-tp-elantech-tap-2f.evemu", tap_2f),
        ("synthetic-tp-elantech-tap-3f.evemu", tap_3f),
        ("synthetic-tp-elantech-double-tap-1f.evemu", double_tap_1f),
        ("synthetic-tp-elantech-tap-drag-1f.evemu", tap_drag_1f),
        ("synthetic-tp-elantech-tap-move-1f.evemu", tap_move_1f),
        ("synthetic-tp-elantech-tap-long-1f.evemu", tap_long_1f),
    ]
    synaptics = header_of(fixtures / "tp-synaptics-scroll-vertical-2f.evemu")
    made.append(("synthetic-tp-synaptics-swipe-right-3f.evemu", synaptics_swipe_right_3f))
    for name, make in made:
        trace, what = make()
        header = synaptics if "synaptics" in name else elantech
        text = ("\n".join(header) + "\n# Events below: synthetic (scripts/make-synthetic-touchpad-gestures.py), "
                f"not a recording: {what}\n" + "\n".join(trace.lines) + "\n")
        (fixtures / name).write_text(text)
        print(f"wrote {name} ({len(trace.lines)} events)", file=sys.stderr)


main()
