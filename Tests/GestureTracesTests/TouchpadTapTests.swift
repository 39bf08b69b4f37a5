import GestureKit
import GestureTestSupport
import Testing
@testable import GestureTraces

/// Tap-to-click on the built-in decoder, as libinput 1.22 taps (evdev-mt-touchpad-tap.c): on
/// the real tap recordings and the synthetic ones made after libinput's tap tests
/// (scripts/make-synthetic-touchpad-gestures.py). PointerAgreementTests replays them through
/// libinput too.
@Suite("Tapping on a touchpad, as libinput taps")
struct TouchpadTapTests {
    /// The pad's buttons as the decoder sends them, with tapping `on` (nil: the pad's default):
    /// "L+", "L-", "R+", "M-"… with the time they carry, in ms (libinput's stamps: a tap's press
    /// the time its finger landed, its release the time it lifted).
    static func buttons(_ fixture: String, tapping on: Bool?) throws -> [(name: String, ms: Double)] {
        let reader = try TraceReader(path: Fixtures.path(fixture), mapping: TouchMapping(touchpadTapping: on))
        let d = try Decoded(reader, touchpads: .pointer)
        return d.pointer.filter { $0.kind == .button }.map { p in
            let name = [0x110: "L", 0x111: "R", 0x112: "M"][p.button] ?? "\(p.button)"
            return (name + (p.pressed ? "+" : "-"), p.time.seconds * 1000)
        }
    }

    static func names(_ b: [(name: String, ms: Double)]) -> [String] { b.map(\.name) }

    /// The times (ms) the pad's contacts began and ended, in order.
    static func contactTimes(_ fixture: String) throws -> (began: [Double], ended: [Double]) {
        let d = try Decoded(path: Fixtures.path(fixture), touchpads: .contacts)
        var began: [Double] = [], ended: [Double] = []
        for f in d.frames {
            for c in f.changes where c.phase == .began { began.append(f.time.seconds * 1000) }
            for c in f.changes where c.phase == .ended || c.phase == .cancelled { ended.append(f.time.seconds * 1000) }
        }
        return (began, ended)
    }

    @Test("a tap clicks nothing on a pad with a left button unless tapping is turned on: libinput's default there is off")
    func offByDefaultWithALeftButton() throws {
        for fixture in ["synthetic-tp-elantech-double-tap-1f.evemu", "synthetic-tp-elantech-tap-1f.evemu", "tp-cypress-semimt-tap-2f.evemu"] {
            #expect(try Self.buttons(fixture, tapping: nil).isEmpty, "\(fixture): no click by default")
            #expect(try Self.buttons(fixture, tapping: false).isEmpty, "\(fixture): no click with tapping off")
        }
    }

