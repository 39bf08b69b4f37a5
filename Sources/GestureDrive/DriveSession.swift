import GestureDriveInput
import GestureKit
import GestureMockDevice
import GestureTesting
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An app under test in a compositor of its own, touched through virtual devices: what
/// `gesturekit drive` runs, for a Swift test to use directly.
///
/// The session: a headless sway (no display, no GPU, pixman rendering) whose own libinput
/// reads the virtual devices, which umockdev fakes (GestureMockDevice: no root, no
/// `/dev/uinput`, no hardware); the app started by sway with the session's Wayland display and
/// a D-Bus session bus of its own; its window made full screen on the output. Each gesture is
/// written to the device when it is performed (a `MockDeviceFeed`), as the device's evdev
/// frames at its resolution and report rate, aimed at points of the app's window.
///
/// Readiness is by signal, never a fixed wait: the devices are there when sway's IPC lists
/// them (`get_inputs`), the window when sway's tree shows it visible and drawn at its size
/// (`get_tree`), a gesture has reached the compositor when umockdev-run's write log has its
/// last frame, and a screen shows a result when a screenshot says so (`waitForScreen`).
///
/// sway refuses to run as root: as root, the compositor and the app run as an unprivileged
/// user (`Configuration.user`). Everything they need is in the session's directory, removed
/// at `stop()` unless the session failed or `keepFiles` is set (then its logs and
/// screenshots stay there, and `stop()` says where).
public final class DriveSession {
    public struct Configuration: Sendable {
        /// The app's command line: a program (a path, or a name in PATH) and its arguments.
        public var app: [String]
        /// More environment for the app (it gets the session's Wayland display, and
        /// `GDK_BACKEND=wayland`, `QT_QPA_PLATFORM=wayland`, `SDL_VIDEODRIVER=wayland`).
        public var environment: [String: String]
        /// The output's size in points (sway's headless output, scale 1).
        public var output: Size
        /// The virtual devices (by default a touchscreen covering the output).
        public var devices: [VirtualDevice]
        /// Whether sway makes every window full screen (its window is then the output).
        public var fullscreen: Bool
        /// Who runs the compositor and the app when this process is root (sway refuses root).
        public var user: String
        /// Seconds to wait for the compositor, its devices and the app's window.
        public var startTimeout: Double
        /// Keep the session's directory even when it ends well.
        public var keepFiles: Bool
        /// Keep the session's directory when it failed (its logs and screenshots: a CI job's
        /// artifacts).
        public var keepFilesOnFailure: Bool
        /// Whether the app's accessibility tree can be read (AT-SPI on the app's session bus:
        /// `accessibilityTree()`, steps aimed at an element). Off, the app is told there is no
        /// accessibility bus (`NO_AT_BRIDGE=1`), as a CI machine without one would.
        public var accessibility: Bool
        /// The compositor the app is a client of.
        public var compositor: Compositor

        public init(app: [String], environment: [String: String] = [:], output: Size = Size(width: 1280, height: 800),
                    devices: [VirtualDevice]? = nil, fullscreen: Bool = true, user: String = "gesturekit-test",
                    startTimeout: Double = 60, keepFiles: Bool = false, keepFilesOnFailure: Bool = true,
                    accessibility: Bool = false, compositor: Compositor = .sway) {
            self.app = app
            self.environment = environment
            self.output = output
            self.devices = devices ?? [DriveSession.touchscreen(covering: output)]
            self.fullscreen = fullscreen
            self.user = user
            self.startTimeout = startTimeout
            self.keepFiles = keepFiles
            self.keepFilesOnFailure = keepFilesOnFailure
            self.accessibility = accessibility
            self.compositor = compositor
        }
    }

    /// The compositor whose client the app is.
    public enum Compositor: String, Hashable, Sendable, CaseIterable {
        /// The headless sway itself (wlroots; its libinput reads the devices).
        case sway
        /// KWin (Debian's kwin-wayland) on its Wayland backend, nested in the headless sway,
        /// every window full screen by a window rule: sway's libinput reads the devices and
        /// gives KWin's window their input (touches, pointer, touchpad gestures), which KWin
        /// hands the app as its own compositor does. Its output is sway's size.
        case kwinNested = "kwin"
    }

