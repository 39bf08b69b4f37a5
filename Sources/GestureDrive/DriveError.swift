/// What went wrong driving an app, naming the part that failed (the compositor, a device, the
/// app) and what it said: the end of its log.
public enum DriveError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A program the session needs is not installed.
    case programMissing(program: String, package: String)
    /// The app's program is not there to run.
    case appNotFound(program: String)
    /// The session was asked for nothing to run.
    case noApp
    /// As root, the compositor runs as an unprivileged user (sway refuses root), and there is none.
    case noUser(name: String)
    case cannotStart(program: String, why: String)
    case cannotWrite(path: String, why: String)
    /// The compositor ended (or never started) before the session was over.
    case compositorExited(status: Int32?, log: String)
    /// The compositor did not open a virtual device.
    case deviceNotOpened(device: String, seconds: Double, log: String)
    /// The app ended before its window was mapped, or while it was driven.
    case appExited(status: Int32, log: String)
    /// No window of the app was mapped in time.
    case windowNotMapped(seconds: Double, appLog: String, compositorLog: String)
    /// A gesture needs a device the session does not have.
    case noDevice(kind: String)
    /// The screenshot could not be taken.
    case screenshotFailed(why: String)
    /// A condition on the screen did not come true in time.
    case screenNeverMatched(what: String, seconds: Double, screenshot: String)
    /// Input went wrong on its way to the device.
    case input(String)
    /// A recording cannot be replayed: malformed (its file and line), or without a touchscreen.
    case badRecording(String)
    /// A picture file cannot be read (not a PNG, damaged, a kind not read).
    case badPicture(path: String, why: String)
    /// There is no kept picture to compare with, and recording one was not allowed.
    case noKeptPicture(path: String)
    /// The screen differs from the kept picture by more than the tolerance (shares of pixels,
    /// 0…1); the screenshot compared is at `actual`.
    case screenDiffers(path: String, difference: Double, tolerance: Double, actual: String, sizes: String?)
    /// The app's accessibility tree could not be read (no AT-SPI reader, no session bus, the
    /// session not started with `accessibility`).
    case accessibility(String)
    /// No accessible element was as asked within `seconds`; `seen` lists what was shown.
    case elementNotFound(what: String, seconds: Double, seen: String)

    public var description: String {
        switch self {
        case let .programMissing(program, package):
            return "\(program) is not installed: drive needs it (apt-get install \(package); scripts/install-deps.sh drive installs everything)"
        case let .appNotFound(program):
            return "the app \(program) was not found (not a path to a program, nor a program in PATH)"
        case .noApp:
            return "no app to run: give its command line"
        case let .noUser(name):
            return "sway refuses to run as root, so drive runs it as an unprivileged user, and there is no user '\(name)' (useradd --system \(name), or name another)"
        case let .cannotStart(program, why):
            return "cannot start \(program): \(why)"
        case let .cannotWrite(path, why):
            return "cannot write \(path): \(why)"
        case let .compositorExited(status, log):
            return "the compositor (sway) ended\(status.map { " with status \($0)" } ?? "") before the session was over; its log ends:\n\(log)"
        case let .deviceNotOpened(device, seconds, log):
            return "the compositor did not open the virtual \(device) within \(formatted(seconds)) s (umockdev or sway's libinput refused it); sway's log ends:\n\(log)"
        case let .appExited(status, log):
            return "the app ended with status \(status) before the session was over; its output ends:\n\(log)"
        case let .windowNotMapped(seconds, appLog, compositorLog):
            return "no window of the app was mapped within \(formatted(seconds)) s; the app's output ends:\n\(appLog)\nsway's log ends:\n\(compositorLog)"
        case let .noDevice(kind):
            return "the session has no \(kind): add one to its devices"
        case let .screenshotFailed(why):
            return "the screenshot failed: \(why)"
        case let .screenNeverMatched(what, seconds, screenshot):
            return "the screen never showed \(what) within \(formatted(seconds)) s; the last screenshot is \(screenshot)"
        case let .input(message):
            return message
        case let .badRecording(message):
            return message
        case let .badPicture(path, why):
            return "\(path): \(why)"
        case let .noKeptPicture(path):
            return "there is no kept picture \(path) to compare with (without --no-record, drive records it)"
        case let .screenDiffers(path, difference, tolerance, actual, sizes):
            return "the screen differs from \(path): \(sizes ?? "\(percent(difference)) of its pixels differ"), more than the tolerance of \(percent(tolerance)); the screenshot is \(actual)"
        case let .accessibility(message):
            return "the app's accessibility tree: \(message)"
        case let .elementNotFound(what, seconds, seen):
            return "no accessible element \(what) within \(formatted(seconds)) s; shown were: \(seen)"
        }
    }
}

/// A share (0…1) as a percentage people read: "0.42 %", "12.5 %".
func percent(_ share: Double) -> String {
    let p = share * 100
    let r = p >= 10 ? (p * 10).rounded() / 10 : (p * 100).rounded() / 100
    return (r == r.rounded() ? String(Int(r)) : String(r)) + " %"
}

func formatted(_ seconds: Double) -> String {
    let r = (seconds * 1000).rounded() / 1000
    return r == r.rounded() ? String(Int(r)) : String(r)
}