    @Test("with tapping on, a one-finger tap is a left click, stamped from the finger's landing to its lift; it is sent only once certain: the release after libinput's drag timeout (160 ms + 20 ms a finger), here at the end of the recording")
    func oneFingerTap() throws {
        let fixture = "synthetic-tp-elantech-tap-1f.evemu"
        let b = try Self.buttons(fixture, tapping: true)
        #expect(Self.names(b) == ["L+", "L-"], "one left click: \(b)")
        let times = try Self.contactTimes(fixture)
        guard b.count == 2, let landed = times.began.first, let lift = times.ended.last else { return }
        #expect(abs(b[0].ms - landed) < 0.01 && abs(b[1].ms - lift) < 0.01, "from \(landed) to \(lift) ms: \(b)")
        let reader = try TraceReader(path: Fixtures.path(fixture), mapping: TouchMapping(touchpadTapping: true))
        let d = try Decoded(reader, touchpads: .pointer)
        let removed = try #require(d.removed.first?.1)
        #expect(abs(removed.seconds * 1000 - (lift + 180)) < 0.01,
                "the recording ends when the tap's timer has run out, 180 ms after the lift: \(removed.seconds * 1000) ms")
    }

    @Test("the real ALPS taps are no taps with tapping on, as libinput 1.22 makes nothing of them: on that pad (no resolution, taken as 69 × 50 mm) the finger slides 2 mm in its first 60 ms, past the 1.3 mm a tap may move",
          arguments: ["tp-alps-glidepoint-double-tap-1f.evemu", "tp-alps-glidepoint-tap-1f.evemu"])
    func realALPSTapsMove(_ fixture: String) throws {
        #expect(try Self.buttons(fixture, tapping: true).isEmpty, "\(fixture): no click")
    }

    @Test("with tapping on, two fingers tap the right button and three the middle one (libinput's LRM map), on real and synthetic recordings",
          arguments: [("tp-cypress-semimt-tap-2f.evemu", "R"), ("synthetic-tp-elantech-tap-2f.evemu", "R"),
                      ("tp-cypress-semimt-tap-3f.evemu", "M"), ("synthetic-tp-elantech-tap-3f.evemu", "M")])
    func multiFingerTaps(_ fixture: String, _ button: String) throws {
        let b = try Self.buttons(fixture, tapping: true)
        #expect(Self.names(b) == [button + "+", button + "-"], "\(fixture): one \(button) click: \(b)")
    }

    @Test("with tapping on, a double tap is two left clicks, each stamped from its finger's landing to its lift")
    func doubleTap() throws {
        let fixture = "synthetic-tp-elantech-double-tap-1f.evemu"
        let b = try Self.buttons(fixture, tapping: true)
        #expect(Self.names(b) == ["L+", "L-", "L+", "L-"], "two left clicks: \(b)")
        let t = try Self.contactTimes(fixture)
        guard b.count == 4, t.began.count == 2, t.ended.count == 2 else { return }
        let expected = [t.began[0], t.ended[0], t.began[1], t.ended[1]]
        #expect(zip(b.map(\.ms), expected).allSatisfy { abs($0 - $1) < 0.01 }, "\(b), contacts \(expected)")
    }

    @Test("with tapping on, a tap and a finger landing again within the drag timeout and moving drags: the left button held from the tap until the finger lifts, the pointer moving with it")
    func tapAndDrag() throws {
        let fixture = "synthetic-tp-elantech-tap-drag-1f.evemu"
        let reader = try TraceReader(path: Fixtures.path(fixture), mapping: TouchMapping(touchpadTapping: true))
        let d = try Decoded(reader, touchpads: .pointer)
        let b = try Self.buttons(fixture, tapping: true)
        #expect(Self.names(b) == ["L+", "L-"], "one press and one release: \(b)")
        let times = try Self.contactTimes(fixture)
        guard b.count == 2, times.ended.count == 2 else { return }
        #expect(abs(b[0].ms - times.began[0]) < 0.01 && abs(b[1].ms - times.ended[1]) < 0.01,
                "held from the tap (stamped when it landed) to the drag's lift: \(b), contacts \(times)")
        let moves = d.pointer.filter { $0.kind == .motion && $0.time.seconds * 1000 > times.began[1] && $0.time.seconds * 1000 < b[1].ms }
        let dx = (moves.last?.location.x ?? 0) - (moves.first?.location.x ?? 0)
        #expect(dx > 150, "the pointer moves right with the finger while the button is held: \(dx) pt")
        #expect(!d.gestures.contains { $0.kind == .hold && $0.time.seconds * 1000 > times.began[1] },
                "no hold during the drag (libinput's hold timer does nothing while tap-dragging)")
    }

    @Test("with tapping on, a touch that moves past 1.3 mm, or rests past 180 ms, is no tap",
          arguments: ["synthetic-tp-elantech-tap-move-1f.evemu", "synthetic-tp-elantech-tap-long-1f.evemu"])
    func noTap(_ fixture: String) throws {
        #expect(try Self.buttons(fixture, tapping: true).isEmpty, "\(fixture): no click")
    }

    @Test("the Wacom Intuos5's touch pad has no left button: libinput taps there by default, and the decoder too (its two-finger scroll is no tap)")
    func onByDefaultWithoutALeftButton() throws {
        let reader = try TraceReader(path: Fixtures.path("tp-wacom-intuos5-scroll-2f.evemu"))
        let device = try #require(reader.devices.first)
        #expect(device.description?.has(.key, .btnLeft) == false, "no BTN_LEFT")
        let pad = TouchpadInterpreter(device: device, screen: Size(width: 1000, height: 1000))
        #expect(pad.tap != nil, "tapping on by default")
        let off = TouchpadInterpreter(device: device, screen: Size(width: 1000, height: 1000), tapping: false)
        #expect(off.tap == nil, "and off when asked")
        #expect(try Self.buttons("tp-wacom-intuos5-scroll-2f.evemu", tapping: nil).isEmpty, "the scroll moves: no tap")
    }

    @Test("with tapping on, three fingers on a pad with two slots decide nothing while they may still tap: they hold at the 180 ms tap timeout, then swipe, as libinput holds them (tapping off: a swipe at once, no hold)")
    func threeFingersWaitForTheTapTimeout() throws {
        func steps(_ tapping: Bool) throws -> [String] {
            let reader = try TraceReader(path: Fixtures.path("synthetic-tp-synaptics-swipe-right-3f.evemu"),
                                         mapping: TouchMapping(touchpadTapping: tapping))
            let d = try Decoded(reader, touchpads: .pointer)
            return d.gestures.filter { $0.phase != .update }.map { "\($0.kind) \($0.phase)" }
        }
        let on = try steps(true), off = try steps(false)
        #expect(on == ["hold begin", "hold cancel", "swipe begin", "swipe end"], "tapping on: \(on)")
        #expect(off == ["swipe begin", "swipe end"], "tapping off: \(off)")
    }

    /// The state machine alone: the finger `id` lands at `p` (mm), etc.
    static func run(_ tap: inout TouchpadTap, _ steps: [(ms: Int64, TouchpadTap.Change.Phase, Point)]) -> [String] {
        var out: [String] = []
        for (ms, phase, p) in steps {
            let time = Instant(nanoseconds: ms * 1_000_000)
            while let due = tap.deadline, due <= time {
                _ = tap.handleTimeout(at: due)
                out += tap.takeButtons().map { ($0.pressed ? "+" : "-") + "\($0.time.nanoseconds / 1_000_000)" }
            }
            _ = tap.handleState(time: time, changes: [.init(id: 1, phase: phase, point: p)], clickpadPressed: false, ignoreMotion: false)
            out += tap.takeButtons().map { ($0.pressed ? "+" : "-") + "\($0.time.nanoseconds / 1_000_000)" }
        }
        while let due = tap.deadline {
            _ = tap.handleTimeout(at: due)
            out += tap.takeButtons().map { ($0.pressed ? "+" : "-") + "\($0.time.nanoseconds / 1_000_000)" }
        }
        return out
    }

    @Test("a tap-and-drag whose finger lifts and lands again within 300 ms drags on with drag lock on (the button held), and ends at the lift with it off (libinput's default)")
    func dragLock() {
        let o = Point.zero, far = Point(x: 10, y: 0), farther = Point(x: 20, y: 0)
        let steps: [(ms: Int64, TouchpadTap.Change.Phase, Point)] = [
            (0, .began, o), (50, .ended, o),              // a tap
            (100, .began, o), (150, .moved, far),         // drags
            (300, .ended, far),                           // lifts mid-drag
            (400, .began, far), (450, .moved, farther),   // lands again within 300 ms and moves
            (600, .ended, farther),
        ]
        var locked = TouchpadTap(dragLockEnabled: true)
        #expect(Self.run(&locked, steps) == ["+0", "-900"],
                "held from the tap to 300 ms after the last lift (the drag lock timeout)")
        var unlocked = TouchpadTap()
        #expect(Self.run(&unlocked, steps) == ["+0", "-300"], "released at the first lift")
        var noDrag = TouchpadTap(dragEnabled: false)
        #expect(Self.run(&noDrag, steps) == ["+0", "-50"], "without tap-and-drag a tap clicks at once, and the move is no tap")
    }
}
