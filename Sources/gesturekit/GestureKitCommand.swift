import GestureFormat
import ArgumentParser
import GestureInput
import GestureRecording
import GestureKit
import GestureLibinput
import GestureLive
import GestureMockDevice
import GesturePicture
import GestureReplay
import GestureTraces
import GestureWayland

#if canImport(Glibc)
import Glibc
#endif

@main
struct GestureKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturekit",
        abstract: "Replay, inspect and watch touch input through GestureKit's gesture recognizers.",
        version: GestureKitVersion.string,
        subcommands: [Replay.self, Inspect.self, Listen.self, Devices.self, Trim.self, Minimize.self, Diagrams.self, Mockdev.self, Soak.self, Drive.self]
    )
}

/// Writes lines to a file descriptor through a buffer (standard output by default).
final class LineWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes collected before a write(2).
    static let bufferBytes = 64 * 1024

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(LineWriter.bufferBytes)
    }

    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0a)
        if buffer.count >= LineWriter.bufferBytes { flush() }
    }

    /// Writes a replay record's JSON line, formatted straight into the buffer.
    func writeJSON(_ record: ReplayRecord) {
        record.appendJSONLine(to: &buffer)
        if buffer.count >= LineWriter.bufferBytes { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break // a closed pipe: nothing more can be written
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Stops with a message on standard error and exit status 2 (bad input), or `status`. The
/// message may quote a file's text: its control characters are escaped (`printable`).
func fail(_ message: String, status: Int32 = 2) -> ExitCode {
    let err = LineWriter(fd: 2)
    err.write("gesturekit: \(printable(message, keepingLineBreaks: true))")
    err.flush()
    return ExitCode(status)
}

func loadScene(_ path: String?) throws -> Scene {
    guard let path else { return .defaultScene() }
    guard let bytes = readWholeFile(path) else { throw fail("\(path): cannot read the scene file") }
    let json: JSONValue
    do {
        json = try JSONParser.parse(bytes: bytes)
    } catch let e as JSONSyntaxError {
        throw fail("\(path):\(e.line):\(e.column): \(e.message)")
    }
    do {
        return try Scene.parse(json)
    } catch let e as SceneError {
        throw fail("\(path): \(e)")
    }
}

func readWholeFile(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > limit { return nil }
    }
    return ferror(f) == 0 ? bytes : nil
}

func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "wb") else { throw fail("\(path): cannot write (\(String(cString: strerror(errno))))") }
    defer { fclose(f) }
    var t = text
    let ok = t.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
    if !ok { throw fail("\(path): write failed") }
}

/// `--replace`: whether a recording may replace a file already at its path.
struct ReplaceOption: ParsableArguments {
    @Flag(help: "Replace a file already at the path the recording is written to (--record, --output): the new recording is written beside it and renamed over it when it ends, so the path holds the old file or the whole new one. Without it such a file is refused.")
    var replace = false

    /// A recording is never written onto the input it is made from (the same file, through any link).
    func check(recording: String, readingFrom input: String) throws {
        if RecordingFile.same(recording, input) {
            throw RecordingFileError(path: recording, message: "it is the recording being read (\(input)): a recording is never written onto its input")
        }
    }

    /// The writer's error, with the option that would replace the file.
    func explain(_ e: RecordingFileError) -> String {
        e.message.hasPrefix("it already exists") ? "\(e); --replace replaces it" : "\(e)"
    }
}

/// What a recording leaves out (RecordingPrivacy; docs/RECORDING.md, "Before you attach a
/// recording"): for --record and the flight recorder.
struct PrivacyOptions: ParsableArguments {
    @Option(name: .customLong("private-view"), help: "A view of the scene (its id) whose touches are private, such as an on-screen keyboard, a PIN pad or a signature field: they are recorded as --private-touches says (repeatable).")
    var privateViews: [String] = []

