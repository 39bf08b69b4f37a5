import Foundation
import GestureInput
import GestureKit
import GestureLibinput
import GestureWayland
import CWaylandClient
import CWaylandProtocols
import Testing
import GestureTestSupport

/// GestureWayland used as an app uses it, against sway fed from recordings: the README's
/// sample, and a window destroyed mid-gesture.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct WaylandClientTests {
    @Test("README's desktop sample recognizes a recorded double tap under sway, and stops cleanly when the compositor does")
    func readmeSample() throws {
        let sample = builtProduct("desktop-quickstart")
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
                                           hold: true, client: "sleep 20", readiness: .file)
        defer { session.remove() }
        defer { session.stopCompositor() }
        weak var weakConnection: WaylandConnection?
        weak var weakWindow: WaylandWindow?
        weak var weakInput: WaylandInput?
        weak var weakEngine: GestureEngine?
        try {
            let connection = try session.connect()
            defer { connection.disconnect() }
            let window = try WaylandWindow(connection: connection, title: "test", appID: "gesturekit",
                                           size: Size(width: 1000, height: 1000))
            // The recording starts once the window has its size and the seat is bound.
            try window.settle()
            session.ready()
            let client = DestroyOnLongPress(window: window)
            let input = WaylandInput(connection: connection, window: window, timeLimit: Duration(seconds: Compositor.readyToRecording + 5))
            client.input = input
            let reason = try input.run(client)
            #expect(reason == .stopped, "stopped by the client, not by the 6 s limit")
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
    static let photowall = builtProduct("photowall")

    /// The wall's events of the built-in replay on a 1000 × 1000 wall, without their times.
    static func replayEvents(_ trace: String) throws -> [String] {
        events(try runProcess(photowall, ["--replay", trace, "--screen", "1000x1000"], errors: .inherit).output)
    }

    /// Starts sway on `trace` with PhotoWall in a window as its client (SDL's Wayland video
    /// driver), which runs for `seconds` (its --duration).
    /// PhotoWall full screen under sway, for `seconds` from its start; the recording starts
    /// `Compositor.leadIn` after it. SDL says nothing of when its window can take input: a
    /// ready file after its first frame and a roundtrip was tried, and under sway 1.10 with
    /// SDL 2.32 a tap 0.1 s after it was lost (the window not yet full screen).
    static func startWall(trace: String, seconds: Double) throws -> Compositor.Session {
        try Compositor.start(trace: trace,
                             client: "SDL_VIDEODRIVER=wayland CLIENT_DIR/photowall --duration \(seconds)",
                             copy: [photowall])
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
        let session = try Self.startWall(trace: trace, seconds: seconds)
        defer { session.remove() }
        // After the gesture (the recording lasts under 0.4 s), before the wall stops.
        session.waitForRecording(thenSeconds: 1.5)
        let shot = session.directory + "/photowall-sway.png"
        let grimStatus = try session.grim([shot])
        session.finish(timeout: seconds + 20)
        #expect(session.clientStatus == 0, "photowall exits with status 0 after --duration: \(session.errors)")
        let seen = Self.events(session.output), expected = try Self.replayEvents(trace)
        #expect(!seen.isEmpty, "the wall recognizes the recording: \(session.output) \(session.errors)")
        #expect(seen == expected, "through sway and SDL: \(seen); built-in replay: \(expected)")
        #expect(grimStatus == 0, "grim takes a screenshot of the compositor's output")
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(png.count > 5_000, "of the wall, not of an empty output: \(png.count) bytes")
        if fixture.hasSuffix("e6-tap-1f.evemu") {
            // Examples/PhotoWall/README.md's picture: out/photowall-sway.png (docs/photowall-sway.png is one such).
            try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: packageRoot.path + "/out/photowall-sway.png")
            try? FileManager.default.copyItem(atPath: shot, toPath: packageRoot.path + "/out/photowall-sway.png")
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
        let session = try Self.startWall(trace: trace, seconds: seconds)
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

/// HiDPI: a window drawn at its output's scale, integer and fractional, checked on a
/// screenshot of the compositor's output (grim, as PPM).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct HiDPITests {
    /// A screenshot's pixels (grim -t ppm: P6, width, height, 255, RGB).
    struct Picture {
        let width: Int, height: Int
        let rgb: [UInt8]
        init?(ppm data: Data) {
            let bytes = [UInt8](data)
            var fields: [String] = []
            var i = 0
            while fields.count < 4 && i < bytes.count {
                while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A) { i += 1 }
                var field = ""
                while i < bytes.count && bytes[i] != 0x20 && bytes[i] != 0x0A { field.append(Character(UnicodeScalar(bytes[i]))); i += 1 }
                fields.append(field)
            }
            i += 1
            guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]) else { return nil }
            width = w
            height = h
            rgb = Array(bytes[i...])
        }
        func pixel(_ x: Int, _ y: Int) -> UInt32 {
            let o = (y * width + x) * 3
            return UInt32(rgb[o]) << 16 | UInt32(rgb[o + 1]) << 8 | UInt32(rgb[o + 2])
        }
    }

    /// Starts sway with `outputConfig`, opens a grid window from this process, waits until it
    /// has `expectedScale`, and takes a screenshot.
    static func screenshot(outputConfig: String, expectedScale: Double) throws -> (scale: Double, picture: Picture?, log: String) {
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"), client: "sleep 20",
                                           swayConfig: outputConfig)
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try session.connect()
        defer { connection.disconnect() }
        let window = try WaylandWindow(connection: connection, title: "grid", appID: "gesturekit", size: Size(width: 1000, height: 1000))
        window.gridSpacing = 10
        window.color = 0xFF00_0000
        window.gridColor = 0xFFFF_FFFF
        let deadline = Date().addingTimeInterval(5)
        while window.scale != expectedScale && Date() < deadline {
            try connection.roundtrip()
            usleep(20_000)
        }
        // After the roundtrip sway has applied the buffer at the new scale; grim's screencopy
        // takes the output at its next frame, which draws it.
        try connection.roundtrip()
        let shot = session.directory + "/shot.ppm"
        try session.grim(["-t", "ppm", shot])
        let picture = (try? Data(contentsOf: URL(fileURLWithPath: shot))).flatMap(Picture.init(ppm:))
        // The picture of a window at an output's scale: a corner of it, 120 × 80 pt, at the output's pixels.
        let name = "hidpi-scale\(expectedScale == expectedScale.rounded() ? String(Int(expectedScale)) : String(expectedScale))-sway.png"
        try session.grim(["-g", "0,0 120x80", session.directory + "/" + name])
        try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: packageRoot.path + "/out/" + name)
        try? FileManager.default.copyItem(atPath: session.directory + "/" + name, toPath: packageRoot.path + "/out/" + name)
        let scale = window.scale
        window.destroy()
        return (scale, picture, session.swayLog.suffix(800).description)
    }

    /// The width, in screenshot pixels, of the grid line crossing row `y` near column `x0`, and
    /// whether every pixel of that row's stretch is either the background or the line's colour.
    static func lineWidth(_ picture: Picture, row y: Int, from x0: Int, to x1: Int) -> (width: Int, sharp: Bool) {
        var width = 0, sharp = true
        for x in x0..<x1 {
            let p = picture.pixel(x, y)
            if p == 0xFFFFFF { width += 1 } else if p != 0 { sharp = false }
        }
        return (width, sharp)
    }

    @Test("an output at scale 2: the window draws at 2, and its hairlines are one screen pixel wide and crisp (a window drawn at 1 and scaled by the compositor shows them two pixels wide)")
    func integerScale() throws {
        let (scale, picture, log) = try Self.screenshot(outputConfig: "output HEADLESS-1 mode 2000x2000 scale 2", expectedScale: 2)
        #expect(scale == 2, "the window follows its output's scale: \(scale)")
        let p = try #require(picture, "grim took a screenshot: \(log)")
        #expect(p.width == 2000 && p.height == 2000, "the output is 2000 × 2000 pixels: \(p.width) × \(p.height)")
        // Between two vertical grid lines (every 10 pt = 20 px), along a row between horizontal ones.
        let (width, sharp) = Self.lineWidth(p, row: 25, from: 5, to: 25)
        #expect(width == 1 && sharp, "one crisp pixel per hairline: \(width) px, sharp \(sharp)")
    }

    /// sway 1.8 and later offer the fractional scale; sway 1.7 (Debian 12) does not.
    static let fractionalReason: String? = {
        let version = SeatNineScrollingTests.swayVersion
        guard !version.isEmpty, !version.lexicographicallyPrecedes([1, 8]) else {
            let reason = "sway \(version.map(String.init).joined(separator: ".")) offers no fractional scale (wp_fractional_scale_v1 came with sway 1.8): this runs under Debian 13 (make test-debian13)"
            FileHandle.standardError.write(Data("\n*** SKIPPED: \(reason) ***\n\n".utf8))
            return reason
        }
        return nil
    }()

    @Test("an output at scale 1.5: the window draws at 1.5 through the viewport, its hairlines one crisp screen pixel",
          .enabled(if: HiDPITests.fractionalReason == nil, "\(HiDPITests.fractionalReason ?? "")"))
    func fractionalScale() throws {
        let (scale, picture, log) = try Self.screenshot(outputConfig: "output HEADLESS-1 mode 1500x1500 scale 1.5", expectedScale: 1.5)
        #expect(scale == 1.5, "the window takes the compositor's fractional scale: \(scale)")
        let p = try #require(picture, "grim took a screenshot: \(log)")
        #expect(p.width == 1500 && p.height == 1500, "the output is 1500 × 1500 pixels: \(p.width) × \(p.height)")
        let (width, sharp) = Self.lineWidth(p, row: 20, from: 3, to: 18)
        #expect(width == 1 && sharp, "one crisp pixel per hairline: \(width) px, sharp \(sharp)")
    }
}

