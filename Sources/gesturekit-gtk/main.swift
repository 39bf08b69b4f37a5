import ArgumentParser
import GestureFormat
import GestureGTK
import GestureInput
import GestureKit
import GestureRecording
import GestureLive
import GestureReplay
#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit-gtk`: a scene in a GTK 4 window (a `GtkDrawingArea` of the scene's size, its
/// views drawn with cairo), its input through GestureGTK, what is recognized printed as
/// `gesturekit listen` prints it (the replay contract's lines with --json). The window is how
/// the tests read recordings through GTK under a real compositor.
@main
struct GestureKitGTK: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturekit-gtk",
        abstract: "Recognize gestures in a GTK 4 window (GestureGTK); the same output as gesturekit listen.",
        discussion: """
        Opens a window with the scene's views (WAYLAND_DISPLAY or DISPLAY, as GTK chooses). Stops \
        after --duration seconds, when the window is closed, or at Ctrl-C; touches still down are \
        then cancelled.
        """
    )

    @Option(help: "A scene (JSON) of views and recognizers (default: gesturekit's default scene).")
    var scene: String?

    @Flag(help: "Print one JSON object per line (the replay contract).")
    var json = false

    @Option(help: "Seconds to listen (default: until the window closes or Ctrl-C).")
    var duration: Double?

    @Option(help: "Also write what the scene received from GTK, as it received it, to this GestureKit input recording (docs/RECORDING.md): `gesturekit replay FILE` then gives the same transitions at the same times.")
    var record: String?

    @Flag(help: "With --record: replace a file already at that path (when the recording ends, whole). Without it such a file is refused.")
    var replace = false

    @Flag(name: .customLong("observe-window-drag"), help: .hidden)
    var observeWindowDrag = false

    /// Says on standard error each time more touch sequences are claimed (the tests' check
    /// that every finger is claimed).
    @Flag(name: .customLong("report-claims"), help: .hidden)
    var reportClaims = false

    /// Says on standard error each event GTK delivered, as it arrives: its recording line (its
    /// time on the client's clock, from GDK's event time) and the monotonic time it arrived.
    /// The tests' readiness handshake (the first event seen) and their account of what was
    /// delivered, and when.
    @Flag(name: .customLong("report-events"), help: .hidden)
    var reportEvents = false

    /// Says on standard error each step of the window's drags between apps (GTK's drag
    /// source and drop target: `GTKDragAndDrop`).
    @Flag(name: .customLong("report-drags"), help: .hidden)
    var reportDrags = false

    @Option(name: .customLong("destroy-content-after"), help: .hidden)
    var destroyContentAfter: Double?

    /// Destroys the window's drawing area on the main loop's next turn after this recognizer
    /// begins (the tests' widget that goes mid-gesture, at a moment the gesture fixes).
    @Option(name: .customLong("destroy-content-when-began"), help: .hidden)
    var destroyContentWhenBegan: String?

    @Option(name: .customLong("ready-file"), help: ArgumentHelp(
        "Create this file once the window is drawn at its final size (--ready-size); --duration then counts from it.",
        valueName: "path"))
    var readyFile: String?

    @Option(name: .customLong("ready-size"), help: ArgumentHelp(
        "The window's final size for --ready-file, WIDTHxHEIGHT in points (default: the scene's screen).",
        valueName: "WxH"))
    var readySize: String?

    /// After the run, the window, its input and the session are released and checked gone
    /// through weak references; the result is one line on standard error (the tests' lifetime
    /// check of GestureGTK).
    @Flag(name: .customLong("check-lifetime"), help: .hidden)
    var checkLifetime = false

    func run() throws {
        let scene = try Self.loadScene(self.scene)
        var output = StandardOutput()
        let json = self.json
        weak var weakSession: LiveSession?
        weak var weakWindow: GTKGestureWindow?
        weak var weakEngine: GestureEngine?
        try {
            var began: ((String) -> Void)?
            let session = try LiveSession(scene: scene) { record in
                output.write(json ? record.jsonLine : record.humanLine)
                if case let .state(state) = record, state.to == .began { began?(state.recognizer) }
            }
            let window: GTKGestureWindow
            do {
                // With --record, the recorder sits between GTK and the session.
                var client: any LiveInputClient = try record.map {
                    try GestureRecorder(recordingTo: $0, source: .gtk, screen: scene.screen, replacing: replace, passingTo: session)
                } ?? session
                if reportEvents { client = EventArrivalReport(program: "gesturekit-gtk", passingTo: client) }
                window = try GTKGestureWindow(title: "gesturekit-gtk", size: scene.screen, client: client, engine: session.engine)
            } catch {
                var err = StandardOutput(fd: 2)
                err.write("gesturekit-gtk: \(error)")
                throw ExitCode(1)
            }
            if let destroyContentWhenBegan {
                began = { [unowned window] recognizer in
                    guard recognizer == destroyContentWhenBegan else { return }
                    began = nil
                    window.destroyContent(after: .zero)
                }
            }
            if reportDrags {
                window.dragAndDrop?.log = { message in
                    var err = StandardOutput(fd: 2)
                    err.write("gesturekit-gtk: \(message)")
                }
            }
            if observeWindowDrag {
                window.observeWindowDrag { what in
                    var err = StandardOutput(fd: 2)
                    err.write("gesturekit-gtk: the window's own GtkGestureDrag: \(what)")
                }
            }
            if reportClaims {
                let redraw = window.input.afterInput
                var most = 0
                window.input.afterInput = { [unowned window] in
                    redraw?()
                    let claimed = window.input.claimedSequences
                    guard claimed > most else { return }
                    most = claimed
                    var err = StandardOutput(fd: 2)
                    err.write("gesturekit-gtk: claimed \(claimed) touch sequences")
                }
            }
            // --destroy-content-after counts from the ready file when there is one, as --duration does.
            if let destroyContentAfter, readyFile == nil { window.destroyContent(after: Duration(seconds: destroyContentAfter)) }
            if let readyFile {
                let finalSize = try readySize.map(Self.parseSize) ?? scene.screen
                var announced = false
                let duration = self.duration
                window.onDrawn = { [unowned window] size in
                    guard !announced, size == finalSize else { return }
                    announced = true
                    let fd = open(readyFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    if fd >= 0 { close(fd) }
                    if let duration { window.after(Duration(seconds: duration)) { [weak window] in window?.stopRunning() } }
                    if let destroyContentAfter { window.destroyContent(after: Duration(seconds: destroyContentAfter)) }
                }
                window.run()
            } else {
                window.run(timeLimit: duration.map(Duration.init(seconds:)))
            }
            (weakSession, weakWindow, weakEngine) = (session, window, session.engine)
        }()
        output.flush()
        if checkLifetime {
            let kept = [weakWindow == nil ? nil : "GTKGestureWindow", weakSession == nil ? nil : "LiveSession",
                        weakEngine == nil ? nil : "GestureEngine"].compactMap { $0 }
            var err = StandardOutput(fd: 2)
            err.write("gesturekit-gtk: lifetime: " + (kept.isEmpty ? "everything freed" : "not freed: " + kept.joined(separator: ", ")))
        }
    }

    static func parseSize(_ text: String) throws -> Size {
        let parts = text.split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--ready-size: expected WIDTHxHEIGHT, found \(text)")
        }
        return Size(width: parts[0], height: parts[1])
    }

    static func loadScene(_ path: String?) throws -> Scene {
        guard let path else { return .defaultScene() }
        guard let f = fopen(path, "rb") else { throw ValidationError("\(path): cannot read the scene file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, f), n > 0 { bytes += chunk[..<n] }
        fclose(f)
        do {
            return try Scene.parse(JSONParser.parse(bytes: bytes))
        } catch let e as JSONSyntaxError {
            throw ValidationError("\(path):\(e.line):\(e.column): \(e.message)")
        } catch let e as SceneError {
            throw ValidationError("\(path): \(e)")
        }
    }
}

/// Lines to a file descriptor, flushed at once (a test reads them as they come).
struct StandardOutput {
    var fd: Int32 = 1
    private var buffer: [UInt8] = []

    init(fd: Int32 = 1) { self.fd = fd }

    mutating func write(_ line: String) {
        buffer += Array(line.utf8) + [10]
        flush()
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