    @Option(name: .customLong("private-touches"), help: "How touches on a --private-view are recorded: centred (at the view's centre, held still: a replay sees a touch there for as long as it was down) or dropped (not at all).")
    var privateTouches: RecordingPrivacy.PrivateTouches = .centred

    @Option(help: "Record every position rounded to this many points (a grid), e.g. 20.")
    var coarsen: Double?

    @Flag(name: .customLong("drop-pen-force"), help: "Record no pen force, tilt or height: a touching pen is recorded with force 1, upright.")
    var dropPenForce = false

    @Flag(name: .customLong("devices-by-kind"), help: "Record devices by kind and number (\"touchscreen 1\") instead of their names, with no system name.")
    var devicesByKind = false

    /// The privacy asked for, without its private views (a replay marks them in its scene).
    /// Throws (the tool's failure) for a grid that is not a positive number.
    func withoutViews() throws -> RecordingPrivacy {
        if let coarsen, !(coarsen.isFinite && coarsen > 0) { throw fail("--coarsen: expected a number of points above 0, found \(coarsen)") }
        return RecordingPrivacy(privateTouches: privateTouches, positionGrid: coarsen,
                                keepsPenForceAndTilt: !dropPenForce, namesDevicesByKind: devicesByKind)
    }

    /// The privacy asked for, its private views found among `views` by id. Throws (the tool's
    /// failure) for an id that is not there.
    func privacy(views: [(id: String, view: View)]) throws -> RecordingPrivacy {
        var privacy = try withoutViews()
        for id in privateViews {
            guard let view = views.first(where: { $0.id == id })?.view else {
                throw fail("--private-view: the scene has no view \"\(id)\" (its views: \(views.map(\.id).joined(separator: ", ")))")
            }
            privacy.markPrivate(view)
        }
        return privacy
    }

    /// Checks the options against `scene` before anything runs.
    func check(_ scene: Scene) throws {
        _ = try privacy(views: scene.views.map { ($0.id, View(id: $0.id, frame: $0.frame)) })
    }

    /// The same options, for a child process.
    var arguments: [String] {
        var a = privateViews.flatMap { ["--private-view", $0] }
        if privateTouches != .centred { a += ["--private-touches", privateTouches.rawValue] }
        if let coarsen { a += ["--coarsen", "\(coarsen)"] }
        if dropPenForce { a.append("--drop-pen-force") }
        if devicesByKind { a.append("--devices-by-kind") }
        return a
    }
}
extension RecordingPrivacy.PrivateTouches: ExpressibleByArgument {}

/// How touchscreens land on the screen, overriding the scene's `input` key (TouchMapping).
struct MappingOptions: ParsableArguments {
    @Option(help: "The touchscreen is mounted rotated: 0, 90, 180 or 270 degrees clockwise (libinput's matrices).")
    var rotate: String?

    @Option(help: "A calibration matrix, six numbers \"a b c d e f\" on normalized coordinates (libinput_device_config_calibration_set_matrix; default: the device's LIBINPUT_CALIBRATION_MATRIX).")
    var calibration: String?

    @Option(help: "The region of the screen the touchscreen covers, WIDTHxHEIGHT+X+Y or X,Y,WIDTH,HEIGHT in points (default: the whole screen).")
    var region: String?

    @Flag(name: .customLong("tap"), inversion: .prefixedNo, help: "Touchpads' tap-to-click on (--tap) or off (--no-tap): one-, two- and three-finger taps click the left, right and middle buttons, with double tap and tap-and-drag, as libinput taps (libinput_device_config_tap_set_enabled). Default: the scene's input.touchpadTapping, else libinput's default for the pad (on only for a pad without a left button).")
    var tap: Bool?