    /// Points per millimetre of a touchscreen made for an output when none is given: 96 a
    /// inch (a CSS pixel, GTK's and Flutter's logical pixel at scale 1), 3.78 a millimetre.
    public static let defaultPointsPerMillimetre = 96 / 25.4

    /// A touchscreen the output's size at `defaultPointsPerMillimetre` (1280 × 800 points: a
    /// 339 × 212 mm panel, a 15.8-inch 2-in-1's), 20 units a millimetre, ten fingers, 120 Hz.
    public static func touchscreen(covering output: Size) -> VirtualDevice {
        .touchscreen(size: Size(width: output.width / defaultPointsPerMillimetre, height: output.height / defaultPointsPerMillimetre))
    }

    public let configuration: Configuration
    /// The session's files: sway.conf, sway.log, app.log, screenshots.
    public let directory: String
    /// The app's window once `waitForWindow` has seen it.
    public private(set) var window: MappedWindow?
    /// Whether the screen stopped changing after the window was mapped (`waitForSettledScreen`);
    /// false for an app that kept animating.
    public private(set) var settled = false
    /// How long the session took to start, by phase: what each test pays beside the app.
    public struct StartTimes: Hashable, Sendable, CustomStringConvertible {
        /// From the start to sway running with every device open (seconds).
        public var compositorAndDevices = 0.0
        /// From there to the app's window mapped (the app's own start, mostly).
        public var window = 0.0
        /// From there to its screen settled (two screenshots 0.1 s apart alike).
        public var settled = 0.0
        public var total: Double { compositorAndDevices + window + settled }

        public var description: String {
            "\(formatted(total)) s: sway and its devices \(formatted(compositorAndDevices)) s, the app's window \(formatted(window)) s, settled \(formatted(settled)) s"
        }
    }
    /// How long `start` took, by phase.
    public private(set) var startTimes = StartTimes()
    /// How long the last `stop()` took (seconds): the app, the compositor and the files gone.
    public private(set) var stopSeconds: Double?

    private var compositor: Subprocess?
    private var feeds: [MockDeviceFeed] = []
    private var writers: [DeviceInputWriter] = []
    /// Whether something failed (the session's files are then kept).
    var failed = false
    private var stopped = false
    private var screenshots = 0

    /// Starts the compositor with the devices and the app, and waits for the devices to be
    /// open and the app's window to be drawn (`window`).
    public static func start(_ configuration: Configuration) throws -> DriveSession {
        let session = try DriveSession(configuration)
        do {
            var t = monotonic()
            func lap() -> Double {
                let now = monotonic()
                defer { t = now }
                return now - t
            }
            try session.launch()
            try session.waitForDevices()
            session.startTimes.compositorAndDevices = lap()
            _ = try session.waitForWindow()
            if configuration.compositor == .kwinNested {
                // sway's tree shows KWin's window; the app's, inside it, is drawn once KWin's
                // empty output (one colour) shows something else.
                _ = try session.waitForScreen("the app's window inside KWin", timeout: configuration.startTimeout) { shot in
                    shot.count(of: shot.color(at: Point(x: 0, y: 0))) < shot.width * shot.height
                }
            }
            session.startTimes.window = lap()
            session.settled = try session.waitForSettledScreen()
            session.startTimes.settled = lap()
        } catch {
            session.failed = true
            session.stop()
            throw error
        }
        return session
    }

    private init(_ configuration: Configuration) throws {
        guard let program = configuration.app.first, !program.isEmpty else { throw DriveError.noApp }
        guard findProgram(program) != nil else { throw DriveError.appNotFound(program: program) }
        for (program, package) in [("sway", "sway"), ("swaymsg", "sway"), ("grim", "grim"), ("umockdev-run", "umockdev"),
                                   ("dbus-run-session", "dbus-daemon")] where findProgram(program) == nil {
            throw DriveError.programMissing(program: program, package: package)
        }
        if getuid() == 0 {
            guard getpwnam(configuration.user) != nil else { throw DriveError.noUser(name: configuration.user) }
            guard findProgram("setpriv") != nil else { throw DriveError.programMissing(program: "setpriv", package: "util-linux") }
        }
        guard !configuration.devices.isEmpty else { throw DriveError.noDevice(kind: "device at all") }
        if configuration.compositor == .kwinNested && findProgram("kwin_wayland") == nil {
            throw DriveError.programMissing(program: "kwin_wayland", package: "kwin-wayland")
        }
        if configuration.accessibility, let missing = AccessibilityReader.missingPackage() {
            throw DriveError.programMissing(program: missing.program, package: missing.package)
        }
        self.configuration = configuration
        var template = Array("/tmp/gesturekit-drive-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw DriveError.cannotWrite(path: "/tmp", why: String(cString: strerror(errno)))
        }
        directory = dir
    }

