import Foundation
import GestureInput
import GestureKit
import GestureLibinput
import GestureWayland
import Testing

/// GestureWayland used as an app uses it, against sway fed from recordings: the README's
/// sample, and a window destroyed mid-gesture.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct WaylandClientTests {
    @Test("README's desktop sample recognizes a recorded double tap under sway, and stops cleanly when the compositor does")
    func readmeSample() throws {
        let sample = Compositor.packageRoot + "/.build/debug/desktop-quickstart"
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-double-tap-1f.evemu"),
                                           client: "CLIENT_DIR/desktop-quickstart", copy: [sample])
        defer { session.remove() }
        // The double tap is over 0.3 s after the lead-in; then the compositor stops (its
        // output is buffered until it exits: the time to wait cannot come from it).
        usleep(useconds_t((Compositor.leadIn + 2.5) * 1_000_000))
        session.stopCompositor()
        #expect(session.wait(seconds: 10) { session.clientStatus != nil }, "the sample exits when the compositor stops")
        #expect(session.clientStatus == 0, "exit status 0: \(session.errors)")
        #expect(session.output.contains("zoom\n"), "the double tap zooms: \(session.output) \(session.errors)")
        #expect(session.output.contains("stopped: connectionLost"), "run returns why it stopped: \(session.output)")
    }

    /// Records the long press's states and destroys the window once it has begun.
    final class DestroyOnLongPress: LiveInputClient {
        let engine = GestureEngine()
        var window: WaylandWindow?
        weak var input: WaylandInput?
        var states: [GestureRecognizer.State] = []
        var viewPhases: [TouchPhase] = []
        let press: LongPressGestureRecognizer

        init(window: WaylandWindow) {
            self.window = window
            let view = View(id: "surface", frame: Rect(origin: .zero, size: window.size))
            press = LongPressGestureRecognizer { _ in }
            press.addTarget { [unowned self] r in states.append(r.state) }
            view.addGestureRecognizer(press)
            engine.addRoot(view)
            view.onTouches = { [unowned self] _, phase, _ in viewPhases.append(phase) }
        }

        func handle(_ event: InputEvent) { engine.handle(event) }
        var nextDeadline: Instant? { engine.nextDeadline }
        func advance(to now: Instant) {
            engine.advance(to: now)
            if press.state == .began, let window {
                window.destroy()        // mid-gesture: the finger is still down
                self.window = nil
                input?.stop()
            }
        }
        func finish() { engine.finish() }
    }

    @Test("a window destroyed mid long press: its touch is cancelled and the long press ends cancelled; connection, window, input loop and engine are freed after")
    func windowDestroyedMidGesture() throws {
        let session = try Compositor.start(trace: Compositor.fixture("synthetic-ts-wacom-long-press-drag-1f.evemu"),
                                           hold: true, client: "sleep 20")
        defer { session.remove() }
        defer { session.stopCompositor() }
        let socketUp = session.wait(seconds: 10) { FileManager.default.fileExists(atPath: session.waylandDisplay) }
        try #require(socketUp, "sway starts: \(session.swayLog.suffix(1000))")
        weak var weakConnection: WaylandConnection?
        weak var weakWindow: WaylandWindow?
        weak var weakInput: WaylandInput?
        weak var weakEngine: GestureEngine?
        try {
            let connection = try WaylandConnection(display: session.waylandDisplay)
            defer { connection.disconnect() }
            let window = try WaylandWindow(connection: connection, title: "test", appID: "gesturekit",
                                           size: Size(width: 1000, height: 1000))
            let client = DestroyOnLongPress(window: window)
            let input = WaylandInput(connection: connection, window: window, duration: Compositor.leadIn + 5)
            client.input = input
            let reason = try input.run(client)
            #expect(reason == .stopped, "stopped by the client, not by the 7 s limit")
            #expect(client.states == [.began, .cancelled], "the long press begins, then is cancelled: \(client.states)")
            #expect(client.viewPhases.first == .began && client.viewPhases.last == .cancelled,
                    "the view's touch begins and is cancelled: \(client.viewPhases)")
            (weakConnection, weakWindow, weakInput, weakEngine) = (connection, window, input, client.engine)
        }()
        #expect(weakWindow == nil, "the window is freed")
        #expect(weakInput == nil, "the input loop is freed")
        #expect(weakConnection == nil, "the connection is freed once disconnected")
        #expect(weakEngine == nil, "the engine is freed")
    }
}


