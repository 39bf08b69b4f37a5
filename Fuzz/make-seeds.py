#!/usr/bin/env python3
"""Builds the fuzz seed corpus (Fuzz/corpus/<target>/) from the fixtures: small files only.

evemu and debug-events fixtures are copied as they are (the small ones); each evemu fixture
is also converted to `libinput record` YAML (version 1) and to the multitouch target's
binary records; the scenes are those of docs/REPLAY.md and the tests. Run once; the output
is committed. The input-recording target's seeds are GestureKit's own recordings of small
fixtures' replays (`gesturekit replay FIXTURE --record Fuzz/corpus/input-recording/NAME`).
"""
import os, re, shutil, struct, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixtures = os.path.join(root, "Fixtures")
corpus = os.path.join(root, "Fuzz", "corpus")
LIMIT = 12_000  # bytes: seeds stay small

def out(target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(d, name), mode) as f:
        f.write(data)

def parse_evemu(text):
    name, ident, props, codes, absinfo, events = "", [0, 0, 0, 0], [], {}, {}, []
    masks = {}
    for line in text.splitlines():
        if line.startswith("N: "): name = line[3:].strip()
        elif line.startswith("I: "): ident = [int(x, 16) for x in line[3:].split()]
        elif line.startswith("P: "):
            bs = [int(x, 16) for x in line[3:].split()]
            props += [i * 8 + b for i, byte in enumerate(bs) for b in range(8) if byte >> b & 1]
        elif line.startswith("B: "):
            parts = [int(x, 16) for x in line[3:].split()]
            masks.setdefault(parts[0], []).extend(parts[1:])
        elif line.startswith("A: "):
            p = line[3:].split()
            absinfo[int(p[0], 16)] = [int(x) for x in p[1:]]
        elif line.startswith("E: "):
            p = line[3:].split()
            sec, usec = p[0].split(".")
            events.append((int(sec), int(usec), int(p[1], 16), int(p[2], 16), int(p[3])))
    for t, bs in masks.items():
        cs = [i * 8 + b for i, byte in enumerate(bs) for b in range(8) if byte >> b & 1]
        if cs: codes[t] = cs
    return name, ident, props, codes, absinfo, events

def to_yaml(name, ident, props, codes, absinfo, events):
    y = ["# libinput record", "version: 1", "ndevices: 1", "libinput:", '  version: "1.25.0"',
         "system:", '  kernel: "6.1.0"', "devices:", "- node: /dev/input/event4", "  evdev:",
         f'    name: "{name}"', f"    id: [{', '.join(map(str, ident))}]", "    codes:"]
    for t in sorted(codes): y.append(f"      {t}: [{', '.join(map(str, codes[t]))}]")
    y.append("    absinfo:")
    for c in sorted(absinfo):
        a = absinfo[c]
        y.append(f"      {c}: [{a[0]}, {a[1]}, {a[2]}, {a[3]}, {a[4] if len(a) > 4 else 0}]")
    y.append(f"    properties: [{', '.join(map(str, props))}]")
    y.append("  events:")
    open_ = False
    for sec, usec, t, c, v in events:
        if not open_: y.append("  - evdev:"); open_ = True
        y.append(f"    - [{sec:3d}, {usec:6d}, {t:3d}, {c:3d}, {v:7d}]")
        if t == 0 and c == 0: open_ = False
    return "\n".join(y) + "\n"

# The multitouch target's encoding (Fuzz/MultitouchTarget.swift).
SELECTORS = {(0, 0): 0, (0, 3): 2, (0, 2): 3, (3, 0): 4, (3, 1): 5, (3, 0x2f): 6, (3, 0x35): 7,
             (3, 0x36): 8, (3, 0x39): 9, (1, 0x14a): 10, (1, 0x145): 11, (1, 0x14d): 12,
             (1, 0x14e): 13, (1, 0x14f): 14, (1, 0x148): 15, (3, 0x3a): 16}
SLOTS = [0, 1, 2, 3, 5, 10, 16, 256]

