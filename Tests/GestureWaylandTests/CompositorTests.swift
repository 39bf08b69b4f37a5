import Foundation
import GestureKit
import GestureTraces
import GestureLive
import Testing
@testable import GestureWayland
import GestureTestSupport

/// Recordings through a real compositor: recording → umockdev → sway's libinput → Wayland →
/// GestureWayland (`gesturekit listen --wayland`) → the recognizers, read against the
/// built-in decoder's replay of the same recording.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorTests {
    init() throws {
        let missing = Compositor.missingPrograms()
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs sway and umockdev)")
    }

    /// A session's JSON lines, after checking that it ran and exited cleanly.
    static func lines(of session: Compositor.Session, _ what: String) -> [Line] {
        #expect(session.clientStatus == 0,
                "\(what): gesturekit listen --wayland exits with status 0 at the end of its --duration; stderr: \(session.errors)\nsway: \(session.swayLog.suffix(1500))")
        return Line.parse(session.output)
    }

    /// Each recognized transition's time since the first touch (or click) began.
    static func times(_ lines: [Line]) -> [Double] {
        let start = lines.first { $0.type == "touches" && $0.phase == "began" }?.time ?? 0
        return lines.filter { $0.type == "state" && $0.to != "failed" && $0.to != "changed" }.map { $0.time - start }
    }

    @Test("touchscreen tap, double tap and long press through sway read as the built-in replay reads them, at the same times",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "ts-wacom-isdv4-e6-double-tap-1f.evemu",
                      "synthetic-ts-wacom-long-press-drag-1f.evemu"])
    func touchscreen(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let session = try Compositor.session(trace: trace)
        defer { session.remove() }
        let wayland = Self.lines(of: session, fixture)
        let (builtin, onTime) = try expectedReading(live: wayland, recording: session.recording, fixture: trace, client: "GestureWayland")
        let a = Line.recognized(wayland), b = Line.recognized(builtin)
        #expect(!a.isEmpty, "the compositor's touches are recognized as something")
        #expect(a == b, "through sway: \(a)\nexpected: \(b)")
        if onTime, fixture.hasSuffix("e6-tap-1f.evemu") { #expect(a == ["single ended"], "a tap is a single tap") }
        if onTime, fixture.contains("double-tap") { #expect(a == ["double ended"], "a double tap is a double tap") }
        if fixture.contains("long-press") { #expect(a.first == "longPress began", "a long press begins") }
        // The compositor's timestamps (milliseconds) keep the recording's timing, and the
        // deadlines (the long press's 0.5 s) fire on the event loop's timer: within 30 ms,
        // plus 5 % of the time since the first touch for umockdev's real-time replay, which
        // drifts late by up to ~0.4 ms a frame (60 ms over the 150 frames of the long press).
        let ta = Self.times(wayland), tb = Self.times(builtin)
        #expect(ta.count == tb.count)
        for (x, y) in zip(ta, tb) {
            #expect(abs(x - y) < 0.03 + 0.05 * y, "recognized at \(x) s through sway, \(y) s in the replay")
        }
        // Surface coordinates: the window fills the 1000 × 1000 output as the scene's screen.
        let first = try #require(wayland.first { $0.type == "state" }?.object["location"] as? [NSNumber])
        let expected = try #require(builtin.first { $0.type == "state" }?.object["location"] as? [NSNumber])
        // 2 pt for taps; the long press's finger is already moving when its 0.5 s deadline
        // fires, and a frame stamped a millisecond before the deadline may reach the client
        // after it: 10 pt there.
        let tolerance = fixture.contains("long-press") ? 10.0 : 2.0
        #expect(abs(first[0].doubleValue - expected[0].doubleValue) < tolerance
                    && abs(first[1].doubleValue - expected[1].doubleValue) < tolerance,
                "the touch lands where the replay puts it: \(first) vs \(expected)")
    }

    /// The Dell Canvas recording's five-finger pinch-in, cut out into a temporary file (the
    /// caller removes it).
    static func dellPinchTrace() throws -> String {
        let reader = try TraceReader(path: Compositor.fixture("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu"))
        let device = try #require(reader.devices.first)
        let description = try #require(device.description)
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: device.id) { events.append($0) }
        let first = try #require(events.first?.time)
        // The pinch runs from about 12.55 s to 13.1 s; no finger is down at 12.3 s or 13.5 s.
        let cut = events.filter { let t = ($0.time - first).inSeconds; return t >= 12.3 && t < 13.5 }
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-dell-pinch.evemu"
        try TraceWriter.evemu(description: description, events: cut).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a touchscreen pinch through sway: the Dell Canvas five-finger pinch-in, cut from the recording")
    func touchscreenPinch() throws {
        let path = try Self.dellPinchTrace()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try Compositor.session(trace: path)
        defer { session.remove() }
        let wayland = Self.lines(of: session, "pinch")
        let builtin = try expectedReading(live: wayland, recording: session.recording, fixture: path, client: "GestureWayland").lines
        let pinch = wayland.filter { $0.recognizer == "pinch" }
        #expect(pinch.contains { $0.to == "began" }, "the pinch begins: \(Line.recognized(wayland))")
        let end = try #require(pinch.last { $0.to == "ended" }, "the pinch ends")
        let builtinEnd = try #require(builtin.last { $0.recognizer == "pinch" && $0.to == "ended" })
        let a = try #require(end.scale), b = try #require(builtinEnd.scale)
        #expect(a < 0.7, "five fingers closing: scale \(a)")
        #expect(abs(a - b) < 0.03 * b, "final scale through sway \(a), built-in \(b)")
        #expect(Line.recognized(wayland) == Line.recognized(builtin), "sway and the built-in decoder agree (on what was delivered)")
    }

    static let pointerScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []},
        {"id": "pinch", "kind": "pinch", "view": "root"},
        {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"], "maximumTapDuration": 10,
         "allowableMovement": 1000},
        {"id": "double", "kind": "tap", "view": "root", "taps": 2, "allowedTouchTypes": ["indirectPointer"]} ],
      "simultaneous": [["click", "double"]] }
    """

    static func count(_ lines: [Line], _ recognizer: String, _ to: String) -> Int {
        lines.filter { $0.recognizer == recognizer && $0.to == to }.count
    }

    @Test("a mouse's clicks and double click, and its wheel, through sway: the same clicks and the same points scrolled as the built-in replay",
          arguments: ["synthetic-mouse-saitek-double-click.evemu", "synthetic-mouse-saitek-wheel.evemu"])
    func mouse(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let session = try Compositor.session(trace: trace, scene: Self.pointerScene)
        defer { session.remove() }
        let wayland = Self.lines(of: session, fixture)
        let (builtin, onTime) = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: Self.pointerScene,
                                                    client: "GestureWayland")
        for (recognizer, to) in [("click", "ended"), ("double", "ended"), ("wheelPan", "began")] {
            #expect(Self.count(wayland, recognizer, to) == Self.count(builtin, recognizer, to),
                    "\(recognizer) \(to): through sway \(Line.recognized(wayland)), expected \(Line.recognized(builtin))")
        }
        func scrolled(_ lines: [Line]) -> Double { Line.endedTranslations(lines, of: "wheelPan").reduce(0, +) }
        #expect(scrolled(wayland) == scrolled(builtin), "the wheel scrolls \(scrolled(builtin)) points: through sway \(scrolled(wayland))")
        if fixture.contains("double-click") {
            if onTime { #expect(Self.count(wayland, "double", "ended") == 1, "the double click double-taps") }
        } else {
            #expect(Self.count(wayland, "wheelPan", "began") > 0, "the wheel scrolls")
        }
    }

    @Test("a touchpad pinch through sway's pointer gestures: one pinch, the final scale within 3 % of the built-in replay's")
    func touchpadPinch() throws {
        let trace = Compositor.fixture("synthetic-tp-elantech-pinch-out-2f.evemu")
        let session = try Compositor.session(trace: trace, scene: Self.pointerScene)
        defer { session.remove() }
        let wayland = Self.lines(of: session, "touchpad pinch")
        let builtin = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: Self.pointerScene,
                                          client: "GestureWayland").lines
        #expect(Self.count(wayland, "pinch", "began") == 1, "one pinch: \(Line.recognized(wayland))")
        let a = try #require(wayland.last { $0.recognizer == "pinch" && $0.to == "ended" }?.scale, "the pinch ends")
        let b = try #require(builtin.last { $0.recognizer == "pinch" && $0.to == "ended" }?.scale)
        #expect(abs(a - b) <= 0.03 * b, "final scale: through sway \(a), built-in \(b)")
    }

    // MARK: faults

    @Test("the compositor goes away mid long press: the touch is cancelled, the long press ends cancelled, and listen exits with status 1 and says why")
    func compositorGoesAway() throws {
        let session = try Compositor.start(trace: Compositor.fixture("synthetic-ts-wacom-long-press-drag-1f.evemu"),
                                           hold: true, listenSeconds: 30)
        defer { session.remove() }
        let began = session.wait(seconds: 20) { session.output.contains(#""recognizer":"longPress","from":"possible","to":"began""#) }
        try #require(began, "the long press begins before the compositor is stopped: \(session.output) \(session.errors)")
        let pid = try #require(session.swayPID, "sway's pid from its IPC socket")
        kill(pid, SIGKILL)
        let exited = session.wait(seconds: 10) { session.clientStatus != nil }
        session.finish(timeout: 5)
        try #require(exited, "listen exits after the compositor is gone: \(session.errors)")
        #expect(session.clientStatus == 1, "exit status 1: the input source ended")
        #expect(session.errors.contains("the Wayland compositor went away"), "says what happened: \(session.errors)")
        #expect(session.errors.contains("cancelled"), "and that the touches were cancelled: \(session.errors)")
        let lines = Line.parse(session.output)
        #expect(lines.contains { $0.recognizer == "longPress" && $0.to == "cancelled" },
                "the long press ends cancelled: \(Line.recognized(lines))")
        #expect(lines.contains { $0.type == "touches" && $0.phase == "cancelled" }, "the view's touch is cancelled")
        let last = Dictionary(lines.filter { $0.type == "state" }.map { ($0.recognizer, $0.to) }, uniquingKeysWith: { _, b in b })
        for (recognizer, state) in last {
            #expect(["ended", "cancelled", "failed"].contains(state), "\(recognizer) ends in a final state, not \(state)")
        }
    }

    /// A long press, then 4 s later a tap, on the Wacom touchscreen: one recording.
    static func longPressThenTapTrace() throws -> String {
        let press = try TraceReader(path: Compositor.fixture("synthetic-ts-wacom-long-press-drag-1f.evemu"))
        let tap = try TraceReader(path: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"))
        let device = try #require(press.devices.first), tapDevice = try #require(tap.devices.first)
        let description = try #require(device.description)
        var events: [EvdevEvent] = []
        try press.forEachEvdevEvent(device: device.id) { events.append($0) }
        var tapEvents: [EvdevEvent] = []
        try tap.forEachEvdevEvent(device: tapDevice.id) { tapEvents.append($0) }
        let end = try #require(events.last?.time), tapStart = try #require(tapEvents.first?.time)
        for var e in tapEvents {
            e.time = end + Duration(seconds: 4 + (e.time - tapStart).inSeconds)
            events.append(e)
        }
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-press-then-tap.evemu"
        try TraceWriter.evemu(description: description, events: events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Why the seat test cannot run here, or nil. wlroots 0.15 (sway 1.7) deletes a destroyed
    /// seat's objects that the client still holds, so the client's release of its `wl_touch`
    /// is a protocol error ("invalid object", measured) and the connection is lost: every
    /// client, GTK's too.
    static let seatBackUnavailable: String? = {
        let v = SeatNineScrollingTests.swayVersion
        guard v.isEmpty || v.lexicographicallyPrecedes([1, 8]) else { return nil }
        let reason = "sway \(v.map(String.init).joined(separator: ".")) (wlroots 0.15) deletes a removed seat's objects the client still holds, and the client's release of them is a protocol error: this runs under Debian 13 (make test-debian13)"
        FileHandle.standardError.write(Data("\n*** SKIPPED: \(reason) ***\n\n".utf8))
        return reason
    }()

    @Test("the seat loses its touchscreen mid long press (moved to another seat) and gets it back (sway's configuration reloaded): the press is cancelled, and the next tap is one tap",
          .enabled(if: seatBackUnavailable == nil, "\(seatBackUnavailable ?? "")"))
    func touchCapabilityLostAndBack() throws {
        let trace = try Self.longPressThenTapTrace()
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let session = try Compositor.start(trace: trace, listenSeconds: Compositor.leadIn + 8)
        defer { session.remove() }
        let began = session.wait(seconds: 20) { session.output.contains(#""recognizer":"longPress","from":"possible","to":"began""#) }
        try #require(began, "the long press begins: \(session.errors)")
        let identifier = "1386:230:Wacom_ISDv4_E6_Finger"
        #expect(try session.swaymsg(["seat seat1 attach \(identifier)"]) == 0, "swaymsg moves the touchscreen to seat1")
        let cancelled = session.wait(seconds: 5) { session.output.contains(#""recognizer":"longPress","from":"changed","to":"cancelled""#) }
        #expect(cancelled, "seat0 lost touch: the long press is cancelled")
        #expect(try session.swaymsg(["reload"]) == 0, "swaymsg reloads the configuration: the touchscreen is seat0's again")
        session.finish(timeout: 30)
        #expect(session.clientStatus == 0, "listen runs on to its end: \(session.errors)")
        let lines = Line.parse(session.output)
        let recognized = Line.recognized(lines)
        #expect(recognized == ["longPress began", "longPress cancelled", "single ended"],
                "the press cancelled, then the tap after the touchscreen came back: \(recognized)")
    }

    /// Two touchscreens in one recording (libinput record YAML): the first holds a long press
    /// and is unplugged with the finger down (`vanishAfter` after its own last event), the
    /// second taps 3 s after that.
    static func unpluggedBesideAnotherTrace() throws -> String {
        let press = try TraceReader(path: Compositor.fixture("synthetic-ts-wacom-long-press-drag-1f.evemu"))
        let tap = try TraceReader(path: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"))
        let device = try #require(press.devices.first), tapDevice = try #require(tap.devices.first)
        var held: [EvdevEvent] = []
        var frame: [EvdevEvent] = []
        try press.forEachEvdevEvent(device: device.id) { e in
            frame.append(e)
            if e.type == .syn && e.code == .synReport { held += frame; frame = [] }
        }
        // Up to the frame before the first lift: the finger stays down.
        if let lift = held.firstIndex(where: { $0.type == .abs && $0.code == .absMTTrackingID && $0.value == -1 }) {
            let frameStart = held[..<lift].lastIndex { $0.type == .syn && $0.code == .synReport }.map { $0 + 1 } ?? 0
            held = Array(held[..<frameStart])
        }
        var tapEvents: [EvdevEvent] = []
        try tap.forEachEvdevEvent(device: tapDevice.id) { tapEvents.append($0) }
        let end = try #require(held.last?.time), tapStart = try #require(tapEvents.first?.time)
        tapEvents = tapEvents.map { var e = $0; e.time = end + Duration(seconds: 3 + ($0.time - tapStart).inSeconds); return e }
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-unplugged-beside-another.yml"
        try TraceWriter.libinputRecord(devices: [(try #require(device.description), held), (try #require(tapDevice.description), tapEvents)])
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a touchscreen is unplugged mid long press while the seat keeps another: the long press ends cancelled, never recognized (sway 1.7 says nothing of that touch, so it is cancelled when the other touchscreen's tap reuses its id), and the tap is one tap")
    func touchscreenUnpluggedBesideAnother() throws {
        let trace = try Self.unpluggedBesideAnotherTrace()
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let session = try Compositor.start(trace: trace, vanishAfter: 0.8)
        defer { session.remove() }
        session.finish(timeout: 40)
        let lines = Self.lines(of: session, "two touchscreens, one unplugged")
        let recognized = Line.recognized(lines)
        #expect(recognized == ["longPress began", "longPress cancelled", "single ended"],
                "the press cancelled (its touchscreen gone), then the other touchscreen's tap: \(recognized)\n\(session.output.suffix(3000))\n\(session.errors.suffix(1000))")
        // The lost touch is cancelled at the latest as the tap's touch begins (sway 1.7 says
        // nothing of it, and the tap reuses its id: the seat cancels it in a frame of its own).
        let cancel = lines.first { $0.recognizer == "longPress" && $0.to == "cancelled" }
        let tapBegan = lines.last { $0.type == "touches" && $0.phase == "began" }
        #expect(cancel?.object["reason"] as? String == "touches cancelled" && (cancel?.time ?? .infinity) <= (tapBegan?.time ?? 0),
                "the long press is cancelled by its touch's cancellation, by the time the tap's touch begins: \(String(describing: cancel?.object)), tap at \(String(describing: tapBegan?.time))")
    }

    @Test("the touchscreen is unplugged mid long press: the seat loses touch, the touch is cancelled, listen carries on to its end")
    func touchCapabilityLost() throws {
        let trace = Compositor.fixture("synthetic-ts-wacom-long-press-drag-1f.evemu")
        let session = try Compositor.start(trace: trace, hold: true, vanishAfter: 0.8)
        defer { session.remove() }
        session.finish(timeout: 30)
        let lines = Self.lines(of: session, "unplugged")
        let press = lines.filter { $0.recognizer == "longPress" }.map(\.to).filter { $0 != "changed" }
        #expect(press == ["began", "cancelled"], "the long press begins, then is cancelled by the unplug: \(press)")
        #expect(lines.contains { $0.type == "touches" && $0.phase == "cancelled" }, "the view's touch is cancelled")
    }
}

/// A second compositor (../notes' SECOND-COMPOSITOR): weston 10 nested in the headless sway,
/// the client meeting weston's protocol behaviour over sway's libinput.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct SecondCompositorTests {
    init() throws {
        let missing = Compositor.missingPrograms() + (Compositor.Nested.weston.installed ? [] : ["weston"])
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs them)")
    }

    @Test("weston 10 nested in sway: a recorded tap and double tap are a tap and a double tap, as in the built-in replay (weston sends no wl_touch.frame after the last lift; the lift is delivered at once, as GTK and SDL deliver it)",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "ts-wacom-isdv4-e6-double-tap-1f.evemu"])
    func westonTouch(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let session = try Compositor.session(trace: trace, nested: .weston)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "\(fixture) through weston")
        let expected = try expectedReading(live: wayland, recording: session.recording, fixture: trace, client: "GestureWayland under weston").lines
        let a = Line.recognized(wayland), b = Line.recognized(expected)
        #expect(a == b, "through weston: \(a)\nexpected: \(b)\nweston log: \(session.read("weston.log").suffix(800))")
        #expect(!a.contains("longPress began"), "a tap never turns into a long press")
    }

    @Test("weston 10 nested in sway: a mouse's clicks, double click and wheel scroll as in the built-in replay (weston sends the wheel as axis values, no source, no detents)")
    func westonMouse() throws {
        let trace = Compositor.fixture("synthetic-mouse-saitek-wheel.evemu")
        let scene = """
        { "recognizers": [ {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []} ] }
        """
        let session = try Compositor.session(trace: trace, scene: scene, nested: .weston)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "the wheel through weston")
        let builtin = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: scene,
                                          client: "GestureWayland under weston").lines
        func translations(_ lines: [Line]) -> [Double] { Line.endedTranslations(lines, of: "wheelPan") }
        #expect(translations(wayland) == translations(builtin),
                "the same scrolls, 15 pt a detent: weston \(translations(wayland)), built-in \(translations(builtin))")
    }
}

extension SecondCompositorTests {
    @Test("weston 10 has no pointer-gestures global: a touchpad pinch reaches the client as nothing (no pinch, no error), and listening ends cleanly")
    func westonWithoutPointerGestures() throws {
        let trace = Compositor.fixture("synthetic-tp-elantech-pinch-out-2f.evemu")
        let scene = """
        { "recognizers": [ {"id": "pinch", "kind": "pinch", "view": "root"} ] }
        """
        let session = try Compositor.session(trace: trace, scene: scene, nested: .weston)
        defer { session.remove() }
        let lines = CompositorTests.lines(of: session, "a touchpad pinch through weston")
        #expect(!lines.contains { $0.recognizer == "pinch" && $0.to == "began" },
                "no pinch without the compositor's pointer gestures: \(Line.recognized(lines))")
        #expect(!session.errors.contains("error"), "and no error: \(session.errors.suffix(500))")
    }
}

/// Scrolling at `wl_seat` 8 and 9 (`axis_value120`, `axis_relative_direction`): sway 1.7
/// (Debian 12) binds no higher than 7, so these say so and stop there; sway 1.10 (Debian 13,
/// `make test-debian13`) runs them.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct SeatNineScrollingTests {
    /// sway's version, from `sway --version`.
    static let swayVersion: [Int] = {
        guard let text = (try? runProcess("/usr/bin/env", ["sway", "--version"], errors: .discard))?.output else { return [] }
        guard let word = text.split(separator: " ").first(where: { $0.first?.isNumber == true }) else { return [] }
        return word.split(separator: ".").compactMap { Int($0.prefix { $0.isNumber }) }
    }()

    /// Why these cannot run here (said on stderr too), or nil: wlroots sends `axis_value120`
    /// and `axis_relative_direction` from sway 1.9 (wlroots 0.17) on, and the client binds 9
    /// only with libwayland 1.22's header or later.
    static let unavailableReason: String? = {
        guard swayVersion.isEmpty || swayVersion.lexicographicallyPrecedes([1, 9]) || gestureWaylandSeatVersion < 9 else { return nil }
        let reason = "wl_seat version 9 is not here: sway \(swayVersion.map(String.init).joined(separator: ".")) and a client that binds at most \(gestureWaylandSeatVersion); these run under Debian 13 (make test-debian13)"
        FileHandle.standardError.write(Data("\n*** SKIPPED: \(reason) ***\n\n".utf8))
        return reason
    }()

    static let scene = """
    { "recognizers": [
        {"id": "scrollPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"], "allowedTouchTypes": []},
        {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []} ],
      "simultaneous": [["scrollPan", "wheelPan"]] }
    """

    /// The distance scrolled through sway, and the client's axis events (WAYLAND_DEBUG).
    static func scrolled(_ fixture: String, natural: Bool, _ recognizer: String) throws -> (distance: Double, events: [String]) {
        let config = natural ? "input * natural_scroll enabled" : "input * natural_scroll disabled"
        let trace = Compositor.fixture(fixture)
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        let duration = Compositor.readyToRecording + length + Compositor.tail
        let session = try Compositor.start(
            trace: trace, scene: scene,
            client: "env WAYLAND_DEBUG=client CLIENT_DIR/gesturekit listen --wayland --json --ready-file CLIENT_DIR/ready --duration \(duration) --scene CLIENT_DIR/scene.json",
            swayConfig: config, readiness: .file)
        session.finish(timeout: duration + 20)
        defer { session.remove() }
        let distance = Line.endedTranslations(CompositorTests.lines(of: session, "\(fixture), natural scrolling \(natural)"),
                                              of: recognizer).reduce(0, +)
        let events = session.errors.split(separator: "\n").filter { $0.contains("wl_pointer") && $0.contains("axis") }.map(String.init)
        return (distance, events)
    }

    static func builtin(_ fixture: String, _ recognizer: String) throws -> Double {
        Line.endedTranslations(try builtinReplay(Compositor.fixture(fixture), scene: scene), of: recognizer).reduce(0, +)
    }

    static let cases = [("synthetic-tp-elantech-scroll-down-2f.evemu", "scrollPan"), ("synthetic-mouse-saitek-wheel.evemu", "wheelPan")]

    @Test("at wl_seat 9 a wheel scrolls by its axis_value120 detents and a touchpad scroll by its values: the same distance and direction as the built-in replay",
          .enabled(if: SeatNineScrollingTests.unavailableReason == nil, "\(SeatNineScrollingTests.unavailableReason ?? "")"),
          arguments: cases)
    func seatNine(_ fixture: String, _ recognizer: String) throws {
        let (distance, events) = try Self.scrolled(fixture, natural: false, recognizer)
        let expected = try Self.builtin(fixture, recognizer)
        #expect(abs(distance - expected) < max(0.5, 0.01 * abs(expected)), "through sway \(distance) pt, built-in \(expected) pt")
        if recognizer == "wheelPan" {
            #expect(events.contains { $0.contains("axis_value120") }, "the compositor says the detents at wl_seat 8 and later: \(events.prefix(4))")
        }
    }

    @Test("with natural scrolling on, a compositor that says the axis is inverted scrolls the same way as with it off; sway 1.10 inverts without saying so (axis_relative_direction identical), and the test records it as sway's",
          .enabled(if: SeatNineScrollingTests.unavailableReason == nil, "\(SeatNineScrollingTests.unavailableReason ?? "")"),
          arguments: cases)
    func naturalScrolling(_ fixture: String, _ recognizer: String) throws {
        let (off, _) = try Self.scrolled(fixture, natural: false, recognizer)
        let (on, events) = try Self.scrolled(fixture, natural: true, recognizer)
        #expect(off != 0, "\(fixture) scrolls")
        let said = events.contains { $0.contains("axis_relative_direction") && $0.hasSuffix(", 1)") }
        if said {
            #expect(abs(on - off) < 0.5, "the compositor said inverted: \(on) pt with natural scrolling, \(off) pt without; the hand's direction either way")
        } else {
            withKnownIssue("sway \(Self.swayVersion.map(String.init).joined(separator: ".")) inverts natural scrolling without saying so (axis_relative_direction identical): the hand's direction cannot be recovered from it") {
                #expect(abs(on - off) < 0.5, "natural scrolling on \(on) pt, off \(off) pt; the client got: \(events.prefix(3))")
            }
        }
    }
}

/// REPLAY.md's "Keys" through the compositor: the seat's keyboard, its modifiers read with the
/// keymap the compositor sends (xkbcommon).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorKeysTests {
    @Test("the K400's modifier keys through sway's wl_keyboard: the same transitions with the same modifierFlags as the built-in replay (shift turns the wheel sideways, ctrl, Caps Lock, super with alt on the clicks)")
    func modifiers() throws {
        let trace = Compositor.fixture("synthetic-mouse-logitech-k400-modifiers-wheel-click.evemu")
        let scene = """
        { "recognizers": [
            {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]},
            {"id": "wheel", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []} ] }
        """
        func states(_ lines: [Line]) -> [String] {
            lines.filter { $0.type == "state" }.map { line in
                let flags = (line.object["modifierFlags"] as? [String])?.joined(separator: "+") ?? "none"
                let t = (line.object["translation"] as? [NSNumber])?.map { String(format: "%.0f", $0.doubleValue) }.joined(separator: ",") ?? ""
                return "\(line.recognizer) \(line.to) [\(t)] \(flags)"
            }
        }
        let session = try Compositor.session(trace: trace, scene: scene)
        defer { session.remove() }
        let lines = CompositorTests.lines(of: session, "the K400 through sway")
        let wayland = states(lines)
        let builtin = states(try expectedReading(live: lines, recording: session.recording, fixture: trace, scene: scene, client: "GestureWayland").lines)
        #expect(wayland == builtin, "through sway:\n\(wayland)\nbuilt-in:\n\(builtin)")
    }
}

/// The `wl_seat` version this build binds at most (9 with libwayland 1.22's header or later).
let gestureWaylandSeatVersion = Int(WaylandConnection.seatVersion)

/// REPLAY.md's "Pens" through the compositor: sway's tablet protocol (`zwp_tablet_v2`) over
/// its libinput, read against the built-in decoder's replay of the same recording.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorPenTests {
    static let scene = """
    { "views": [ {"id": "canvas", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "tap", "kind": "tap", "view": "canvas", "allowedTouchTypes": ["pencil"], "requireToFail": ["doubleTap"]},
        {"id": "doubleTap", "kind": "tap", "view": "canvas", "taps": 2, "allowedTouchTypes": ["pencil"]},
        {"id": "draw", "kind": "pan", "view": "canvas", "allowedTouchTypes": ["pencil"]},
        {"id": "fingerPan", "kind": "pan", "view": "canvas", "allowedTouchTypes": ["direct"]},
        {"id": "brush", "kind": "hover", "view": "canvas"} ],
      "simultaneous": [["draw", "brush"], ["tap", "draw"], ["doubleTap", "draw"]] }
    """

    static func number(_ line: Line, _ key: String) -> Double? { (line.object[key] as? NSNumber)?.doubleValue }

    @Test("a pen through sway's tablet protocol: the same strokes and tools as the built-in replay, force and zOffset within 0.01 (the protocol's fixed point and 16-bit pressure), the location within 1 pt (but where it leaves: the protocol says none), the same recognitions; the cursor sway moves with the pen is no mouse hovering",
          arguments: ["pen-wacom-cintiq13hd-double-tap.evemu", "pen-wacom-cintiq12wx-stroke-eraser.evemu"])
    func pen(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let session = try Compositor.session(trace: trace, scene: Self.scene)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "\(fixture) through sway")
        let builtin = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: Self.scene,
                                          client: "GestureWayland's tablet").lines
        let a = wayland.filter { $0.type == "pen" }, b = builtin.filter { $0.type == "pen" }
        #expect(!a.isEmpty, "the pen reaches the client through the tablet protocol; listen's stderr: \(session.errors.suffix(600))")
        // wlroots sends a tool's frame when its event loop is idle, so on a loaded machine it
        // merges hardware frames (measured: 344 pen events for the built-in replay's 363, and a
        // short tap's every move merged into its down and its lift): the phases compare as
        // strokes, the same downs, lifts, hovers and tools in order, and moves merged away but
        // never made up. On a loaded machine sway also once took a hovering tool out of
        // proximity and brought it back at once, with nothing between (2026-12-02, load average
        // 4–5): that changes no stroke, and `Line.strokes` reads it as the one hover it was.
        func skeleton(_ strokes: [String]) -> [String] { strokes.filter { !$0.hasPrefix("moved ") } }
        func isSubsequence(_ x: [String], of y: [String]) -> Bool {
            var rest = y[...]
            for step in x { guard let i = rest.firstIndex(of: step) else { return false }; rest = rest[(i + 1)...] }
            return true
        }
        let (live, replayed) = (Line.strokes(a), Line.strokes(b))
        #expect(skeleton(live) == skeleton(replayed) && isSubsequence(live, of: replayed),
                "the same strokes and tools (moves may be merged away, never added):\nsway \(live)\nbuilt-in \(replayed)")
        // Values compare event by event when no frame was merged (an unloaded machine).
        if a.count == b.count {
            var worst: [String: (Double, Int)] = [:]
            // The angles are not compared: sway 1.7 sends no tilt when the pen comes in, and then
            // one axis at a time as it changes (measured; WaylandTablet.swift says so).
            for (i, (x, y)) in zip(a, b).enumerated() {
                for key in ["force", "zOffset"] {
                    if let u = Self.number(x, key), let v = Self.number(y, key), abs(u - v) > (worst[key]?.0 ?? 0) { worst[key] = (abs(u - v), i) }
                }
                if x.phase != "out", let p = x.object["location"] as? [NSNumber], let q = y.object["location"] as? [NSNumber] {
                    let d = max(abs(p[0].doubleValue - q[0].doubleValue), abs(p[1].doubleValue - q[1].doubleValue))
                    if d > (worst["location"]?.0 ?? 0) { worst["location"] = (d, i) }
                }
            }
            func show(_ i: Int) -> String { "line \(i):\n  sway     \(a[i].object)\n  built-in \(b[i].object)" }
            for key in ["force", "zOffset"] {
                #expect((worst[key]?.0 ?? 0) <= 0.01, "\(key) within 0.01 of the built-in replay's; differs by up to \(worst[key]?.0 ?? 0) at \(worst[key].map { show($0.1) } ?? "")")
            }
            #expect((worst["location"]?.0 ?? 0) <= 1, "the location within 1 pt; differs by up to \(worst["location"]?.0 ?? 0) pt at \(worst["location"].map { show($0.1) } ?? "")")
        }
        func timeline(_ lines: [Line]) -> String {
            let start = lines.firstIndex { $0.phase == "down" } ?? 0
            return lines[start...].prefix(40).filter { $0.type == "pen" ? $0.phase != "moved" && $0.phase != "hover" : $0.type == "state" }
                .map { $0.type == "pen" ? "pen \($0.phase)" : "\($0.recognizer) \($0.to) (\($0.object["reason"] ?? ""))" }.joined(separator: "; ")
        }
        // Recognitions compare when no frame was merged. A merged frame can hold a whole stroke:
        // measured on a loaded machine, the double tap's first stroke (24 pt) came as a down and
        // then a lift 24 pt away, with no move between, so the draw pan failed where the
        // built-in replay's began (UIKit's pan, too, begins only on a move). The strokes above
        // still compare.
        if a.count == b.count {
            #expect(Line.recognized(wayland) == Line.recognized(builtin),
                    "the same recognitions: sway \(Line.recognized(wayland)), built-in \(Line.recognized(builtin))\nsway: \(timeline(wayland))\nbuilt-in: \(timeline(builtin))")
        } else {
            print("*** \(fixture): sway merged pen frames (\(a.count) pen events, the built-in replay \(b.count)): recognitions not compared ***")
        }
    }
}

/// KWin 5.27 nested in sway: its protocol behaviour over sway's libinput (it binds sway's
/// pointer below version 5, so wheels come as axis values alone).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct KWinTests {
    init() throws {
        let missing = Compositor.missingPrograms() + (Compositor.Nested.kwin.installed ? [] : ["kwin-wayland"])
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs them)")
    }

    @Test("KWin (5.27 on Debian 12, 6.3 on Debian 13) nested in sway: a recorded tap and double tap, a mouse's wheel and a touchpad pinch read as the built-in replay reads them",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "ts-wacom-isdv4-e6-double-tap-1f.evemu",
                      "synthetic-mouse-saitek-wheel.evemu", "synthetic-tp-elantech-pinch-out-2f.evemu"])
    func kwin(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        // The pinch without a wheel pan: KWin binds sway's pointer below version 5, so the few
        // two-finger scroll events libinput sends before it decides on the pinch reach the
        // client with no axis source, the same as a wheel's (measured: a wheelPan would begin
        // and be cancelled by the pinch).
        let wheel = fixture.contains("-tp-") ? "" : """
            {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []},
        """
        let scene = """
        { "recognizers": [
            {"id": "single", "kind": "tap", "view": "root", "requireToFail": ["double"]},
            {"id": "double", "kind": "tap", "view": "root", "taps": 2},\(wheel)
            {"id": "pinch", "kind": "pinch", "view": "root"} ] }
        """
        let session = try Compositor.session(trace: trace, scene: scene, nested: .kwin)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "\(fixture) through KWin")
        let builtin = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: scene,
                                          client: "GestureWayland under KWin").lines
        #expect(Line.recognized(wayland) == Line.recognized(builtin),
                "through KWin: \(Line.recognized(wayland))\nbuilt-in: \(Line.recognized(builtin))\nKWin's log: \(session.read("kwin.log").suffix(600))")
        func translations(_ lines: [Line]) -> [Double] { Line.endedTranslations(lines, of: "wheelPan") }
        #expect(translations(wayland) == translations(builtin), "the same wheel scrolls: KWin \(translations(wayland)), built-in \(translations(builtin))")
    }
}