    /// The scene's mapping with these options applied.
    func apply(to scene: inout Scene) throws {
        func parse<T>(_ option: String, _ body: () throws -> T) throws -> T {
            do { return try body() } catch let e as TouchMapping.ParseError { throw fail("--\(option): \(e.description)") }
        }
        if let rotate { scene.input.rotation = try parse("rotate") { try TouchMapping.parseRotation(rotate) } }
        if let calibration { scene.input.calibration = try parse("calibration") { try TouchMapping.parseMatrix(calibration) } }
        if let region { scene.input.region = try parse("region") { try TouchMapping.parseRegion(region) } }
        if let tap { scene.input.touchpadTapping = tap }
    }

    /// The same options, for a child process.
    var arguments: [String] {
        var a: [String] = []
        if let rotate { a += ["--rotate", rotate] }
        if let calibration { a += ["--calibration", calibration] }
        if let region { a += ["--region", region] }
        if let tap { a.append(tap ? "--tap" : "--no-tap") }
        return a
    }
}

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded trace through a scene of views and recognizers, on virtual time.",
        discussion: """
        TRACE is an evemu recording, a `libinput record` YAML file or `libinput debug-events` \
        text (detected from the content). Without --scene the default scene is used: one root \
        view with a single tap (requiring the double tap to fail), a double tap, a long press \
        and a pinch. The output contract is REPLAY.md.
        """
    )

    @Argument(help: "The recording to replay.")
    var trace: String

    @Option(help: "A scene (JSON) of views and recognizers.")
    var scene: String?

    @Flag(help: "Print one JSON object per line (the replay contract) instead of a readable log.")
    var json = false

    @Option(help: "Also draw the replay as SVG: touch paths and a timeline of every recognizer and view.")
    var svg: String?

    @Option(name: .customLong("layout-svg"), help: "Also draw the scene's layout as the replay leaves it (cells, headers, footers, the selected and moved items).")
    var layoutSVG: String?

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case builtin, libinput
    }

    @Option(help: "builtin: the built-in decoder, on virtual time (default). libinput: real libinput reads the recording from a mock device under umockdev, in real time.")
    var backend: Backend = .builtin

    @OptionGroup var mapping: MappingOptions

    @Option(help: "Also write what the replay fed the engine as a GestureKit input recording (docs/RECORDING.md): replaying that file prints what this replay prints. With --backend libinput: what the live listener received from libinput. Created readable by you only; a file already there is refused (see --replace), and so is the recording being replayed.")
    var record: String?

    @OptionGroup var replacing: ReplaceOption

    @OptionGroup(title: "What --record leaves out") var privacy: PrivacyOptions

    @Option(name: .customLong("flight-recorder"), help: ArgumentHelp("With --backend libinput: the live listener keeps the last SECONDS of what it received in memory and writes them into --flight-output when it ends (listen --flight-recorder).", valueName: "SECONDS"))
    var flightRecorder: Double?

    @Option(name: .customLong("flight-output"), help: "With --flight-recorder: the directory it writes into (default: the current one).")
    var flightOutput = "."

    @Flag(help: "With --backend libinput: at the end, print on stderr how long the recognizers' actions took from the event that caused them (listen --latency).")
    var latency = false

    @Flag(name: .customLong("touchpad-gestures"), help: "Also print what the touchpad driver decided, before any recognizer sees it: a `gesture` line (hold, pinch, swipe, scroll; its phase and fingers) for each touchpad gesture event and each step of a two-finger scroll, through either backend (REPLAY.md).")
    var touchpadGestures = false

    func run() throws {
        var scene = try loadScene(self.scene)
        try mapping.apply(to: &scene)
        guard !latency || backend == .libinput else { throw fail("--latency times real input: use it with --backend libinput") }
        guard flightRecorder == nil || backend == .libinput else {
            throw fail("--flight-recorder keeps live input: use it with --backend libinput, or gesturekit listen")
        }
        if backend == .libinput {
            try runThroughLibinput(scene: scene)
            return
        }
        try privacy.check(scene)
        let recorder: InputRecordingWriter?
        do {
            recorder = try record.map {
                try replacing.check(recording: $0, readingFrom: trace)
                return try InputRecordingWriter(path: $0, header: InputRecording.Header(source: .replay, screen: scene.screen),
                                                replacing: replacing.replace, privacy: privacy.withoutViews())
            }
        } catch let e as RecordingFileError {
            throw fail("--record: \(replacing.explain(e))")
        }
        var picture = svg.map { _ in ReplayPicture(scene: scene) }
        // One pass over the recording; its output is held back until the end of the file is
        // reached without an error (a malformed trace prints nothing as if recognized).
        let out = HeldOutput()
        let session: ReplaySession
        do {
            session = try TraceReplay.run(path: trace, scene: scene, validateFirst: false, touchpadGestures: touchpadGestures,
                                          observe: picture == nil ? nil : { picture?.observe($0) },
                                          observePointer: picture == nil ? nil : { picture?.observe($0) },
                                          record: recorder, privateViews: privacy.privateViews) { record in
                picture?.observe(record)
                if json { out.writeJSON(record) } else { out.write(record.humanLine) }
            }
            try out.commit(to: 1)
            if let reason = recorder?.stopReason, reason != "closed" { throw fail("--record: \(reason)") }
        } catch let e as TraceError {
            // No partial recording of a trace that could not be read to its end: the file the
            // recorder made goes (a file it was to replace stays as it was).
            recorder?.discard()
            throw fail(e.description)
        } catch let e as GestureConfigurationError {
            throw fail("\(self.scene ?? "scene"): \(e)")
        } catch let e as HeldOutputError {
            throw fail(e.description)
        }
        if let svg, let picture {
            try writeFile(svg, picture.svg(title: "gesturekit replay \(basename(trace))"))
        }
        if let layoutSVG {
            guard let drawing = LayoutPicture.svg(session.live, title: "layout after \(basename(trace))") else {
                throw fail("--layout-svg: the scene has no layout")
            }
            try writeFile(layoutSVG, drawing)
        }
    }
}

