import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something the live loop can wait on: a file descriptor that becomes readable when events
/// are waiting, and a way to read them as `InputEvent`s. A libinput context is one, a
/// Wayland connection another.
public protocol InputEventSource: AnyObject {
    var fileDescriptor: Int32 { get }
    /// Reads what is waiting, without blocking, handing each event to `handler` in order.
    func dispatch(into handler: (InputEvent) -> Void) throws
}

/// CLOCK_MONOTONIC, the clock libinput's and the compositors' event times are on.
public enum MonotonicClock {
    public static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(nanoseconds: Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec))
    }
}

/// A system call of the live loop failed.
public enum InputLoopError: Error, CustomStringConvertible, Equatable {
    case systemCallFailed(call: String, errno: Int32)

    public var description: String {
        switch self {
        case let .systemCallFailed(call, code):
            "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
