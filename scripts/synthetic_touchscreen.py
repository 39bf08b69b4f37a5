"""What the synthetic touchscreen fixture scripts share (make-synthetic-long-press-drag.py,
make-synthetic-flick.py): the real device description of a fixture, and one touch's events
written as evemu lines (protocol B, slot 0, tracking id 1, with the legacy ABS_X/ABS_Y)."""
from pathlib import Path

root = Path(__file__).resolve().parent.parent
fixtures = root / "Fixtures"


def header_of(path):
    """The description lines of an evemu recording, up to its first event."""
    header = []
    for line in path.read_text().splitlines():
        if line.startswith("E:") or line.startswith("# Events below"):
            break
        header.append(line)
    return header


class OneTouch:
    """One touch's evemu events, times in seconds."""

    def __init__(self):
        self.events = []

    def emit(self, t, etype, code, value):
        sec = int(t)
        usec = int(round((t - sec) * 1_000_000))
        if usec == 1_000_000:
            sec, usec = sec + 1, 0
        self.events.append(f"E: {sec}.{usec:06d} {etype:04x} {code:04x} {value}")

    def frame(self, t, x, y, first=False):
        """The touch at (x, y) in device units; `first` puts it down."""
        if first:
            self.emit(t, 3, 0x39, 1)
        self.emit(t, 3, 0x35, x)
        self.emit(t, 3, 0x36, y)
        if first:
            self.emit(t, 1, 0x14a, 1)
        self.emit(t, 3, 0x00, x)
        self.emit(t, 3, 0x01, y)
        self.emit(t, 0, 0, 0)

    def lift(self, t):
        self.emit(t, 3, 0x39, -1)
        self.emit(t, 1, 0x14a, 0)
        self.emit(t, 0, 0, 0)

    def write(self, target, header, script, what=None):
        """Writes the recording: `header`, a line saying which script made the events
        (and what they are), the events."""
        said = f"# Events below: synthetic (scripts/{script}), not a recording" + (f": {what}" if what else "")
        target.write_text("\n".join(header) + "\n" + said + "\n" + "\n".join(self.events) + "\n")