def to_records(props, codes, absinfo, events):
    slots = absinfo.get(0x2f, [0, -1])[1] + 1 if 0x2f in absinfo else 0
    sel = max(i for i, s in enumerate(SLOTS) if s <= max(slots, 0))
    dev = sel | (0x08 if 0x14a in codes.get(1, []) else 0) | (0x10 if 3 in props else 0) | (0x20 if 0 in props else 0)
    data = bytes([dev, 0x01])
    last = None
    for sec, usec, t, c, v in events:
        if (t, c) not in SELECTORS: continue
        ms = sec * 1000 + usec // 1000
        step = 0 if last is None else max(-32767, min(32767, ms - last))
        last = ms
        data += struct.pack("<BiHB", SELECTORS[(t, c)], v, step & 0xffff, 0)
    return data

shutil.rmtree(corpus, ignore_errors=True)
for f in sorted(os.listdir(fixtures)):
    path = os.path.join(fixtures, f)
    text = open(path, encoding="utf-8", errors="replace").read()
    stem = f.rsplit(".", 1)[0] if f.endswith(".evemu") else f.split(".debug-events")[0]
    if f.endswith(".evemu"):
        parsed = parse_evemu(text)
        if len(text) <= LIMIT: out("evemu", f, text)
        # Long recordings: the first 200 events keep the seed small.
        name, ident, props, codes, absinfo, events = parsed
        events = events[:200]
        yaml = to_yaml(name, ident, props, codes, absinfo, events)
        if len(yaml) <= 3 * LIMIT: out("libinput-record", stem + ".yml", yaml)
        out("multitouch", stem + ".bin", to_records(props, codes, absinfo, events))
    elif f.endswith(".txt") and len(text) <= LIMIT:
        out("debug-events", f, text)

scenes = {
    "replay-md.json": """{
  "screen": [1000, 1000],
  "views": [
    { "id": "root", "frame": [0, 0, 1000, 1000] },
    { "id": "cell", "frame": [100, 100, 200, 200], "parent": "root" }
  ],
  "recognizers": [
    { "id": "single", "kind": "tap", "view": "root", "requireToFail": ["double"] },
    { "id": "double", "kind": "tap", "view": "root", "taps": 2 },
    { "id": "press", "kind": "longPress", "view": "cell", "minimumPressDuration": 0.5,
      "cancelsTouchesInView": false },
    { "id": "pinch", "kind": "pinch", "view": "root" },
    { "id": "rotate", "kind": "rotation", "view": "root" }
  ],
  "simultaneous": [["pinch", "rotate"]]
}
""",
    "every-kind.json": """{"screen": [800, 600], "views": [{"id": "root", "frame": [0, 0, 800, 600]},
 {"id": "a", "frame": [0, 0, 400, 300], "parent": "root"}, {"id": "b", "frame": [10, 10, 100, 100], "parent": "a"}],
 "recognizers": [
  {"id": "t", "kind": "tap", "view": "b", "taps": 3, "touches": 1, "allowableMovement": 20, "maximumTapDuration": 1,
   "maximumTapInterval": 0.5, "maximumTapDistance": 60, "delaysTouchesBegan": true},
  {"id": "lp", "kind": "longPress", "view": "a", "minimumPressDuration": 0.2, "taps": 1, "touches": 2, "requireToFail": ["t"]},
  {"id": "pan", "kind": "pan", "view": "root", "minimumTouches": 1, "maximumTouches": 3, "threshold": 5, "delaysTouchesEnded": false},
  {"id": "sw", "kind": "swipe", "view": "root", "direction": ["left", "up"], "touches": 1, "minimumDistance": 40, "maximumDuration": 0.4},
  {"id": "rot", "kind": "rotation", "view": "root", "threshold": 0.1, "enabled": false},
  {"id": "pin", "kind": "pinch", "view": "root", "threshold": 12, "cancelsTouchesInView": false}],
 "simultaneous": [["pan", "pin"], ["rot", "pin"]],
 "layout": {"kind": "flow", "sections": [12, 5], "itemSize": [80, 120], "minimumLineSpacing": 20,
  "minimumInteritemSpacing": 10, "sectionInset": [10, 20, 10, 20], "headerReferenceSize": [300, 50],
  "footerReferenceSize": [300, 50], "pinch": "pin"}}
""",
    "empty.json": "{}\n",
}
for name, text in scenes.items():
    out("scene", name, text)
print("seeds:", {t: len(os.listdir(os.path.join(corpus, t))) for t in sorted(os.listdir(corpus))})