extension Replay {
    func runThroughLibinput(scene: Scene) throws {
        guard svg == nil, layoutSVG == nil else {
            throw fail("--svg and --layout-svg are drawn from the built-in decoder's replay; leave them out with --backend libinput")
        }
        var arguments: [String] = []
        if let sceneFile = self.scene { arguments += ["--scene", sceneFile] }
        if json { arguments.append("--json") }
        if latency { arguments.append("--latency") }
        if touchpadGestures { arguments.append("--touchpad-gestures") }
        // The live listener records what its session received from libinput.
        if let record {
            do { try replacing.check(recording: record, readingFrom: trace) } catch let e as RecordingFileError {
                throw fail("--record: \(replacing.explain(e))")
            }
            arguments += ["--record", record]
            if replacing.replace { arguments.append("--replace") }
            arguments += privacy.arguments
        } else if flightRecorder != nil {
            arguments += privacy.arguments
        }
        if let flightRecorder { arguments += ["--flight-recorder", "\(flightRecorder)", "--flight-output", flightOutput] }
        arguments += mapping.arguments
        let lines: [String]
        do {
            lines = try LibinputReplay.run(tracePath: trace, screen: scene.screen, listener: selfExecutable(),
                                           extraArguments: arguments) { errors in
                let err = LineWriter(fd: 2)
                for line in errors.split(separator: "\n") where line.hasPrefix("gesturekit: latency") { err.write(String(line)) }
                err.flush()
            }
        } catch let e as TraceError {
            throw fail(e.description)
        } catch let e as LibinputReplay.Failure {
            throw fail(e.description)
        }
        let out = LineWriter(fd: 1)
        for line in lines { out.write(line) }
        out.flush()
    }
}