    deinit { stop() }

    /// How a program runs as the session's user (setpriv, when this process is root).
    private(set) var launcher: [String] = []

    var runDirectory: String { directory + "/run" }
    private var testbed: String { directory + "/testbed" }

    // MARK: Starting

    /// sway logs at debug level (every libinput event) when `GESTUREKIT_DRIVE_SWAY_DEBUG=1`;
    /// otherwise at info level.
    static var swayDebug: Bool { getenv("GESTUREKIT_DRIVE_SWAY_DEBUG").map { String(cString: $0) == "1" } ?? false }

    private func launch() throws {
        mkdir(runDirectory, 0o700)
        mkdir(testbed, 0o755)
        chmod(directory, 0o755)
        var runner: UmockdevRunner
        do { runner = try UmockdevRunner() } catch { throw DriveError.input("umockdev: \(error)") }
        // The fix library where the session's user can read it.
        guard let library = readBytes(runner.preloadLibrary) else {
            throw DriveError.cannotWrite(path: directory + "/fix.so", why: "cannot read \(runner.preloadLibrary)")
        }
        try writeFile(directory + "/fix.so", library, mode: 0o755)
        runner.preloadLibrary = directory + "/fix.so"

        let mocks = configuration.devices.enumerated().map { i, d in MockDevice(d.description, eventNumber: 10 + i) }
        do { try runner.writeDescriptions(of: mocks, directory: testbed) } catch { throw DriveError.input("\(error)") }
        for (i, mock) in mocks.enumerated() {
            do {
                feeds.append(try MockDeviceFeed(device: mock, scriptPath: UmockdevRunner.scriptPath(device: i, directory: testbed),
                                                writeLogDirectory: testbed))
            } catch { throw DriveError.input("\(error)") }
            writers.append(DeviceInputWriter(device: configuration.devices[i], output: configuration.output))
        }
        try writeTextFile(directory + "/app.sh", appScript())
        try writeTextFile(directory + "/sway.conf", swayConfiguration())

        var home = getenv("HOME").map { String(cString: $0) } ?? directory
        if getuid() == 0, let pw = getpwnam(configuration.user) {
            guard chownTree(directory, uid: pw.pointee.pw_uid, gid: pw.pointee.pw_gid) else {
                throw DriveError.cannotWrite(path: directory, why: "cannot give it to \(configuration.user)")
            }
            home = String(cString: pw.pointee.pw_dir)
            if access(home, W_OK) != 0 { home = directory }
            launcher = ["/usr/bin/setpriv", "--reuid=\(pw.pointee.pw_uid)", "--regid=\(pw.pointee.pw_gid)", "--init-groups", "--"]
        }
        let environment = ["/usr/bin/env", "-u", "WAYLAND_DISPLAY", "-u", "DISPLAY", "-u", "SWAYSOCK", "-u", "DBUS_SESSION_BUS_ADDRESS",
                           "HOME=\(home)", "XDG_RUNTIME_DIR=\(runDirectory)",
                           "WLR_BACKENDS=headless,libinput", "WLR_RENDERER=pixman",
                           "LIBSEAT_BACKEND=builtin", "SEATD_VTBOUND=0"]
        let replays = mocks.map { MockDeviceReplay(device: $0, script: []) }
        let swayPath = findProgram("sway") ?? "sway"
        let command = launcher + environment
            + runner.commandLine(devices: replays, directory: testbed, command: [swayPath, Self.swayDebug ? "-d" : "-V", "-c", directory + "/sway.conf"])
        try writeTextFile(directory + "/command.txt", command.map(shellQuoted).joined(separator: " ") + "\n")
        compositor = try Subprocess.spawn(command, outputPath: directory + "/sway.log")
    }

