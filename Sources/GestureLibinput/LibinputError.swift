#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Errors of the libinput wrapper and its event loop. `description` is a complete,
/// user-facing sentence (no bare errno).
public enum LibinputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Opening an input device node failed with EACCES or EPERM.
    case permissionDenied(path: String, user: String)
    /// The device node does not exist.
    case noSuchDevice(path: String)
    /// Opening the device node failed for another reason.
    case openFailed(path: String, errno: Int32)
    /// libinput opened the node but did not accept it as an input device.
    case deviceRejected(path: String)
    /// `libinput_udev_create_context` or `libinput_path_create_context` failed.
    case contextCreationFailed(backend: String)
    /// `libinput_udev_assign_seat` failed.
    case seatAssignmentFailed(seat: String)
    /// The path backend's operations were used on a udev context.
    case notPathBackend
    /// A system call of the wrapper or its event loop failed.
    case systemCallFailed(call: String, errno: Int32)
    /// Devices were to be opened through the seat (libseat) and no seat could be had.
    case seatUnavailable(reason: String)

    public var description: String {
        switch self {
        case let .permissionDenied(path, user):
            return "Permission denied: user '\(user)' may not read \(path). Input devices "
                + "(/dev/input/eventN) are readable only by root and the 'input' group: add the "
                + "user to it (sudo usermod -aG input \(user), then log out and in again) or run "
                + "as root."
        case let .noSuchDevice(path):
            return "No such input device: \(path) does not exist (list devices with "
                + "'ls /dev/input/event*' or 'libinput list-devices')."
        case let .openFailed(path, errno):
            return "Cannot open \(path): \(LibinputError.message(errno))."
        case let .deviceRejected(path):
            return "libinput did not accept \(path) as an input device (not an evdev node, a "
                + "device libinput ignores, or one udev has not initialized)."
        case let .contextCreationFailed(backend):
            return "Cannot create a libinput context (\(backend) backend)."
        case let .seatAssignmentFailed(seat):
            return "Cannot assign libinput to seat '\(seat)' (is udev running and the seat "
                + "name right?)."
        case .notPathBackend:
            return "Devices can be added by path only to a context created with paths."
        case let .systemCallFailed(call, errno):
            return "\(call) failed: \(LibinputError.message(errno))."
        case let .seatUnavailable(reason):
            return "Cannot open devices through the seat: \(reason). Start seatd (and be in its "
                + "group) or log in on the seat (logind), or open devices directly (--seat-access open)."
        }
    }

    /// The error for a failed open of `path` with `errno`.
    public static func openError(path: String, errno code: Int32) -> LibinputError {
        switch code {
        case EACCES, EPERM: .permissionDenied(path: path, user: currentUserName())
        case ENOENT, ENODEV, ENXIO: .noSuchDevice(path: path)
        default: .openFailed(path: path, errno: code)
        }
    }

    static func message(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s) + " (errno \(code))"
    }

    static func currentUserName() -> String {
        let uid = geteuid()
        if let pw = getpwuid(uid), let name = pw.pointee.pw_name {
            return String(cString: name)
        }
        return "uid \(uid)"
    }
}