/// This program's own path (for running itself as a child).
func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize gestures live from touch devices through libinput; the same output as replay.",
        discussion: """
        Reads the touchscreens and touchpads of a udev seat (seat0 unless --seat), or the \
        devices given with --device. Reading /dev/input needs permission: be in the `input` \
        group (sudo usermod -aG input $USER, then log in again) or run as root. Stops after \
        --duration seconds, or at Ctrl-C.
        """
    )

    @Option(name: .customLong("device"), help: "An evdev device node, e.g. /dev/input/event4 (repeatable).")
    var devices: [String] = []

    @Option(help: "The udev seat to read when no --device is given.")
    var seat = "seat0"

    @Option(help: "A scene (JSON) of views and recognizers.")
    var scene: String?

    @Flag(help: "Print one JSON object per line (the replay contract).")
    var json = false

    @Option(help: "Seconds to listen (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "The screen size in points, WIDTHxHEIGHT (default: the scene's).")
    var screen: String?

    @Flag(help: "Also print libinput's own messages, and with --wayland the data device's steps (drags between apps).")
    var verbose = false

    @Flag(help: "Take input from the Wayland compositor of this desktop session (WAYLAND_DISPLAY) through a small window, instead of from /dev/input: no root, no input group.")
    var wayland = false
    @OptionGroup var mapping: MappingOptions

    @Option(name: .customLong("seat-access"), help: "How devices are opened: auto (through the seat when seatd or a logind session is there, else directly), libseat (through the seat only), open (directly: needs the input group).")
    var seatAccess: DeviceAccess = .automatic

    @Flag(help: "Grab the devices (EVIOCGRAB): a compositor or console below does not also act on the touches.")
    var grab = false

    @Flag(help: "At the end, print on stderr how long the recognizers' actions took from the input event that caused them (its kernel or compositor timestamp), by kind of input (touches, touchpad gestures, pointer, pens, modifier keys) and for deadlines: p50, p99 and max.")
    var latency = false

    @Flag(name: .customLong("touchpad-gestures"), help: "Also print what the touchpad driver decided: a `gesture` line for each touchpad gesture event and each step of a two-finger scroll (REPLAY.md).")
    var touchpadGestures = false

    @Option(name: .customLong("soak-summary"), help: .hidden)
    var soakSummary: String?

    @Option(name: .customLong("open-gate"), help: "Once libinput has opened the --device nodes, write TOKEN to each: starts the recordings of mock devices gated on it (gesturekit mockdev --gate TOKEN).")
    var openGate: String?

    @Flag(name: .customLong("until-devices-gone"), help: "With --device: stop once every device has gone (a mock device vanishing at the end of its recording, as `replay --backend libinput` plays them); --duration is then only a limit.")
    var untilDevicesGone = false

    @Option(help: "Also write what the scene received, as it received it, to this GestureKit input recording (docs/RECORDING.md): `gesturekit replay FILE` then gives the same transitions at the same times. Modifier keys only, never key codes. Created readable by you only; a file already there is refused (see --replace).")
    var record: String?

    @OptionGroup var replacing: ReplaceOption

    @OptionGroup(title: "What --record leaves out") var privacy: PrivacyOptions

    @Option(name: .customLong("flight-recorder"), help: ArgumentHelp("Keep the last SECONDS of what the scene received in memory (a flight recorder, docs/RECORDING.md; about 1.7 MB a minute of busy input): each SIGUSR1 (kill -USR1 PID) writes them into --flight-output as flight-PID-N.input.jsonl, and so does the end of listen.", valueName: "SECONDS"))
    var flightRecorder: Double?

    @Option(name: .customLong("flight-output"), help: "The directory the flight recorder writes into (default: the current one).")
    var flightOutput = "."

    @Option(name: .customLong("ready-file"), help: "With --wayland: create this file once the window has its size after the compositor's configures and the seats are bound, i.e. when input can reach the window (a test starts its recording then). --duration counts from then.")
    var readyFile: String?

    func run() throws {
        if openGate != nil, devices.isEmpty { throw fail("--open-gate writes to the --device nodes: name them") }
        if untilDevicesGone, devices.isEmpty { throw fail("--until-devices-gone waits for the --device nodes to vanish: name them") }
        if readyFile != nil, !wayland { throw fail("--ready-file says when the --wayland window is ready: use it with --wayland") }
        var scene = try loadScene(self.scene)
        try mapping.apply(to: &scene)
        if let screen {
            let parts = screen.split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw fail("--screen: expected WIDTHxHEIGHT, e.g. 1280x800") }
            scene.screen = Size(width: parts[0], height: parts[1])
        }
        if let soakSummary {
            try soak(scene: scene, summaryPath: soakSummary)
            return
        }
        try privacy.check(scene)
        if let flightRecorder, !(flightRecorder.isFinite && flightRecorder > 0) {
            throw fail("--flight-recorder: expected a number of seconds above 0, found \(flightRecorder)")
        }
        let out = LineWriter(fd: 1)
        let meter = latency ? ActionLatency() : nil
        let session = try LiveSession(scene: scene) { record in
            meter?.recorded(record)
            out.write(json ? record.jsonLine : record.humanLine)
            out.flush()
        }
        session.replay.reportsTouchpadGestures = touchpadGestures
        meter?.client = session
        defer {
            if let meter {
                let err = LineWriter(fd: 2)
                for line in meter.report { err.write("gesturekit: \(line)") }
                err.flush()
            }
        }
        if wayland {
            guard devices.isEmpty else { throw fail("--device reads /dev/input; leave it out with --wayland") }
            try listenToWayland(session: session, meter: meter, screen: scene.screen)
            out.flush()
            return
        }
        let recorder: GestureRecorder?
        do {
            let privacy = try self.privacy.privacy(views: session.replay.live.views)
            recorder = try record.map {
                try GestureRecorder(recordingTo: $0, source: .libinput, screen: scene.screen,
                                    replacing: replacing.replace, privacy: privacy, passingTo: meter ?? session)
            }
        } catch let e as RecordingFileError {
            throw fail("--record: \(replacing.explain(e))")
        }
        let source: LibinputListener.Source = devices.isEmpty ? .seat(seat) : .paths(devices)
        do {
            let err = LineWriter(fd: 2)
            func say(_ message: String) {
                err.write("gesturekit: \(printable(message.hasSuffix("\n") ? String(message.dropLast()) : message, keepingLineBreaks: true))")
                err.flush()
            }
            let flight = try flightRecorder(source: .libinput, screen: scene.screen, scale: 1, session: session,
                                            passingTo: recorder ?? meter.map { $0 as any LiveInputClient } ?? session, say: say)
            defer { if let flight { writeFlight(flight, say: say) } }
            let gate = openGate.map { token in { try MockDeviceGate.open(Array(token.utf8), paths: devices) } }
            let reason = try session.listen(source: source, screenSize: scene.screen, access: seatAccess, grab: grab,
                                            timeLimit: duration.map(Duration.init(seconds:)), stopWhenDevicesGone: untilDevicesGone,
                                            through: flight ?? recorder ?? meter,
                                            log: verbose ? { _, message in say("libinput: " + message) } : nil,
                                            notice: { say($0) }, devicesOpened: gate)
            if untilDevicesGone, reason == .duration {
                out.flush()
                throw fail("--until-devices-gone: a device was still there after --duration (\(duration.map { "\($0) s" } ?? "none")): its recording did not play to its end")
            }
        } catch let e as LibinputError {
            throw fail(e.description)
        } catch let e as MockDeviceGate.Failure {
            throw fail(e.description)
        }
        out.flush()
    }
}