/// PhotoWall as a desktop app: in a window under sway, its input from the window (SDL's
/// Wayland video driver), recognized as the built-in replay of the same recording.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct PhotoWallDesktopTests {
    static let photowall = Compositor.packageRoot + "/.build/debug/photowall"

    /// The wall's events of the built-in replay on a 1000 × 1000 wall, without their times.
    static func replayEvents(_ trace: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: photowall)
        process.arguments = ["--replay", trace, "--screen", "1000x1000"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return events(String(decoding: data, as: UTF8.self))
    }

    /// "0.324 s  tap: selected Sunrise 13" → "tap: selected Sunrise 13".
    static func events(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            line.range(of: " s  ").map { String(line[$0.upperBound...]) }
        }
    }

    @Test("PhotoWall in a window under sway: a recorded tap and double tap reach it through SDL's Wayland driver, once each, as in the built-in replay; grim takes its picture",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "ts-wacom-isdv4-e6-double-tap-1f.evemu"])
    func wallInAWindow(_ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let seconds = Compositor.leadIn + 3
        let session = try Compositor.start(trace: trace,
                                           client: "SDL_VIDEODRIVER=wayland CLIENT_DIR/photowall --duration \(seconds)",
                                           copy: [Self.photowall])
        defer { session.remove() }
        // After the gesture (the recording lasts under 0.4 s), before the wall stops.
        usleep(useconds_t((Compositor.leadIn + 1.5) * 1_000_000))
        let shot = session.directory + "/photowall-sway.png"
        let grim = Process()
        grim.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        grim.arguments = ["WAYLAND_DISPLAY=\(session.waylandDisplay)", "XDG_RUNTIME_DIR=\(session.directory)/run",
                          "grim", shot]
        try grim.run()
        grim.waitUntilExit()
        session.finish(timeout: seconds + 20)
        #expect(session.clientStatus == 0, "photowall exits with status 0 after --duration: \(session.errors)")
        let seen = Self.events(session.output), expected = try Self.replayEvents(trace)
        #expect(!seen.isEmpty, "the wall recognizes the recording: \(session.output) \(session.errors)")
        #expect(seen == expected, "through sway and SDL: \(seen); built-in replay: \(expected)")
        #expect(grim.terminationStatus == 0, "grim takes a screenshot of the compositor's output")
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(png.count > 5_000, "of the wall, not of an empty output: \(png.count) bytes")
        if fixture.hasSuffix("e6-tap-1f.evemu") {
            // The README's picture: out/photowall-sway.png (docs/photowall-sway.png is one such).
            try? FileManager.default.createDirectory(atPath: Compositor.packageRoot + "/out", withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: Compositor.packageRoot + "/out/photowall-sway.png")
            try? FileManager.default.copyItem(atPath: shot, toPath: Compositor.packageRoot + "/out/photowall-sway.png")
        }
    }

    /// "1.100 s  scroll: came to rest at 1040 pt" → (1.1, "scroll: came to rest at 1040 pt").
    static func timedEvents(_ output: String) -> [(seconds: Double, text: String)] {
        output.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: " s  "), let t = Double(line[..<r.lowerBound]) else { return nil }
            return (t, String(line[r.upperBound...]))
        }
    }

    @Test("PhotoWall in a window under sway: a one-finger flick scrolls it, and the content moves on after the lift in display-link frames on the real clock, coming to rest where it said at the lift")
    func flingInAWindow() throws {
        let trace = Compositor.fixture("synthetic-ts-wacom-flick-up-1f.evemu")
        let seconds = Compositor.leadIn + 4
        let session = try Compositor.start(trace: trace,
                                           client: "SDL_VIDEODRIVER=wayland CLIENT_DIR/photowall --duration \(seconds)",
                                           copy: [Self.photowall])
        defer { session.remove() }
        session.finish(timeout: seconds + 20)
        let seen = Self.timedEvents(session.output)
        #expect(session.clientStatus == 0, "photowall exits with status 0 after --duration: \(session.errors)")
        #expect(session.output.contains("touches: from the compositor"),
                "under Wayland the wall reads its touches from the compositor, with the compositor's times: \(session.output)")
        // The release velocity comes from the window's event times, and the touchscreen maps
        // onto sway's output as sway maps it; so the content comes to rest where the wall said
        // at the lift it would ("moving on to N pt"): the projection, or the bottom edge.
        #expect(seen.map { $0.text.hasPrefix("pan: let go at") } == [true, false], "\(session.output) \(session.errors)")
        if seen.count == 2, let promised = seen[0].text.range(of: "moving on to ").map({ seen[0].text[$0.upperBound...] }) {
            #expect(seen[1].text == "scroll: came to rest at \(promised)", "\(seen.map(\.text))")
        }
        // Frames ran live: the window was drawn while the content moved on (about 0.9 s at
        // 60 frames a second), not only once the run ended and its last frames were flushed.
        let drew = session.output.split(separator: "\n").first { $0.hasPrefix("drew ") }
        let animated = drew.flatMap { line in
            line.split(separator: " ").dropFirst(3).first.flatMap { Int($0) }
        }
        #expect((animated ?? 0) >= 10, "frames drawn while the content moved on: \(drew.map(String.init) ?? "none")")
    }
}