    /// app.sh, which sway runs: the app with its environment and a session bus, its output in
    /// app.log, the shell's process id in app.pid (sway's exec makes it a process group of
    /// its own, with the app and its bus), its exit status in app.status.
    func appScript() -> String {
        var env = ["GDK_BACKEND": "wayland", "QT_QPA_PLATFORM": "wayland", "SDL_VIDEODRIVER": "wayland",
                   "ELECTRON_OZONE_PLATFORM_HINT": "wayland"]
        if configuration.accessibility {
            // Qt and Chromium export their trees only when asked or when a screen reader is
            // seen.
            env["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
            env["ACCESSIBILITY_ENABLED"] = "1"
        } else {
            env["NO_AT_BRIDGE"] = "1"
            env["GTK_A11Y"] = "none"
        }
        for (k, v) in configuration.environment { env[k] = v }
        let exports = env.sorted { $0.key < $1.key }.map { "export \($0.key)=\(shellQuoted($0.value))" }.joined(separator: "\n")
        // The app's session bus's address, for the accessibility reader (bus.address).
        var kwinApp = ""
        var command = #"/bin/sh -c 'printf %s "$DBUS_SESSION_BUS_ADDRESS" > "$0/bus.address"; shift; exec "$@"' "$D" -- "#
            + configuration.app.map(shellQuoted).joined(separator: " ")
        if configuration.compositor == .kwinNested {
            // KWin on sway's display, the app its session's one client; its window rules
            // (kwinrulesrc) make every window full screen. A copy of kwin_wayland runs: the
            // installed one carries a file capability (cap_sys_resource) a container's bounding
            // set may lack, and then does not start.
            kwinApp = "#!/bin/sh\nD=\(shellQuoted(directory))\nexec \(command)\n"
            let o = configuration.output
            command = #"env HOME="$D" KWIN_COMPOSE=Q XDG_CONFIG_HOME="$D/config" "$D/kwin_wayland" --wayland-display "$WAYLAND_DISPLAY" --socket wayland-k "#
                + "--width \(Int(o.width)) --height \(Int(o.height)) $KWIN_OPTIONS --exit-with-session \"$D/kwin-app.sh\""
        }
        let kwin = configuration.compositor != .kwinNested ? "" : """
        # KWin: its binary copied, its options those this KWin has (KWin 6 dropped
        # --no-kactivities), its window rules.
        cp "$(command -v kwin_wayland)" "$D/kwin_wayland"
        KWIN_OPTIONS=""
        for o in --no-lockscreen --no-global-shortcuts --no-kactivities; do
            "$D/kwin_wayland" --help 2>/dev/null | grep -q -- "$o" && KWIN_OPTIONS="$KWIN_OPTIONS $o"
        done
        mkdir -p "$D/config"
        printf '[General]\\ncount=1\\nrules=1\\n\\n[1]\\nDescription=every window full screen\\nfullscreen=true\\nfullscreenrule=2\\n' > "$D/config/kwinrulesrc"
        cat > "$D/kwin-app.sh" <<'GESTUREKIT_KWIN_APP'
        \(kwinApp)GESTUREKIT_KWIN_APP
        chmod +x "$D/kwin-app.sh"

        """
        return """
        # The app under test, started by sway (outside umockdev's testbed: it reads no device).
        D=\(shellQuoted(directory))
        unset LD_PRELOAD UMOCKDEV_DIR GESTUREKIT_UMOCKDEV_WRITE_LOG
        echo $$ > "$D/app.pid"
        \(kwin)\(exports)
        dbus-run-session -- \(command) > "$D/app.log" 2>&1 &
        wait $!
        echo $? > "$D/app.status"

        """
    }

    /// sway.conf: the headless output at the configured size, every window full screen
    /// (when asked), no borders, the app.
    func swayConfiguration() -> String {
        let o = configuration.output
        var lines = ["output HEADLESS-1 mode \(Int(o.width))x\(Int(o.height)) scale 1",
                     "default_border none", "default_floating_border none", "focus_follows_mouse no"]
        if configuration.fullscreen {
            lines += [#"for_window [app_id=".*"] fullscreen enable"#, #"for_window [class=".*"] fullscreen enable"#]
        }
        lines.append("exec /bin/sh \(shellQuoted(directory + "/app.sh"))")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Waiting for readiness

    /// The sway IPC socket, once sway has made it.
    private var swaySocket: String? {
        guard let dir = opendir(runDirectory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("sway-ipc.") && name.hasSuffix(".sock") { return runDirectory + "/" + name }
        }
        return nil
    }

    /// The Wayland display's socket (`wayland-N`), once sway has made it.
    public var waylandDisplay: String? {
        guard let dir = opendir(runDirectory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("wayland-") && !name.hasSuffix(".lock") { return runDirectory + "/" + name }
        }
        return nil
    }

    /// Runs swaymsg with `arguments` on the session's sway; its output, or nil.
    func swaymsg(_ arguments: [String]) -> String? {
        guard let socket = swaySocket, let swaymsg = findProgram("swaymsg") else { return nil }
        let out = directory + "/swaymsg.out"
        guard (try? Subprocess.run([swaymsg, "-s", socket] + arguments, outputPath: out, timeout: 10)) == 0 else { return nil }
        return readTextFile(out)
    }

    /// Throws if the compositor or the app has ended.
    private func checkAlive() throws {
        if compositor?.hasExited() ?? true {
            throw DriveError.compositorExited(status: compositor?.exitCode, log: tail(compositorLog))
        }
        if let status = readTextFile(directory + "/app.status").flatMap({ Int32($0.split(separator: "\n").first ?? "") }) {
            throw DriveError.appExited(status: status, log: tail(appLog))
        }
    }

    private func poll<T>(seconds: Double, _ body: () throws -> T?) throws -> T? {
        let deadline = monotonic() + seconds
        while true {
            try checkAlive()
            if let value = try body() { return value }
            if monotonic() > deadline { return nil }
            usleep(20_000)
        }
    }

    /// Waits until sway has opened every device (`swaymsg -t get_inputs` lists it).
    private func waitForDevices() throws {
        for device in configuration.devices {
            let type = switch device.kind {
            case .touchscreen: "touch"
            case .touchpad: "touchpad"
            case .pen: "tablet_tool"
            case .mouse: "pointer"
            }
            let found = try poll(seconds: configuration.startTimeout) { () -> Bool? in
                guard let json = swaymsg(["-t", "get_inputs", "-r"]), let inputs = try? SwayTree.inputs(in: json) else { return nil }
                return inputs.contains { $0.type == type && $0.name == device.description.name } ? true : nil
            }
            if found == nil {
                throw DriveError.deviceNotOpened(device: "\(device.kind.rawValue) \"\(device.description.name)\"",
                                                 seconds: configuration.startTimeout, log: tail(compositorLog))
            }
        }
    }

    /// Waits until a window of the app is visible at its size (full screen: the output's),
    /// from sway's tree; that window.
    @discardableResult
    public func waitForWindow(timeout: Double? = nil) throws -> MappedWindow {
        let seconds = timeout ?? configuration.startTimeout
        let output = configuration.output
        do {
            let found = try poll(seconds: seconds) { () -> MappedWindow? in
                guard let json = swaymsg(["-t", "get_tree", "-r"]), let windows = try? SwayTree.windows(in: json) else { return nil }
                return windows.first { w in
                    w.isShown && (!configuration.fullscreen || (w.frame.width == output.width && w.frame.height == output.height))
                }
            }
            guard let found else {
                throw DriveError.windowNotMapped(seconds: seconds, appLog: tail(appLog), compositorLog: tail(compositorLog))
            }
            window = found
            return found
        } catch {
            failed = true
            throw error
        }
    }

    /// Seconds `start` waits for the screen to settle after the window is mapped, at most: an
    /// app that animates for longer (a spinner, a blinking caret) is driven anyway.
    public static let settleLimit = 5.0
    /// Seconds between the two screenshots that agree: six frames at 60 Hz.
    static let settleInterval = 0.1

    /// Waits until two screenshots `settleInterval` apart agree: sway shows a window as mapped
    /// (its tree) before the app has drawn at the size the window was then given (full
    /// screen), and its first touches would land on the old size. Whether it settled within
    /// `settleLimit` seconds.
    public func waitForSettledScreen(limit: Double = settleLimit) throws -> Bool {
        let deadline = monotonic() + limit
        var last = try screenshot()
        while monotonic() < deadline {
            usleep(useconds_t(Self.settleInterval * 1_000_000))
            let next = try screenshot()
            if next == last { return true }
            last = next
        }
        return false
    }

    // MARK: Input

    /// Performs the gestures `body` makes on a `GestureTester` whose screen is the app's
    /// window (its points are the window's), with the device of `kind`, and returns when the
    /// compositor has been sent their last frame. The tester's defaults are the device's: its
    /// report rate, and (for a touchscreen) its size.
    public func perform(with kind: VirtualDevice.Kind = .touchscreen, variation: GestureTester.Variation = .typical,
                        _ body: (GestureTester) throws -> Void) throws {
        do {
            guard let i = configuration.devices.firstIndex(where: { $0.kind == kind }) else {
                throw DriveError.noDevice(kind: kind.rawValue)
            }
            let window = try self.window ?? waitForWindow()
            let events = try writers[i].gestures(in: window.frame, variation: variation, body)
            try play(events, device: i)
        } catch {
            failed = true
            throw error
        }
    }

    /// Plays touchpad reports (`TouchpadGestures`) on the session's touchpad.
    public func performOnTouchpad(_ frames: [PadFrame]) throws {
        do {
            guard let i = configuration.devices.firstIndex(where: { $0.kind == .touchpad }) else {
                throw DriveError.noDevice(kind: "touchpad")
            }
            try play(try writers[i].touchpadEvents(frames), device: i)
        } catch {
            failed = true
            throw error
        }
    }

    /// Plays the touchscreen recording at `path` (evemu, `libinput record`, libinput
    /// debug-events, or a GestureKit input recording in its window's points) on the session's
    /// touchscreen at its recorded timing, through the same device feed as the gestures, and
    /// returns when the compositor has been sent its last frame. On a touchscreen made from the
    /// same recording (`VirtualDevice.recorded(in:kind:)`) its events are played as recorded;
    /// on another, its touches are mapped onto the output's points and written by the session's
    /// touchscreen (`ReplayReport.mode` says which). A malformed recording, or one without a
    /// touchscreen, is a `DriveError.badRecording` naming the file (and line).
    @discardableResult
    public func replay(_ path: String) throws -> ReplayReport {
        do {
            guard let i = configuration.devices.firstIndex(where: { $0.kind == .touchscreen }) else {
                throw DriveError.noDevice(kind: "touchscreen")
            }
            let recording = try Self.readRecording(path, output: configuration.output)
            let (events, report) = try writers[i].replay(recording)
            try play(events, device: i)
            return report
        } catch {
            failed = true
            throw error
        }
    }

    /// Reads a recording to replay on an output of `output` points: `DriveError.badRecording`
    /// naming the file and line of what is wrong with it.
    static func readRecording(_ path: String, output: Size) throws -> RecordedTouches {
        do {
            return try RecordedTouches(path: path, output: output)
        } catch let error as RecordedTouches.Failure {
            throw DriveError.badRecording("\(error)")
        } catch let error as DriveError {
            throw error
        } catch {
            throw DriveError.badRecording("\(error)")
        }
    }

    /// Checks that the recording at `path` can be replayed (its file reads to the end and has a
    /// touchscreen that touches), without a session: `DriveError.badRecording` if not.
    public static func checkRecording(_ path: String) throws {
        _ = try readRecording(path, output: Size(width: 1000, height: 1000))
    }

    private func play(_ events: [EvdevEvent], device i: Int) throws {
        try checkAlive()
        do {
            let step = try feeds[i].play(events)
            try feeds[i].waitUntilPlayed(step)
        } catch let error as MockDeviceFeed.Failure {
            try checkAlive()
            throw DriveError.input("\(error)")
        }
    }

    // MARK: Observing

    /// Where the latest screenshot is kept (a failed session keeps it).
    public var latestScreenshotPath: String { directory + "/screenshot.ppm" }

    /// A screenshot of the output (grim), kept in the session's directory as `screenshot.ppm`
    /// until the next.
    public func screenshot() throws -> Screenshot {
        do {
            try checkAlive()
            guard let display = waylandDisplay, let grim = findProgram("grim") else {
                throw DriveError.screenshotFailed(why: "sway has no Wayland display yet")
            }
            screenshots += 1
            let path = latestScreenshotPath
            let status = try Subprocess.run([grim, "-t", "ppm", path],
                                            environment: ["WAYLAND_DISPLAY": display, "XDG_RUNTIME_DIR": runDirectory],
                                            outputPath: directory + "/grim.log", timeout: 20)
            guard status == 0, let bytes = readBytes(path) else {
                throw DriveError.screenshotFailed(why: "grim \(status.map { "ended with status \($0)" } ?? "did not end in 20 s"): \(tail(readTextFile(directory + "/grim.log") ?? ""))")
            }
            return try Screenshot(ppm: bytes)
        } catch {
            failed = true
            throw error
        }
    }

    /// Takes a screenshot into `path` as PNG (grim's own encoder).
    public func saveScreenshot(to path: String) throws {
        guard let display = waylandDisplay, let grim = findProgram("grim") else {
            throw DriveError.screenshotFailed(why: "sway has no Wayland display yet")
        }
        let status = try Subprocess.run([grim, "-t", "png", path],
                                        environment: ["WAYLAND_DISPLAY": display, "XDG_RUNTIME_DIR": runDirectory],
                                        outputPath: directory + "/grim.log", timeout: 20)
        guard status == 0 else {
            throw DriveError.screenshotFailed(why: "grim could not write \(path): \(tail(readTextFile(directory + "/grim.log") ?? ""))")
        }
    }

    /// Takes screenshots until `condition` holds for one (the app has drawn what its input
    /// did), at most `timeout` seconds; that screenshot. `what` names the condition for the
    /// error.
    public func waitForScreen(_ what: String, timeout: Double = 10, until condition: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = monotonic() + timeout
        while true {
            let shot = try screenshot()
            if condition(shot) { return shot }
            if monotonic() > deadline {
                failed = true
                throw DriveError.screenNeverMatched(what: what, seconds: timeout,
                                                    screenshot: latestScreenshotPath)
            }
            usleep(50_000)
        }
    }

    /// What the compositor has logged so far.
    public var compositorLog: String { readTextFile(directory + "/sway.log") ?? "" }
    /// What the app has written so far (standard output and error).
    public var appLog: String { readTextFile(directory + "/app.log") ?? "" }

    // MARK: Ending

    /// Ends the app, then the compositor and its devices, and removes the session's files
    /// (kept when the session failed or `keepFiles` is set: then says where on standard
    /// error). Leaves no process behind. Safe to call more than once.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        let stopStarted = monotonic()
        defer { stopSeconds = monotonic() - stopStarted }
        // A failed session keeps the app's accessibility tree beside its logs.
        if failed && configuration.accessibility && (configuration.keepFilesOnFailure || configuration.keepFiles) {
            if let text = try? readAccessibilityTreeJSON() { try? writeTextFile(directory + "/accessibility.json", text) }
        }
        // The app's process group (app.sh, the bus, the app): sway's exec started it in a
        // session of its own (its first child calls setsid and forks app.sh, so the group is
        // not app.sh's own id: it is read from /proc).
        let shell = readTextFile(directory + "/app.pid").flatMap { pid_t($0.split(separator: "\n").first ?? "") }
        if let shell, shell > 1, let pgid = processGroup(of: shell), pgid > 1 {
            endGroup(pgid)
        }
        for feed in feeds { feed.close() }
        compositor?.end(grace: 3)
        // app.sh writes app.status as it ends: the directory is removed after.
        if let shell, shell > 1 {
            let deadline = monotonic() + 3
            while processGroup(of: shell) != nil && monotonic() < deadline { usleep(20_000) }
        }
        if (failed && configuration.keepFilesOnFailure) || configuration.keepFiles {
            let line = "gesturekit drive: the session's files (sway.log, app.log, screenshots) are kept in \(directory)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        } else {
            removeTree(directory)
        }
    }

    /// SIGTERM to a process group, then SIGKILL to what is left after 2 s.
    private func endGroup(_ pgid: pid_t) {
        guard kill(-pgid, SIGTERM) == 0 else { return }
        let deadline = monotonic() + 2
        while !livingProcesses(inGroup: pgid).isEmpty && monotonic() < deadline { usleep(20_000) }
        kill(-pgid, SIGKILL)
    }
}

// MARK: Files

/// The entries of a directory (no "." or "..").
private func entries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

private func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

private func chownTree(_ path: String, uid: uid_t, gid: gid_t) -> Bool {
    guard lchown(path, uid, gid) == 0 else { return false }
    if isDirectory(path) {
        for name in entries(path) where !chownTree(path + "/" + name, uid: uid, gid: gid) { return false }
    }
    return true
}

private func removeTree(_ path: String) {
    if isDirectory(path) {
        for name in entries(path) { removeTree(path + "/" + name) }
        rmdir(path)
    } else {
        unlink(path)
    }
}