extension Listen {
    /// `gesturekit soak`'s child: the devices through a `SoakMonitor`, its report (and what
    /// failed, each line starting "FAILED: ") written to `summaryPath` at the end.
    func soak(scene: Scene, summaryPath: String) throws {
        if wayland {
            try soakThroughWayland(scene: scene, summaryPath: summaryPath)
            return
        }
        let monitor = try SoakMonitor(scene: scene)
        var listener = LibinputListener(source: .paths(devices), screenSize: scene.screen, mapping: scene.input,
                                        timeLimit: duration.map(Duration.init(seconds:)), logPriority: .error)
        listener.access = seatAccess
        let input = LiveInput(listener)
        monitor.origin = { [weak input] in input?.origin }
        do {
            try input.run(monitor)
        } catch let e as LibinputError {
            throw fail(e.description)
        }
        try writeSoakSummary(monitor.summary, to: summaryPath)
    }

    /// `gesturekit soak --through compositor`'s client: a full-screen window on the
    /// compositor's seat through a `SoakMonitor`. The compositor going away ends it with a
    /// failure in the summary.
    func soakThroughWayland(scene: Scene, summaryPath: String) throws {
        let monitor = try SoakMonitor(scene: scene, path: .compositor)
        var lost: String?
        do {
            let connection = try WaylandConnection()
            let window = try WaylandWindow(connection: connection, title: "gesturekit soak",
                                           appID: "gesturekit", size: scene.screen)
            if let readyFile {
                try window.settle()
                try writeFile(readyFile, "ready\n")
            }
            let input = WaylandInput(connection: connection, window: window, timeLimit: duration.map(Duration.init(seconds:)))
            monitor.origin = { [weak input] in input?.origin }
            if case let .connectionLost(message) = try input.run(monitor) { lost = message }
            window.destroy()
            connection.disconnect()
        } catch let e as WaylandError {
            throw fail(e.description)
        }
        var summary = monitor.summary
        if let lost { summary.faults.append("the connection to the compositor was lost: \(lost)") }
        try writeSoakSummary(summary, to: summaryPath)
    }

