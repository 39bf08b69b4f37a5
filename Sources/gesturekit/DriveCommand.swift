import ArgumentParser
import GestureDrive
import GestureDriveInput
import GestureKit

#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit drive`: an app under a headless sway, touched through a virtual touchscreen.
struct Drive: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run an app under a headless compositor and touch it with real multi-touch.",
        discussion: """
        Starts a headless sway (no display, no GPU) whose own libinput reads a virtual \
        touchscreen that umockdev fakes (no root, no /dev/uinput, no hardware), runs APP in it \
        full screen on a Wayland display of its own with a D-Bus session bus, waits for its \
        window (sway's IPC tree), performs each --step as the touchscreen's evdev frames at its \
        resolution and report rate, aimed at points of the window, and tears it all down. \
        Steps (points in the window's points, or center): tap X,Y; double-tap X,Y; \
        long-press X,Y [SECONDS]; drag X,Y X2,Y2 [SECONDS]; pinch X,Y SCALE [SECONDS]; \
        rotate X,Y DEGREES; swipe X,Y left|right|up|down [FINGERS]; fling X,Y DX,DY [SPEED] [FINGERS]; \
        edge-swipe left|right|top|bottom [DISTANCE]; screenshot FILE.png; \
        replay RECORDING (a touchscreen's evemu, libinput record or debug-events file, or a GestureKit \
        input recording, at its timing: as recorded \
        on a touchscreen made from it by --device-from, mapped onto the output otherwise); \
        compare FILE.png [PERCENT] (the screen against a kept picture, at most PERCENT % of pixels \
        differing, default 1; a mismatch writes FILE.actual.png; a missing FILE is recorded unless \
        --no-record); click, wheel, pen-stroke, touchpad-pinch, touchpad-scroll, touchpad-swipe, \
        touchpad-hold, wait-for, expect-text, expect-gone: docs/DRIVE.md. A name or file with \
        spaces is written in double quotes. \
        As root, sway and the app run as --user (sway refuses root). \
        Example: gesturekit drive --step 'pinch center 2' --step 'screenshot /tmp/zoomed.png' -- eog /tmp/picture.png
        """
    )

    @Option(help: "The output's size in points, WIDTHxHEIGHT.")
    var output = "1280x800"

    @Option(help: "The touchscreen's size in millimetres, WIDTHxHEIGHT (default: the output's at 96 points an inch).")
    var touchscreen: String?

    @Option(name: .customLong("units-per-mm"), help: "The touchscreen's resolution, device units a millimetre.")
    var unitsPerMillimetre = 20

    @Option(help: "The touchscreen's report rate, reports a second.")
    var rate = VirtualDevice.defaultTouchscreenRate

    @Option(name: .customLong("device-from"), help: "Take the touchscreen's description from a recording (evemu or libinput record) instead.")
    var deviceFrom: String?

    @Option(name: .customLong("step"), help: "A step to perform, in order (repeat the option).")
    var steps: [String] = []

    @Option(name: .customLong("env"), help: "NAME=VALUE for the app's environment (repeat the option).")
    var environment: [String] = []

    @Option(help: "Who runs sway and the app when drive runs as root.")
    var user = "gesturekit-test"

    @Option(help: "Seconds to wait for the compositor, the device and the app's window.")
    var timeout = 60.0

    @Flag(help: "Keep the session's files (sway.log, app.log, screenshots) even when it ends well.")
    var keep = false

    @Option(help: "The app's compositor: sway (the headless sway itself) or kwin (KWin nested in it, every window full screen).")
    var compositor: DriveSession.Compositor = .sway

    @Flag(help: "Add a virtual mouse (absolute, as a VM's tablet pointer: it goes where a step says); a click or wheel step adds it by itself.")
    var mouse = false

    @Flag(help: "Add a virtual pen tablet over the output (a screen's pen, 200 units a millimetre, pressure and tilt); a pen-stroke step adds it by itself.")
    var pen = false

    @Flag(help: "Add a virtual touchpad (102 x 71 mm, 32 units a millimetre) beside the touchscreen; a touchpad step adds it by itself.")
    var touchpad = false

    @Flag(help: "Give the app an accessibility bus and read its tree (AT-SPI): kept in the session's files when it fails. Steps aimed at an element (@NAME) or waiting on one turn it on.")
    var accessibility = false

    @Flag(name: .customLong("no-record"), help: "A compare step whose kept picture is missing fails (by default it records the screen there and passes): for CI.")
    var noRecord = false

    @Option(name: .customLong("compare-timeout"), help: "Seconds a compare step waits for the screen to match its kept picture.")
    var compareTimeout = DriveSession.compareTimeout

    @Option(name: .customLong("junit"), help: "Write a JUnit XML report of the run to this file (also when the session fails).")
    var junit: String?

    @Option(name: .customLong("file"), help: ArgumentHelp("A test file: its app, settings and steps, one a line (docs/DRIVE.md, \"Test files\"); the command line's steps follow its own, and an app after -- replaces its app.", valueName: "FILE.drive"))
    var file: String?

    @Argument(parsing: .postTerminator, help: "The app's command line.")
    var app: [String] = []

    func run() throws {
        let run = DriveRun(app: app.isEmpty ? ["(from \(file ?? "no file"))"] : app)
        var thrown: Error?
        do { try drive(run) } catch { thrown = error }
        if let junit {
            do { try run.report.write(to: junit) } catch {
                let message = fail("--junit: \(error)", status: 2)
                if thrown == nil { thrown = message }
            }
        }
        if let thrown { throw thrown }
    }

    /// The session, its steps in order, every line also in `run`'s report.
    private func drive(_ run: DriveRun) throws {
        var outputSize: Size
        var parsed: [DriveStep]
        var names: [String]
        var env: [String: String] = [:]
        var device: VirtualDevice
        var app = self.app
        var script: DriveScript?
        do {
            outputSize = try Drive.size(output, "--output")
            do { parsed = try steps.map(DriveStep.init(parsing:)) } catch { throw DriveRun.Bad("--step: \(error)") }
            names = parsed.enumerated().map { "step \($0.offset + 1): \($0.element)" }
            if let file {
                guard let bytes = readWholeFile(file, limit: 4 << 20) else {
                    throw DriveRun.Bad("--file: cannot read \(file) (missing, unreadable, or over 4 MiB)")
                }
                do { script = try DriveScript(parsing: String(decoding: bytes, as: UTF8.self), file: file) } catch { throw DriveRun.Bad("--file: \(error)") }
                let fromFile = script!.steps
                names = fromFile.map { "\(file):\($0.line): \($0.step)" } + names.map { "--" + $0 }
                parsed = fromFile.map(\.step) + parsed
                if app.isEmpty { app = script!.app ?? [] }
                if let o = script!.output { outputSize = o }
                env = script!.environment
            }
            guard !app.isEmpty else { throw DriveRun.Bad("no app to run: give its command line after --, or an app line in --file") }
            run.report.properties = [("app", app.joined(separator: " "))]
            for item in environment {
                guard let eq = item.firstIndex(of: "="), eq != item.startIndex else { throw DriveRun.Bad("--env: '\(item)' is not NAME=VALUE") }
                env[String(item[..<eq])] = String(item[item.index(after: eq)...])
            }
            guard unitsPerMillimetre > 0, rate > 0 else { throw DriveRun.Bad("--units-per-mm and --rate are above 0") }
            guard compareTimeout >= 0, compareTimeout.isFinite else { throw DriveRun.Bad("--compare-timeout is 0 seconds or more") }
            if let deviceFrom {
                do { device = try VirtualDevice.recorded(in: deviceFrom, kind: .touchscreen, reportRate: rate) } catch { throw DriveRun.Bad("--device-from: \(error)") }
            } else if let touchscreen {
                device = .touchscreen(size: try Drive.size(touchscreen, "--touchscreen"), unitsPerMillimetre: unitsPerMillimetre, reportRate: rate)
            } else {
                device = DriveSession.touchscreen(covering: outputSize)
                if unitsPerMillimetre != 20 || rate != VirtualDevice.defaultTouchscreenRate {
                    let size = device.sizeMillimetres ?? outputSize
                    device = .touchscreen(size: size, unitsPerMillimetre: unitsPerMillimetre, reportRate: rate)
                }
            }
            // Every recording is read before anything starts: a bad one is a bad argument.
            for case let .replay(path) in parsed {
                do { try DriveSession.checkRecording(path) } catch { throw DriveRun.Bad("--step 'replay \(path)': \(error)") }
            }
        } catch let bad as DriveRun.Bad {
            throw run.error("arguments", bad.message, status: 2)
        }
        run.report.properties.append(("device", device.description.name))
        var devices = [device]
        if touchpad || script?.touchpad == true || parsed.contains(where: { $0.device == .touchpad }) { devices.append(.touchpad()) }
        if mouse || parsed.contains(where: { $0.device == .mouse }) { devices.append(.mouse()) }
        if pen || parsed.contains(where: { $0.device == .pen }) {
            let mm = DriveSession.defaultPointsPerMillimetre
            devices.append(.penTablet(size: Size(width: outputSize.width / mm, height: outputSize.height / mm)))
        }
        let configuration = DriveSession.Configuration(app: app, environment: env, output: outputSize, devices: devices,
                                                       user: user, startTimeout: timeout, keepFiles: keep,
                                                       accessibility: accessibility || script?.accessibility == true
                                                           || parsed.contains(where: \.needsAccessibility),
                                                       compositor: script?.compositor ?? compositor)
        let session: DriveSession
        let started = run.now()
        do { session = try DriveSession.start(configuration) } catch {
            let failure = run.failure("start \(app.first ?? "")", seconds: run.now() - started, "\(error)", status: 1)
            run.skip(names, why: "not run: the app did not start")
            throw failure
        }
        run.pass("start \(app.first ?? "")", seconds: run.now() - started)
        run.line("drive: \(device.description.name): \(device.sizeMillimetres.map { "\(Int($0.width.rounded())) × \(Int($0.height.rounded())) mm" } ?? "its recorded size"), \(device.reportRate) Hz")
        run.line("drive: window \(session.window.map(\.description) ?? "?") after \(seconds(run.now() - started)) s")
        run.line("drive: started in \(session.startTimes)")
        defer {
            session.stop()
            if let s = session.stopSeconds { run.line("drive: stopped in \(seconds(s)) s") }
        }
        for (i, step) in parsed.enumerated() {
            let t = run.now()
            let note: String?
            do { note = try session.perform(step, recordMissingPictures: !noRecord, compareTimeout: compareTimeout) } catch {
                let failure = run.failure(names[i], seconds: run.now() - t, "\(step): \(error)", status: 1)
                run.skip(Array(names[(i + 1)...]), why: "not run: step \(i + 1) failed")
                throw failure
            }
            let elapsed = run.now() - t
            run.pass(names[i], seconds: elapsed)
            run.line("drive: \(step): \(note.map { "\($0); " } ?? "")done in \(seconds(elapsed)) s")
        }
    }

    static func size(_ text: String, _ option: String) throws -> Size {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
            throw DriveRun.Bad("\(option): '\(text)' is not WIDTHxHEIGHT (two numbers above 0)")
        }
        return Size(width: w, height: h)
    }

    func seconds(_ s: Double) -> String { String((s * 1000).rounded() / 1000) }
}