/// A toolkit's decorations are surfaces of their own inside the window (libdecor's, GTK's
/// title bar): input over them is the toolkit's (`WaylandConnection.inputSurfaces`).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct DecorationSurfaceTests {
    /// Counts what reaches the engine, and keeps the connection's decoration alive.
    final class Counter: LiveInputClient {
        let engine = GestureEngine()
        var began = 0
        init(size: Size) {
            let view = View(id: "content", frame: Rect(origin: .zero, size: size))
            view.onTouches = { [unowned self] _, phase, _ in if phase == .began { began += 1 } }
            engine.addRoot(view)
        }
        func handle(_ event: InputEvent) { engine.handle(event) }
        var nextDeadline: Instant? { engine.nextDeadline }
        func advance(to now: Instant) { engine.advance(to: now) }
        func finish() { engine.finish() }
    }

    /// Runs the recorded tap (at about (457, 452)) with a subsurface over the window's middle
    /// band (y 300 to 600), reading `onlyContent` ? the window's surface only : every surface.
    static func touchesBegan(onlyContent: Bool) throws -> Int {
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"), client: "sleep 20", readiness: .file)
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try session.connect()
        defer { connection.disconnect() }
        let window = try WaylandWindow(connection: connection, title: "content", appID: "gesturekit", size: Size(width: 1000, height: 1000))
        let decoration = try Decoration(connection: connection, parent: window.surface, frame: Rect(x: 0, y: 300, width: 1000, height: 300))
        defer { decoration.destroy() }
        if onlyContent { connection.inputSurfaces = [window.surface] }
        try window.settle()
        session.ready()
        let client = Counter(size: window.size)
        _ = try WaylandInput(connection: connection, window: window, timeLimit: Duration(seconds: Compositor.readyToRecording + 2)).run(client)
        return client.began
    }

    @Test("a touch that lands on a decoration's surface is the toolkit's: with the window's content surface as the only one read, the recorded tap on the decoration reaches no view; reading every surface, it does")
    func decorations() throws {
        #expect(try Self.touchesBegan(onlyContent: false) == 1, "reading every surface, the tap on the decoration is a touch")
        #expect(try Self.touchesBegan(onlyContent: true) == 0, "reading the content surface only, it is none")
    }
}