    /// With --flight-recorder: a flight recorder in front of `client`, writing on SIGUSR1.
    func flightRecorder(source: InputRecording.Source, screen: Size, scale: Double, session: LiveSession,
                        passingTo client: any LiveInputClient, say: @escaping (String) -> Void) throws -> FlightRecorder? {
        guard let seconds = flightRecorder else { return nil }
        let flight = FlightRecorder(keeping: .seconds(seconds), source: source, screen: screen, scale: scale,
                                    privacy: try privacy.privacy(views: session.replay.live.views), passingTo: client)
        flight.writeOnSignal(SIGUSR1, into: flightOutput) { result in
            switch result {
            case let .success(path): say("flight recorder: the last \(fmt1(seconds)) s written to \(path)")
            case let .failure(error): say("flight recorder: \(error)")
            }
        }
        return flight
    }

    /// The flight recorder's last file, when listen ends.
    func writeFlight(_ flight: FlightRecorder, say: (String) -> Void) {
        do {
            say("flight recorder: the last \(fmt1(flightRecorder ?? 0)) s written to \(try flight.write(into: flightOutput))")
        } catch {
            say("flight recorder: \(error)")
        }
    }

    func writeSoakSummary(_ summary: SoakMonitor.Summary, to path: String) throws {
        try writeFile(path, (summary.report + summary.failures.map { "FAILED: \($0)" }).joined(separator: "\n") + "\n")
    }