/// One run of `gesturekit drive`: its lines on standard output and its JUnit report.
final class DriveRun {
    /// A bad argument (exit status 2).
    struct Bad: Error { var message: String; init(_ message: String) { self.message = message } }

    var report = JUnitReport()
    let out = LineWriter(fd: 1)

    init(app: [String]) {
        report.timestamp = Int(time(nil))
        var name = [CChar](repeating: 0, count: 256)
        if gethostname(&name, name.count - 1) == 0 { report.hostname = String(cString: name) }
        report.properties = [("app", app.joined(separator: " "))]
    }

    func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    func line(_ text: String) {
        out.write(text)
        out.flush()
        report.systemOut.append(text)
    }

    func pass(_ name: String, seconds: Double) {
        report.cases.append(.init(name: name, seconds: seconds, outcome: .passed))
    }

    func skip(_ names: [String], why: String) {
        for name in names { report.cases.append(.init(name: name, seconds: 0, outcome: .skipped(why: why))) }
    }

    /// A case that ran and failed: its message on standard error, and the exit status.
    func failure(_ name: String, seconds: Double, _ message: String, status: Int32) -> ExitCode {
        out.flush()
        report.cases.append(.init(name: name, seconds: seconds, outcome: .failed(message: message)))
        report.systemErr.append("gesturekit: " + message)
        return fail(message, status: status)
    }

    /// A case that could not run (bad arguments).
    func error(_ name: String, _ message: String, status: Int32) -> ExitCode {
        report.cases.append(.init(name: name, seconds: 0, outcome: .error(message: message)))
        report.systemErr.append("gesturekit: " + message)
        return fail(message, status: status)
    }
}

extension DriveSession.Compositor: ExpressibleByArgument {}
