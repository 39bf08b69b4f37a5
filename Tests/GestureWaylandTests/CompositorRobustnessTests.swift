import Foundation
import GestureInput
import GestureKit
import GestureLive
import GestureTraces
import GestureTestSupport
import Testing
@testable import GestureWayland

/// The desktop's robustness list through a real compositor (sway, fed from recordings): a
/// touchpad pinch reaching PhotoWall on SDL's connection, a right click, the seat's name on its
/// devices, the serials an app needs for a window move, and the pointer taken away while a
/// button is held.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorRobustnessTests {
    init() throws {
        let missing = Compositor.missingPrograms()
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs sway and umockdev)")
    }

    // MARK: PhotoWall's touchpad pinch

    /// "pinch: tiles 286 × 286 pt (pinch × 1.70)" → 1.70.
    static func pinchScale(_ event: String) -> Double? {
        guard event.hasPrefix("pinch:"), let r = event.range(of: "pinch × ") else { return nil }
        return Double(event[r.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    @Test("PhotoWall in a window under sway: a touchpad pinch reaches it through the compositor's pointer gestures (SDL2 has none) and resizes the tiles as the built-in replay does, the scale within 3 %",
          arguments: ["synthetic-tp-elantech-pinch-out-2f.evemu", "synthetic-tp-elantech-pinch-out-in-2f.evemu"])
    func photoWallTouchpadPinch(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let seconds = Compositor.leadIn + 3
        let session = try PhotoWallDesktopTests.startWall(trace: trace, seconds: seconds)
        defer { session.remove() }
        session.finish(timeout: seconds + 20)
        #expect(session.clientStatus == 0, "photowall exits with status 0 after --duration: \(session.errors)")
        // sway's libinput sends a few two-finger scroll events before it tells the pinch (the
        // built-in decoder does not: measured, as in KWinTests), which SDL gives the wall as a
        // wheel: a scroll of the wall at its top, that moves it little or not at all (0 pt
        // unloaded; 1 pt once in a loaded run, where libinput read the frames in another rhythm
        // before it decided on the pinch).
        let seen = Self.withoutPreludeScroll(PhotoWallDesktopTests.events(session.output))
        let expected = try PhotoWallDesktopTests.replayEvents(trace)
        #expect(expected.contains { $0.hasPrefix("pinch:") }, "the built-in replay resizes the tiles: \(expected)")
        #expect(seen.map { $0.prefix { $0 != ":" } } == expected.map { $0.prefix { $0 != ":" } },
                "the same events through sway: \(seen); built-in replay: \(expected)\n\(session.output)")
        for (a, b) in zip(seen.compactMap(Self.pinchScale), expected.compactMap(Self.pinchScale)) {
            #expect(abs(a - b) <= 0.03 * b, "pinch × \(a) through sway, × \(b) in the replay")
        }
    }

    /// How far the scroll libinput sends before it decides on a pinch may move the wall.
    static let preludeScrollLimit = 10.0 // points

    /// `events` without the wall's scrolls before its first pinch that leave it within
    /// `preludeScrollLimit` of its top ("pan: scrolled to 1 pt").
    static func withoutPreludeScroll(_ events: [String]) -> [String] {
        let firstPinch = events.firstIndex { $0.hasPrefix("pinch:") } ?? events.endIndex
        return events.enumerated().filter { i, event in
            guard i < firstPinch, event.hasPrefix("pan: scrolled to "), event.hasSuffix(" pt"),
                  let offset = Double(event.dropFirst("pan: scrolled to ".count).dropLast(3)) else { return true }
            return abs(offset) > preludeScrollLimit
        }.map(\.element)
    }

    @Test("the scroll libinput sends before a pinch is left out only while it stays near the wall's top, and only before the pinch")
    func preludeScroll() {
        #expect(Self.withoutPreludeScroll(["pan: scrolled to 0 pt", "pan: scrolled to 1 pt", "pinch: tiles 114 × 114 pt (pinch × 0.68)"])
                == ["pinch: tiles 114 × 114 pt (pinch × 0.68)"], "a scroll of 0 or 1 pt before the pinch is libinput's prelude")
        #expect(Self.withoutPreludeScroll(["pan: scrolled to 40 pt", "pinch: x"]) == ["pan: scrolled to 40 pt", "pinch: x"],
                "a scroll of 40 pt is a scroll of its own")
        #expect(Self.withoutPreludeScroll(["pinch: x", "pan: scrolled to 1 pt"]) == ["pinch: x", "pan: scrolled to 1 pt"],
                "a scroll after the pinch is kept")
    }

    // MARK: a right click

    static let buttonsScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "secondaryClick", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"], "buttonMaskRequired": ["secondary"]},
        {"id": "primaryClick", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]} ],
      "simultaneous": [["secondaryClick", "primaryClick"]] }
    """

    /// The `touches` lines as "phase buttons" (the hover's are none: a click's touch only).
    static func touches(_ lines: [Line]) -> [String] {
        lines.filter { $0.type == "touches" }.map { "\($0.phase) \(($0.object["buttons"] as? [String])?.joined(separator: "+") ?? "primary")" }
    }

    @Test("a real right click through sway (the Saitek R.A.T.5's left, right, left): a tap that requires the secondary button recognizes it, its touches say buttons secondary, as in the built-in replay")
    func rightClick() throws {
        let trace = Compositor.fixture("mouse-saitek-rat5-move-click.evemu")
        let session = try Compositor.session(trace: trace, scene: Self.buttonsScene)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "the Saitek's clicks")
        let builtin = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: Self.buttonsScene, client: "GestureWayland").lines
        #expect(Line.recognized(wayland) == ["primaryClick ended", "secondaryClick ended", "primaryClick ended"],
                "left, right, left: \(Line.recognized(wayland))")
        #expect(Line.recognized(wayland) == Line.recognized(builtin), "through sway \(Line.recognized(wayland)), built-in \(Line.recognized(builtin))")
        #expect(Self.touches(wayland) == Self.touches(builtin), "through sway \(Self.touches(wayland)), built-in \(Self.touches(builtin))")
        #expect(Self.touches(wayland).contains("began secondary"), "the right button's touch says so: \(Self.touches(wayland))")
    }

    // MARK: the seat's name

    /// Everything a connection hands over within `seconds`.
    static func collect(_ connection: WaylandConnection, seconds: Double) throws -> [InputEvent] {
        var events: [InputEvent] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            try connection.dispatch { events.append($0) }
            usleep(20_000)
        }
        return events
    }

    /// A connection of the test process itself to the session's sway, once sway's socket is up
    /// and, with `whenSwayHas`, once sway has an input device of that type (`touch`,
    /// `pointer`, as `swaymsg -t get_inputs` says it): both required conditions.
    static func connect(_ session: Compositor.Session, whenSwayHas inputType: String? = nil) throws -> WaylandConnection {
        let connection = try session.connect()
        if let inputType {
            let seen = session.wait(seconds: 20) { session.swayHasInput(ofType: inputType) }
            try #require(seen, "sway reads the mock \(inputType) device: \(session.swayLog.suffix(1000))")
        }
        return connection
    }

    static func added(_ events: [InputEvent]) -> [InputDeviceInfo] {
        events.compactMap { if case let .deviceAdded(info) = $0 { info } else { nil } }
    }

    @Test("the devices are announced under the seat's name: seat0's at connection, and a seat that appears later (the touchscreen moved to seat1 with swaymsg) names its touchscreen seat1, never the placeholder")
    func deviceNamedAfterSeat() throws {
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"),
                                           hold: true, client: "sleep 30", environment: ["WAYLAND_DEBUG=server"])
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try Self.connect(session, whenSwayHas: "touch")
        defer { connection.disconnect() }
        var events = try Self.collect(connection, seconds: 0.5)
        let first = Self.added(events)
        #expect(connection.seats.map(\.name) == ["seat0"], "sway's seat: \(connection.seats.map(\.name))")
        #expect(first.contains { $0.kind == .touchscreen }, "the touchscreen is announced: \(first.map(\.name))")
        for device in first {
            #expect(device.name.hasPrefix("seat0 "), "named after seat0: \(device.name)")
        }
        #expect(try session.swaymsg(["seat seat1 attach 1386:230:Wacom_ISDv4_E6_Finger"]) == 0, "swaymsg moves the touchscreen to a new seat, seat1")
        events = try Self.collect(connection, seconds: 1)
        let later = Self.added(events)
        #expect(connection.seats.map(\.name).sorted() == ["seat0", "seat1"], "the new seat is bound: \(connection.seats.map(\.name))")
        #expect(later.map(\.name) == ["seat1 wl_touch"], "seat1's touchscreen, announced under its name: \(later.map(\.name))")
        for device in first + later {
            #expect(!device.name.hasPrefix("wl_seat "), "no placeholder name: \(device.name)")
        }
    }

    @Test("a seat KWin nested in sway names late and empty (KWin 5.27 says its capabilities before its name, and the name \"\"): its devices are announced under a name that is never empty (wl_seat and the seat's number)")
    func deviceNamedUnderKWin() throws {
        try #require(Compositor.Nested.kwin.installed, "install kwin-wayland (scripts/install-deps.sh installs it)")
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"), hold: true,
                                           client: "sleep 30", nested: .kwin, environment: ["WAYLAND_DEBUG=server"])
        defer { session.remove() }
        defer { session.stopCompositor() }
        let socket = session.directory + "/run/wayland-k"
        let socketUp = session.wait(seconds: 20) { FileManager.default.fileExists(atPath: socket) }
        try #require(socketUp, "KWin starts: \(session.read("kwin.log").suffix(1000))")
        // KWin has the touchscreen once sway has it.
        let seen = session.wait(seconds: 20) { session.swayHasInput(ofType: "touch") }
        try #require(seen, "sway reads the mock touchscreen: \(session.swayLog.suffix(1000))")
        let connection = try session.connect(socket: socket)
        defer { connection.disconnect() }
        let added = Self.added(try Self.collect(connection, seconds: 1))
        let said = session.read("kwin.log").split(separator: "\n").filter { $0.contains("-> wl_seat@") }.joined(separator: "\n")
        let seat = try #require(connection.seats.first, "KWin's seat")
        #expect(!seat.name.isEmpty, "the seat has a name: KWin said \(said)")
        #expect(added.contains { $0.kind == .touchscreen }, "the touchscreen is announced: \(added.map(\.name))")
        for device in added {
            #expect(device.name.hasPrefix(seat.name + " ") && !device.name.hasPrefix(" "),
                    "\(device.name) is named after its seat (\(seat.name)); KWin said:\n\(said)")
        }
    }

    // MARK: serials

    /// Records the seat's `lastInputSerial` at each touch's beginning, and asks for a window
    /// move from each mouse press, as an app dragging its window by a gesture would.
    final class SerialRecorder: LiveInputClient {
        let engine = GestureEngine()
        let window: WaylandWindow
        let asksMove: Bool
        var serials: [UInt32?] = []
        var moves: [Bool] = []

        init(window: WaylandWindow, asksMove: Bool = true) {
            self.window = window
            self.asksMove = asksMove
            let view = View(id: "surface", frame: Rect(origin: .zero, size: window.size))
            engine.addRoot(view)
            view.onTouches = { [unowned self] _, phase, touches in
                guard phase == .began, let seat = window.connection.seats.first else { return }
                serials.append(seat.lastInputSerial)
                if asksMove, touches.first?.deviceKind == .pointer { moves.append(window.beginInteractiveMove(seat: seat)) }
            }
        }

        func handle(_ event: InputEvent) { engine.handle(event) }
        var nextDeadline: Instant? { engine.nextDeadline }
        func advance(to now: Instant) { engine.advance(to: now) }
        func finish() { engine.finish() }
    }

    /// The serials sway sent this client with each touch down and button press (its
    /// WAYLAND_DEBUG=server lines: `-> wl_touch@25.down(1234, …)`, `-> wl_pointer@24.button(1240, …, 1)`;
    /// newer libwayland, 1.23 in Debian 13, writes an object as `wl_touch#25`).
    static func sentSerials(_ swayLog: String) -> [UInt32] {
        swayLog.split(separator: "\n").compactMap { line -> UInt32? in
            func names(_ interface: String) -> Bool { line.contains(interface + "@") || line.contains(interface + "#") }
            let touch = line.range(of: ".down(").flatMap { names("wl_touch") ? $0 : nil }
            let button = line.range(of: ".button(").flatMap { names("wl_pointer") && line.hasSuffix(", 1)") ? $0 : nil }
            guard let r = touch ?? button else { return nil }
            return UInt32(line[r.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test("the serial of the latest touch down or button press is kept: after a recorded tap and after each click of a double click it is the one sway sent with that press, and a window move asked with it is no protocol error",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "synthetic-mouse-saitek-double-click.evemu"])
    func serialsKept(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let session = try Compositor.start(trace: trace, client: "sleep 30", environment: ["WAYLAND_DEBUG=server"],
                                           readiness: .file)
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try Self.connect(session)
        defer { connection.disconnect() }
        let window = try WaylandWindow(connection: connection, title: "serials", appID: "gesturekit", size: Size(width: 1000, height: 1000))
        defer { window.destroy() }
        try window.settle()
        session.ready()
        let client = SerialRecorder(window: window)
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        let reason = try WaylandInput(connection: connection, window: window, timeLimit: Duration(seconds: length + Compositor.readyToRecording + Compositor.tail)).run(client)
        #expect(reason == .duration, "the run lasts its duration, with no protocol error: \(reason)")
        let sent = Self.sentSerials(session.swayLog)
        let presses = fixture.contains("double-click") ? 2 : 1
        #expect(client.serials.count == presses, "\(presses) presses: \(client.serials)")
        #expect(client.serials.allSatisfy { ($0 ?? 0) != 0 }, "each has a serial: \(client.serials)")
        #expect(client.serials.compactMap { $0 } == sent, "the serials sway sent with the presses: kept \(client.serials), sent \(sent)")
        #expect(Set(client.serials).count == client.serials.count, "a new serial each press: \(client.serials)")
        if presses == 2 { #expect(client.moves == [true, true], "a move asked from each press: \(client.moves)") }
    }

    /// The TrackPoint's first two presses, the second a drag: its first 3.4 s.
    static func trackpointDragTrace() throws -> String {
        let reader = try TraceReader(path: Compositor.fixture("mouse-ibm-trackpoint-click-drag.evemu"))
        let device = try #require(reader.devices.first)
        let description = try #require(device.description)
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: device.id) { events.append($0) }
        let first = try #require(events.first?.time)
        events = events.filter { ($0.time - first).inSeconds < 3.4 }
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-trackpoint-drag.evemu"
        try TraceWriter.evemu(description: description, events: events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `swaymsg -t get_tree`'s rectangle of the window with `appID`.
    static func windowRect(_ session: Compositor.Session, appID: String) throws -> [Double]? {
        guard let data = try session.swaymsgOutput(["-r", "-t", "get_tree"])?.output else { return nil }
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["app_id"] as? String == appID { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { if let found = find(child) { return found } }
            }
            return nil
        }
        guard let tree = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let rect = find(tree)?["rect"] as? [String: NSNumber] else { return nil }
        return ["x", "y", "width", "height"].compactMap { rect[$0]?.doubleValue }
    }

    /// sway moves only a floating window, from a button's serial (its source); while it moves
    /// the window the pointer leaves it (measured: `leave` mid drag, `enter` after).
    @Test("a window move asked from a mouse press (beginInteractiveMove with the press's serial): sway moves the floating window with the TrackPoint's drag; without it the window stays where it was",
          arguments: [true, false])
    func interactiveMove(_ asksMove: Bool) throws {
        let trace = try Self.trackpointDragTrace()
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let appID = "gesturekit-floating"
        let session = try Compositor.start(trace: trace, client: "sleep 30",
                                           swayConfig: "for_window [app_id=\"\(appID)\"] fullscreen disable, floating enable",
                                           environment: ["WAYLAND_DEBUG=server"], readiness: .file)
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try Self.connect(session)
        defer { connection.disconnect() }
        let window = try WaylandWindow(connection: connection, title: "move", appID: appID, size: Size(width: 960, height: 960))
        defer { window.destroy() }
        try connection.roundtrip()
        let before = try #require(try Self.windowRect(session, appID: appID), "the window is in sway's tree")
        #expect(try session.swaymsg(["seat seat0 cursor set 500 500"]) == 0, "the cursor over the window")
        try window.settle()
        session.ready()
        let client = SerialRecorder(window: window, asksMove: asksMove)
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        let reason = try WaylandInput(connection: connection, window: window, timeLimit: Duration(seconds: length + Compositor.readyToRecording + Compositor.tail)).run(client)
        #expect(reason == .duration, "no protocol error: \(reason)")
        #expect(client.serials.count == 2, "two presses: \(client.serials)")
        let after = try #require(try Self.windowRect(session, appID: appID))
        let said = session.swayLog.split(separator: "\n").filter { $0.contains("wl_pointer@") && !$0.contains("motion") && !$0.contains("frame") }
        #expect((before != after) == asksMove, "\(asksMove ? "moved" : "stays"): from \(before) to \(after); serials \(client.serials), moves \(client.moves)\n\(said.joined(separator: "\n"))")
    }

    // MARK: the pointer taken away mid press

    /// The Saitek's left press held 3 s longer, then its right and left clicks: one recording.
    static func heldPressThenClicksTrace() throws -> String {
        let reader = try TraceReader(path: Compositor.fixture("mouse-saitek-rat5-move-click.evemu"))
        let device = try #require(reader.devices.first)
        let description = try #require(device.description)
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: device.id) { events.append($0) }
        // BTN_LEFT (0x110) released: everything from there on comes 3 s later.
        let release = try #require(events.first { $0.type.rawValue == 1 && $0.code.rawValue == 0x110 && $0.value == 0 }?.time)
        events = events.map { e in
            var e = e
            if e.time >= release { e.time = e.time + Duration(seconds: 3) }
            return e
        }
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-held-press.evemu"
        try TraceWriter.evemu(description: description, events: events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let pressScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "press", "kind": "longPress", "view": "root", "allowedTouchTypes": ["indirectPointer"], "allowableMovement": 1000},
        {"id": "secondaryClick", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"], "buttonMaskRequired": ["secondary"]},
        {"id": "primaryClick", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]} ],
      "simultaneous": [["press", "secondaryClick"], ["press", "primaryClick"]] }
    """

    /// sway 1.7 keeps the pointer on the window a button was pressed on until it is released
    /// (its implicit grab) when the window goes to another workspace or the workspace is
    /// switched: no leave mid press (measured: `move container to workspace 2` and `workspace 2`
    /// leave it pressed, the release comes to the window); `move scratchpad` takes the pointer
    /// away at once.
    @Test("the pointer taken from the window while a button is held (sway moves the window to its scratchpad mid long press): the press is cancelled at once, and the later right and left clicks are fresh clicks, as the built-in replay recognizes them")
    func pointerTakenAwayMidPress() throws {
        let trace = try Self.heldPressThenClicksTrace()
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        let seconds = Compositor.readyToRecording + length + Compositor.tail
        let session = try Compositor.start(trace: trace, scene: Self.pressScene, listenSeconds: seconds,
                                           environment: ["WAYLAND_DEBUG=server"])
        defer { session.remove() }
        let began = session.wait(seconds: 20) { session.output.contains(#""recognizer":"press","from":"possible","to":"began""#) }
        try #require(began, "the long press begins: \(session.errors)")
        let start = Date()
        #expect(try session.swaymsg(["move scratchpad"]) == 0, "swaymsg moves the window to the scratchpad")
        let cancelled = session.wait(seconds: 2) { Line.parse(session.output).contains { $0.recognizer == "press" && $0.to == "cancelled" } }
        let afterSeconds = Date().timeIntervalSince(start)
        // The window comes back, full screen under the pointer again, before the recording's
        // release (3 s after the press began).
        #expect(try session.swaymsg(["scratchpad show"]) == 0 && session.swaymsg(["fullscreen enable"]) == 0,
                "swaymsg shows the window again, full screen")
        session.finish(timeout: seconds + 20)
        let lines = CompositorTests.lines(of: session, "the press taken away")
        let leaves = session.swayLog.split(separator: "\n").filter { $0.contains("wl_pointer@") && ($0.contains(".leave(") || $0.contains(".enter(") || $0.contains(".button(")) }
        #expect(cancelled, "the press is cancelled when the pointer leaves (\(String(format: "%.2f", afterSeconds)) s after swaymsg): \(Line.recognized(lines))\nsway sent: \(leaves.joined(separator: "\n"))")
        let builtin = try builtinReplay(trace, scene: Self.pressScene)
        let recognized = Line.recognized(lines)
        #expect(Array(Line.recognized(builtin).suffix(2)) == ["secondaryClick ended", "primaryClick ended"], "the replay: \(Line.recognized(builtin))")
        #expect(recognized == ["press began", "press cancelled", "secondaryClick ended", "primaryClick ended"],
                "through sway: \(recognized)\nsway sent: \(leaves.joined(separator: "\n"))")
    }
}
