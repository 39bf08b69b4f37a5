#!/usr/bin/env python3
"""Replays the touchpad recordings of Fixtures/ through the built-in decoder and through real
libinput (umockdev; `gesturekit replay --backend libinput`, real time) and prints, per recording
and backend, what the pointer recognizers made of it: the pinch (begin, end, final scale), the
rotation, the two-finger scroll (count, first time, total translation), clicks, and where the
pointer ended (the hover's last location). Run after `swift build` (or swiftlock build):
    python3 scripts/compare-pointer-backends.py"""
import json
import os
import subprocess
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tool = os.path.join(root, ".build", "debug", "gesturekit")
scene = {
    "recognizers": [
        {"id": "scrollPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"], "allowedTouchTypes": []},
        {"id": "pinch", "kind": "pinch", "view": "root"}, {"id": "rotate", "kind": "rotation", "view": "root"},
        {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]},
        {"id": "hover", "kind": "hover", "view": "root"}],
    "simultaneous": [["pinch", "rotate"]],
}
fixtures = sorted(f for f in os.listdir(os.path.join(root, "Fixtures"))
                  if f.endswith(".evemu") and ("tp-elantech" in f or "tp-synaptics" in f or "tp-wacom" in f))

with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump(scene, f)
    scene_path = f.name
try:
    for fixture in fixtures:
        print(f"== {fixture}")
        for backend in ["builtin", "libinput"]:
            run = subprocess.run([tool, "replay", os.path.join(root, "Fixtures", fixture), "--scene", scene_path,
                                  "--json", "--backend", backend], capture_output=True, text=True, timeout=300)
            states = [o for o in map(json.loads, filter(str.strip, run.stdout.splitlines())) if o["type"] == "state"]
            def of(r, to):
                return [o for o in states if o["recognizer"] == r and o["to"] == to]
            row = {}
            if of("pinch", "began"):
                end = of("pinch", "ended")[-1]
                row["pinch"] = f"began {of('pinch', 'began')[0]['time']:.3f} s, ended {end['time']:.3f} s at scale {end['scale']:.4f}"
            if of("rotate", "ended"):
                row["rotation"] = f"{of('rotate', 'ended')[-1]['rotation']:.4f} rad"
            if of("scrollPan", "began"):
                total = [sum(o["translation"][i] for o in of("scrollPan", "ended")) for i in (0, 1)]
                row["scroll"] = f"{len(of('scrollPan', 'began'))}, first at {of('scrollPan', 'began')[0]['time']:.3f} s, total ({total[0]:.1f}, {total[1]:.1f}) pt"
            row["clicks"] = len(of("click", "ended"))
            hover = [o for o in states if o["recognizer"] == "hover"]
            if hover:
                row["pointer at the end"] = [round(v) for v in hover[-1]["location"]]
            print(f"  {backend:9} {row}")
finally:
    os.unlink(scene_path)