/// A subsurface filled with one colour, as a toolkit draws a title bar.
final class Decoration {
    let surface: OpaquePointer
    let subsurface: OpaquePointer
    let buffer: OpaquePointer

    init(connection: WaylandConnection, parent: OpaquePointer, frame: Rect) throws {
        guard let compositor = connection.compositor, let sub = connection.subcompositor, let shm = connection.shm else {
            throw WaylandError.missingGlobal("wl_compositor, wl_subcompositor or wl_shm")
        }
        surface = wl_compositor_create_surface(compositor)
        subsurface = wl_subcompositor_get_subsurface(sub, surface, parent)
        wl_subsurface_set_position(subsurface, Int32(frame.origin.x), Int32(frame.origin.y))
        wl_subsurface_set_desync(subsurface)
        let width = Int(frame.size.width), height = Int(frame.size.height), bytes = width * height * 4
        let fd = gesturekit_memfd("decoration")
        defer { close(fd) }
        guard fd >= 0, ftruncate(fd, off_t(bytes)) == 0, let pool = wl_shm_create_pool(shm, fd, Int32(bytes)),
              let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(width * 4), WL_SHM_FORMAT_XRGB8888.rawValue)
        else { throw WaylandError.systemCallFailed(call: "the decoration's buffer", errno: errno) }
        wl_shm_pool_destroy(pool)
        self.buffer = buffer
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Int32(width), Int32(height))
        wl_surface_commit(surface)
        wl_surface_commit(parent)
        try connection.roundtrip()
    }

    func destroy() {
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
        wl_buffer_destroy(buffer)
    }
}
