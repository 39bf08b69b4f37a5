#!/usr/bin/env python3
"""Hostile input recordings (docs/RECORDING.md, "Budgets"): files made to stall or flood a reader.

    Fuzz/make-hostile-recordings.py              small ones, as seeds of the input-recording
                                                 fuzz target (Fuzz/corpus/input-recording/hostile-*)
    Fuzz/make-hostile-recordings.py --full DIR   the full-size ones into DIR, to time
                                                 `gesturekit replay FILE --json` on (Benchmarks/README.md)

The test suite makes the same shapes itself (Tests/GestureRecordingTests/HostileRecordings.swift).
"""
import os, sys

HEADER = '{"format":"gesturekit-input","version":1,"source":"app","screen":[1000,1000],"scale":1}\n'


def touch(t, changes, device=0):
    return '{"t":%d,"e":"touch","device":%d,"kind":"touchscreen","changes":[%s]}\n' % (t, device, changes)


def shapes(n):
    """Each shape at size n (the number of touches, devices or keys)."""
    return {
        # Touches that never lift, one a line and 1,000 a line.
        "held-touches": "".join(touch(i * 1000, '[%d,"began",%d,%d]' % (i, i % 1000, i // 1000 % 1000)) for i in range(n)),
        "held-touches-packed": "".join(
            touch(k * 1000, ",".join('[%d,"began",1,1]' % i for i in range(k, min(n, k + 1000)))) for k in range(0, n, 1000)),
        # One line of distinct keys.
        "distinct-keys": '{"t":0,"e":"note","device":0,' + ",".join('"k%d":0' % i for i in range(n)) + "}\n",
        # Devices by the thousand.
        "devices": "".join('{"e":"device-added","device":%d,"name":"d","system":"event","kind":"touchscreen","capabilities":["touch"]}\n' % i
                           for i in range(n)),
        # A touch held while others tap.
        "held-while-tapping": touch(0, '[0,"began",5,5]') + "".join(
            touch((2 * i + 1) * 1000000, '[1,"began",%d,50]' % (i % 900)) + touch((2 * i + 2) * 1000000, '[1,"ended",%d,50]' % (i % 900))
            for i in range(n)),
        # One touch id begun again and again while down.
        "begun-again": "".join(touch(i * 1000, '[0,"began",%d,5]' % (i % 900)) for i in range(n)),
        # Pens down and touchpad pinches begun on as many devices.
        "pens-down": "".join('{"t":%d,"e":"pen","device":%d,"phase":"down","at":[5,5],"force":0.5,"altitude":1,"azimuth":0,"tool":"pen"}\n' % (i * 1000, i)
                             for i in range(n)),
        "pinches-begun": "".join('{"t":%d,"e":"gesture","device":%d,"kind":"pinch","phase":"begin","fingers":2,"at":[5,5],"scale":1,"angle":0,"delta":[0,0]}\n' % (i * 1000, i)
                                 for i in range(n)),
    }


def fixed():
    """Small files of one bad line each."""
    return {
        "after-stopped": touch(0, '[0,"began",5,5]') + '{"t":1,"e":"stopped","reason":"full"}\n{"t":2,"e":"dropped","device":0}\n',
        "buttons-256": touch(0, '[0,"began",5,5]').replace("]]}", "]],\"buttons\":256}"),
        "escapes": '{"e":"device-added","device":0,"name":"Alice\\u001b]0;pwned\\u0007\\u009b2J","system":"event0","capabilities":["touch"]}\n'
                   '{"t":5,"e":"note","device":0,"text":"\\u001b[2J"}\n',
    }


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if len(sys.argv) == 3 and sys.argv[1] == "--full":
        out, sizes = sys.argv[2], [20_000, 80_000, 100_000, 800_000]
        os.makedirs(out, exist_ok=True)
        for n in sizes:
            for name, body in shapes(n).items():
                if name == "distinct-keys":
                    if n == 80_000:  # one line of 90,000 keys is 0.98 MB, within the reader's longest line (1 MiB)
                        with open(os.path.join(out, "distinct-keys-90000.input.jsonl"), "w") as f:
                            f.write(HEADER + shapes(90_000)[name])
                    continue
                if n == 100_000 and name != "devices":
                    continue  # the 100,000 devices
                if n == 800_000 and name != "held-touches-packed":
                    continue  # the 20 MB file; the others would be 70 to 120 MB
                with open(os.path.join(out, "%s-%d.input.jsonl" % (name, n)), "w") as f:
                    f.write(HEADER + body)
        with open(os.path.join(out, "screen-inf.input.jsonl"), "w") as f:
            f.write(HEADER.replace("[1000,1000]", '["inf",1000]'))
        return
    out = os.path.join(root, "Fuzz", "corpus", "input-recording")
    # Just past each budget (64 touches down, 128 in a sequence, 256 devices, 16 keys): the
    # fuzzer starts at the edges.
    past = {"held-touches": 70, "held-touches-packed": 200, "distinct-keys": 20, "devices": 260,
            "held-while-tapping": 70, "begun-again": 135, "pens-down": 135, "pinches-begun": 260}
    seeds = {name: shapes(n)[name] for name, n in past.items()}
    seeds.update(fixed())
    for name, body in seeds.items():
        with open(os.path.join(out, "hostile-%s.input.jsonl" % name), "w") as f:
            f.write(HEADER + body)


if __name__ == "__main__":
    main()
