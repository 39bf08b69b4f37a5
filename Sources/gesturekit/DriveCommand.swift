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
        rotate X,Y DEGREES; swipe X,Y left|right|up|down [FINGERS]; screenshot FILE.png. \
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

    @Argument(parsing: .postTerminator, help: "The app's command line.")
    var app: [String] = []

    func run() throws {
        let out = LineWriter(fd: 1)
        let outputSize = try Drive.size(output, "--output")
        let parsed: [DriveStep]
        do { parsed = try steps.map(DriveStep.init(parsing:)) } catch { throw fail("--step: \(error)") }
        var env: [String: String] = [:]
        for item in environment {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else { throw fail("--env: '\(item)' is not NAME=VALUE") }
            env[String(item[..<eq])] = String(item[item.index(after: eq)...])
        }
        var device: VirtualDevice
        if let deviceFrom {
            do { device = try VirtualDevice.recorded(in: deviceFrom, kind: .touchscreen, reportRate: rate) } catch { throw fail("--device-from: \(error)") }
        } else if let touchscreen {
            device = .touchscreen(size: try Drive.size(touchscreen, "--touchscreen"), unitsPerMillimetre: unitsPerMillimetre, reportRate: rate)
        } else {
            device = DriveSession.touchscreen(covering: outputSize)
            if unitsPerMillimetre != 20 || rate != VirtualDevice.defaultTouchscreenRate {
                let size = device.sizeMillimetres ?? outputSize
                device = .touchscreen(size: size, unitsPerMillimetre: unitsPerMillimetre, reportRate: rate)
            }
        }
        guard unitsPerMillimetre > 0, rate > 0 else { throw fail("--units-per-mm and --rate are above 0") }
        let configuration = DriveSession.Configuration(app: app, environment: env, output: outputSize, devices: [device],
                                                       user: user, startTimeout: timeout, keepFiles: keep)
        let session: DriveSession
        let started = monotonicNow()
        do { session = try DriveSession.start(configuration) } catch { throw fail("\(error)", status: 1) }
        defer { session.stop() }
        out.write("drive: \(device.description.name): \(device.sizeMillimetres.map { "\(Int($0.width.rounded())) × \(Int($0.height.rounded())) mm" } ?? "its recorded size"), \(device.reportRate) Hz")
        out.write("drive: window \(session.window.map(\.description) ?? "?") after \(seconds(monotonicNow() - started)) s")
        out.flush()
        for step in parsed {
            let t = monotonicNow()
            do { try session.perform(step) } catch {
                out.flush()
                throw fail("\(step): \(error)", status: 1)
            }
            out.write("drive: \(step): done in \(seconds(monotonicNow() - t)) s")
            out.flush()
        }
    }

    static func size(_ text: String, _ option: String) throws -> Size {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
            throw fail("\(option): '\(text)' is not WIDTHxHEIGHT (two numbers above 0)")
        }
        return Size(width: w, height: h)
    }

    func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    func seconds(_ s: Double) -> String { String((s * 1000).rounded() / 1000) }
}
