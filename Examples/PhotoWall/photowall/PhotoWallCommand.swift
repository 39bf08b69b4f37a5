import ArgumentParser
import GestureKit
import GestureRecording
import GestureLibinput
import GestureLive
import GestureMockDevice
import GestureTraces
import PhotoWallApp
import PhotoWallRender

#if canImport(Glibc)
import Glibc
#endif

@main
struct PhotoWallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photowall",
        abstract: "A photo wall for touchscreens: GestureKit's collection view, drawn with SDL2.",
        discussion: """
        Live: reads the touchscreens of a udev seat (seat0 unless --seat), or the devices given \
        with --device, through libinput, and shows the wall full screen (--screen WxH for a \
        window; --headless to draw off screen). Reading /dev/input needs permission: be in the \
        `input` group or run as root. Escape, Q or closing the window quits.

        Replay: --replay TRACE plays a recording (evemu, libinput record, libinput \
        debug-events) into the wall on virtual time with the built-in decoder, off screen; \
        --backend libinput plays it through real libinput instead, from a mock device under \
        umockdev, in real time. --frames DIR writes a PNG after every recognized gesture and \
        of the last frame; --frame-at SECONDS adds one at that time of the recording (the \
        content mid-fling: the replay runs the display link's frames on virtual time).

        Gestures: tap selects a tile; double tap zooms it (tap again to close); pinch resizes \
        the tiles; long press picks a tile up and dragging reorders it; one finger scrolls, and a fling \
        moves on, slows down and bounces at the ends; a touch on moving content stops it.
        """,
        version: GestureKitVersion.string
    )

    @Option(help: "Play this recording instead of live input.")
    var replay: String?

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case builtin, libinput
    }

    @Option(help: "With --replay: builtin (the built-in decoder, virtual time; default) or libinput (real libinput on a mock device under umockdev, real time).")
    var backend: Backend = .builtin

    @Option(help: "Write a PNG into this directory after every recognized gesture, and of the last frame.")
    var frames: String?

    @Option(name: .customLong("frame-at"), help: "With --replay: also write a PNG of the wall at this time of the recording, in seconds from its start (repeatable; needs --frames).")
    var frameAt: [Double] = []

    @Option(name: .customLong("device"), help: "Live: an evdev device node, e.g. /dev/input/event4 (repeatable).")
    var devices: [String] = []

    @Option(name: .customLong("open-gate"), help: "Live: once libinput has opened the --device nodes, write TOKEN to each, starting the recordings of mock devices gated on it (what --replay --backend libinput does).")
    var openGate: String?

    @Flag(name: .customLong("until-devices-gone"), help: "Live: stop once every --device has gone (a mock device vanishing at the end of its recording, as --replay --backend libinput plays them); --duration is then only a limit.")
    var untilDevicesGone = false

    @Option(help: "Live (and --replay --backend libinput, whose live wall records): also write what the wall received, as it received it, to this GestureKit input recording (docs/RECORDING.md); `photowall --replay FILE` plays it back to the same end.")
    var record: String?

    @Option(help: "Live: the udev seat to read when no --device is given.")
    var seat = "seat0"

    @Option(help: "The wall's size in points (pixels at scale 1; a window draws at its output's scale), WIDTHxHEIGHT. Default: 1280x800, or full screen for a live window.")
    var screen: String?

    @Flag(help: "Live: draw off screen (no window, no display needed).")
    var headless = false

    enum InputSource: String, ExpressibleByArgument, CaseIterable {
        case window, libinput
    }

    @Option(help: "Live: window (default with a window and no --device: the touches, mouse and wheel the windowing system gives the window, through SDL: a desktop session, Wayland or X11, no root) or libinput (default with --headless or --device: /dev/input, the kiosk case).")
    var input: InputSource?

    @Option(help: "Live: stop after this many seconds (default: at Escape, Q, Ctrl-C or a closed window).")
    var duration: Double?

    @Option(name: .customLong("ready-file"), help: "Live, in a window: create this file once the wall's first frame is presented (a test takes its screenshot, or starts its recording, then); --duration counts from then.")
    var readyFile: String?

    @Option(help: "The touchscreen is mounted rotated: 0, 90, 180 or 270 degrees clockwise (libinput's matrices).")
    var rotate: String?

    @Option(help: "A calibration matrix, six numbers \"a b c d e f\" on normalized coordinates (libinput_device_config_calibration_set_matrix).")
    var calibration: String?

    @Option(help: "The region of the wall the touchscreen covers, WIDTHxHEIGHT+X+Y or X,Y,WIDTH,HEIGHT in points.")
    var region: String?

    /// --rotate, --calibration and --region as a mapping.
    func mapping() throws -> TouchMapping {
        var m = TouchMapping()
        do {
            if let rotate { m.rotation = try TouchMapping.parseRotation(rotate) }
            if let calibration { m.calibration = try TouchMapping.parseMatrix(calibration) }
            if let region { m.region = try TouchMapping.parseRegion(region) }
        } catch let e as TouchMapping.ParseError {
            throw fail(e.description)
        }
        return m
    }

    /// The same options, for a child process.
    var mappingArguments: [String] {
        (rotate.map { ["--rotate", $0] } ?? []) + (calibration.map { ["--calibration", $0] } ?? [])
            + (region.map { ["--region", $0] } ?? [])
    }

    func run() throws {
        let size = try parseScreen()
        if let frames { try makeDirectory(frames) }
        if !frameAt.isEmpty {
            guard replay != nil, backend == .builtin else { throw fail("--frame-at is for --replay on virtual time (the builtin backend)") }
            guard frames != nil else { throw fail("--frame-at needs --frames DIR to write into") }
            guard frameAt.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 1e6 }) else {
                throw fail("--frame-at: expected seconds from the start of the recording, 0 or more")
            }
        }
        if let replay {
            guard devices.isEmpty else { throw fail("--device is for live input; leave it out with --replay") }
            switch backend {
            case .builtin:
                try runReplay(trace: replay, screen: size ?? PhotoWallStyle.defaultScreen)
            case .libinput:
                try runLibinputReplay(trace: replay, screen: size ?? PhotoWallStyle.defaultScreen)
            }
            return
        }
        try runLive(screen: size)
    }

    func parseScreen() throws -> Size? {
        guard let screen else { return nil }
        let parts = screen.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0, parts[0] <= 16384, parts[1] <= 16384 else {
            throw fail("--screen: expected WIDTHxHEIGHT in pixels, e.g. 1280x800, found \"\(screen)\"")
        }
        return Size(width: Double(parts[0]), height: Double(parts[1]))
    }

    // MARK: Replay on virtual time

    func runReplay(trace: String, screen: Size) throws {
        let wall = PhotoWall(screen: screen)
        let canvas = try makeCanvas(width: Int(screen.width), height: Int(screen.height))
        let writer = FrameWriter(directory: frames, canvas: canvas)
        do {
            try PhotoWallReplay.run(path: trace, into: wall, mapping: mapping(),
                                    snapshots: frameAt.map { Instant(seconds: $0) },
                                    onSnapshot: { try writer.snapshot(at: $0, wall: wall) }) { event in
                try writer.record(event, wall: wall)
            }
        } catch let e as TraceError {
            throw fail(e.description)
        }
        try writer.finish(wall: wall)
    }

    // MARK: Replay through real libinput

    /// The pattern of `gesturekit replay --backend libinput`: the recording's devices become
    /// mock evdev devices under umockdev-run, and this program runs again inside it, live and
    /// headless on those devices, until they vanish at the recording's end.
    func runLibinputReplay(trace: String, screen: Size) throws {
        let replays: [MockDeviceReplay]
        let duration: Double
        do {
            (replays, duration) = try LibinputReplay.mockDevices(tracePath: trace, screen: screen, vanishAtEnd: true)
        } catch let e as TraceError {
            throw fail(e.description)
        } catch let e as LibinputReplay.Failure {
            throw fail(e.description)
        }
        let result: UmockdevRunResult
        do {
            let limit = duration + LibinputReplay.lateLimitSeconds
            let runner = try UmockdevRunner(timeout: limit + 30)
            var command = [selfExecutable(), "--headless", "--until-devices-gone", "--duration", String(limit),
                           "--screen", "\(Int(screen.width))x\(Int(screen.height))", "--open-gate", LibinputReplay.gateToken]
            for r in replays { command += ["--device", r.device.devicePath] }
            if let frames { command += ["--frames", frames] }
            // The live wall records what it received from libinput.
            if let record { command += ["--record", record] }
            command += mappingArguments
            result = try runner.run(devices: replays, command: command)
        } catch {
            throw fail("umockdev: \(error)")
        }
        let out = LineWriter(fd: 1)
        for line in result.stdoutLines { out.write(line) }
        out.flush()
        guard result.exitStatus == 0, !result.timedOut else {
            throw fail("the libinput replay failed (exit status \(result.exitStatus.map(String.init) ?? "none")\(result.timedOut ? ", timed out" : "")): \(result.stderr)")
        }
    }

    // MARK: Live

    func runLive(screen: Size?) throws {
        let canvas: Canvas
        if headless {
            let s = screen ?? PhotoWallStyle.defaultScreen
            canvas = try makeCanvas(width: Int(s.width), height: Int(s.height))
        } else {
            do {
                canvas = try Canvas(windowTitle: "PhotoWall", width: Int(screen?.width ?? 1280),
                                    height: Int(screen?.height ?? 800), fullscreen: screen == nil)
            } catch let e as RenderError {
                throw fail("\(e) (no display? use --headless, with --frames DIR to see what happens)")
            }
        }
        if let driver = canvas.videoDriver, driver == "offscreen" || driver == "dummy", getenv("SDL_VIDEODRIVER") == nil {
            let err = LineWriter(fd: 2)
            err.write("photowall: no display found (SDL chose its \(driver) video driver): nothing will be shown; run it in an X11 or Wayland session, or on the console (SDL_VIDEODRIVER=KMSDRM), or use --headless --frames DIR")
            err.flush()
        }
        if canvas.hasWindow {
            // The window's points and the pixels it is drawn at (2 a point on an output at scale 2).
            let scale = canvas.pixelScale == canvas.pixelScale.rounded() ? String(Int(canvas.pixelScale)) : String(canvas.pixelScale)
            let out = LineWriter(fd: 1)
            out.write("window: \(canvas.width) × \(canvas.height) pt, drawn at \(scale) \(canvas.pixelScale == 1 ? "pixel" : "pixels") a point (SDL's \(canvas.windowRenderer ?? "unknown") renderer)")
            out.flush()
        }
        let wall = PhotoWall(screen: Size(width: Double(canvas.width), height: Double(canvas.height)))
        // Animation frames at the display's rate (60 a second when SDL does not know it, or
        // headless): a fling is drawn once per refresh.
        if let rate = canvas.refreshRate { wall.collectionView.frameRate = rate }
        if (input ?? (headless || !devices.isEmpty ? .libinput : .window)) == .window {
            guard !headless else { throw fail("--input window needs a window; leave out --headless") }
            guard devices.isEmpty else { throw fail("--device reads /dev/input; use it with --input libinput") }
            try WindowWall(wall: wall, canvas: canvas, frames: FrameWriter(directory: frames, canvas: canvas), record: record)
                .run(duration: duration, readyFile: readyFile)
            return
        }
        let live = LiveWall(wall: wall, canvas: canvas, frames: FrameWriter(directory: frames, canvas: canvas))
        let source: LibinputListener.Source = devices.isEmpty ? .seat(seat) : .paths(devices)
        do {
            let gate = openGate.map { token in { [devices] in try MockDeviceGate.open(Array(token.utf8), paths: devices) } }
            try live.run(source: source, mapping: mapping(), duration: duration, untilDevicesGone: untilDevicesGone,
                         record: record, devicesOpened: gate)
        } catch let e as LibinputError {
            throw fail(e.description)
        } catch let e as LiveWallFailure {
            throw fail(e.description)
        } catch let e as MockDeviceGate.Failure {
            throw fail(e.description)
        } catch let e as RecordingFileError {
            throw fail("--record: \(e)")
        }
    }

    func makeCanvas(width: Int, height: Int) throws -> Canvas {
        do {
            return try Canvas(width: width, height: height)
        } catch let e as RenderError {
            throw fail(e.description)
        }
    }

    func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw fail("\(path): cannot create the frames directory (\(String(cString: strerror(errno))))")
        }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw fail("\(path): not a directory")
        }
    }
}

/// Stops with a message on standard error and exit status 2 (bad input or environment).
func fail(_ message: String) -> ExitCode {
    let err = LineWriter(fd: 2)
    err.write("photowall: \(message)")
    err.flush()
    return ExitCode(2)
}

/// This program's own path (to run itself under umockdev).
func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