    /// A window of the scene's size on the session's compositor; its touches, pointer and
    /// touchpad gestures go through the scene until Ctrl-C, --duration, the window's close or
    /// the compositor's end (touches then cancelled, exit status 1 with the reason).
    func listenToWayland(session: LiveSession, meter: ActionLatency?, screen: Size) throws {
        let err = LineWriter(fd: 2)
        func say(_ message: String) {
            err.write("gesturekit: \(message)")
            err.flush()
        }
        let reason: WaylandInput.StopReason
        do {
            let connection = try WaylandConnection()
            // The scene's file in the title tells two listening windows apart (a window rule).
            let title = scene.map { "gesturekit listen: " + ($0.split(separator: "/").last.map(String.init) ?? $0) } ?? "gesturekit listen"
            let window = try WaylandWindow(connection: connection, title: title, appID: "gesturekit", size: screen)
            if window.size != screen {
                say("the compositor made the window \(fmt1(window.size.width))x\(fmt1(window.size.height)), not the scene's \(fmt1(screen.width))x\(fmt1(screen.height)): locations are the window's")
            }
            if let readyFile {
                try window.settle()
                try writeFile(readyFile, "ready\n")
            }
            if connection.seats.isEmpty { say("the compositor has no seat (yet)") }
            // Drags out of the window and other apps' drags into it, through the compositor.
            var dragAndDrop: WaylandDragAndDrop?
            do {
                dragAndDrop = try WaylandDragAndDrop(connection: connection, window: window, engine: session.engine)
                if verbose { dragAndDrop?.log = say }
            } catch let e as WaylandError {
                say("no drag and drop between apps: \(e.description)")
            }
            let input = WaylandInput(connection: connection, window: window, timeLimit: duration.map(Duration.init(seconds:)))
            dragAndDrop?.input = input
            let client: any LiveInputClient = meter ?? session
            do {
                let recorder = try record.map {
                    try GestureRecorder(recordingTo: $0, source: .wayland, screen: window.size, scale: window.scale,
                                        replacing: replacing.replace, privacy: privacy.privacy(views: session.replay.live.views),
                                        passingTo: client)
                }
                let flight = try flightRecorder(source: .wayland, screen: window.size, scale: window.scale, session: session,
                                                passingTo: recorder ?? client, say: say)
                let target: any LiveInputClient = flight ?? recorder ?? client
                reason = try input.run(target)
                if let why = recorder?.stopReason, why != "closed" { say("--record: \(why)") }
                if let flight { writeFlight(flight, say: say) }
            } catch let e as RecordingFileError {
                throw fail("--record: \(replacing.explain(e))")
            }
            withExtendedLifetime(dragAndDrop) {}
            window.destroy()
            connection.disconnect()
        } catch let e as WaylandError {
            throw fail(e.description)
        } catch let e as LibinputError {
            throw fail(e.description)
        }
        if case let .connectionLost(message) = reason {
            say("\(message): touches still down were cancelled; stopping")
            throw ExitCode(1)
        }
    }
}
extension DeviceAccess: ExpressibleByArgument {}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the touch devices libinput sees on a seat, with their kind and size.")

    @Option(help: "The udev seat.")
    var seat = "seat0"

    func run() throws {
        let context: LibinputContext
        do {
            context = try LibinputContext(seat: seat, screenSize: Size(width: 1000, height: 1000))
            _ = try context.dispatch()
        } catch let e as LibinputError {
            throw fail(e.description)
        }
        let out = LineWriter(fd: 1)
        let touch = context.devices.filter { $0.kind != nil }
        for d in touch {
            let size = d.sizeMillimetres.map { " \(fmt1($0.width)) × \(fmt1($0.height)) mm" } ?? ""
            out.write("/dev/input/\(d.systemName)  \(d.kind!.rawValue)\(size)  \(d.name)")
        }
        if touch.isEmpty {
            out.write("no touchscreen or touchpad on \(seat)")
            for failure in context.openFailures { out.write("  \(failure)") }
        }
        out.flush()
    }
}

func fmt1(_ v: Double) -> String { DecimalText.trimmed(v, digits: 1) }

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a recorded trace: devices, kind, axes, size in mm, duration, fingers, event counts.")

    @Argument(help: "The recording to inspect.")
    var trace: String

    func run() throws {
        do {
            let summary = try TraceSummary(path: trace)
            let out = LineWriter(fd: 1)
            out.write(summary.description)
            out.flush()
        } catch let e as TraceError {
            throw fail(e.description)
        }
    }
}

func basename(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}
