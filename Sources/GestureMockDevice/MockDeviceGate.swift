#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens the gate of gated mock devices (`MockDeviceReplay`'s `gate`): writes the gate's bytes
/// to each device node, from a process in the umockdev testbed (one whose opens of /dev/input
/// umockdev's preload library redirects to the mock). Each node is opened for the write alone
/// and closed again; its reader keeps its own descriptor, and never sees the bytes (umockdev
/// takes them as the script's write operation).
public enum MockDeviceGate {
    public enum Failure: Error, CustomStringConvertible {
        case cannotOpen(path: String, errno: Int32)
        case cannotWrite(path: String, errno: Int32)

        public var description: String {
            switch self {
            case let .cannotOpen(path, errno):
                return "cannot open \(path) to start its recording: \(String(cString: strerror(errno)))"
            case let .cannotWrite(path, errno):
                return "cannot write \(path)'s gate to start its recording: \(String(cString: strerror(errno)))"
            }
        }
    }

    /// The token GestureKit's tools gate their mock recordings on (`listen --open-gate`).
    public static let token = "gesturekit-go"

    /// Writes `token` to every node in `paths`, in order.
    public static func open(_ token: [UInt8], paths: [String]) throws {
        for path in paths {
            let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw Failure.cannotOpen(path: path, errno: errno) }
            defer { close(fd) }
            var offset = 0
            while offset < token.count {
                let n = token[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { usleep(1000); continue }
                    throw Failure.cannotWrite(path: path, errno: errno)
                }
                offset += n
            }
        }
    }
}
