import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something the live loop can wait on: a file descriptor that becomes readable when events
/// are waiting, and a way to read them as `InputEvent`s. A libinput context is one, a
/// Wayland connection another; GTK's host (GestureGTK) keeps the same contract on GLib's loop.
///
/// ## The contract
///
/// A source translates: it turns its system's events into the engine's `InputEvent`s, in the
/// order they happened, and does nothing else with them.
///
/// What a source emits:
/// - Times on CLOCK_MONOTONIC (``MonotonicClock``) as the system stamped them (32-bit
///   millisecond stamps through `MillisecondStamps`). An event the source makes up because
///   the system gave it no time (a cancellation, the pointer's enter or leave) is at the last
///   event's time, or now if that is later: one rule, which every source keeps the same way.
/// - A device's `deviceAdded` before its first event, and `deviceRemoved` with no time when it
///   goes: a live removal, which the engine applies at once.
/// - Before a device's `deviceRemoved`, and whenever touches down end without the system
///   saying so (their surface was destroyed, the run ends): their cancel, `cancelled` in a
///   frame, at that made-up time. A touchpad gesture is not the source's to end: the run
///   cancels one whose device goes or whose pointer leaves the window (`leave`, which a
///   source also sends when the surface under the pointer is destroyed), once, right before
///   that event, with its kind, fingers and last scale kept. A gesture the system cancelled
///   itself (libinput's cancelled end, a compositor's) is that one cancel: none is added.
///
/// What a source must not do:
/// - Rebase times. The run does, once (``LiveInputRun``; GTK's host on its own loop): its
///   client sees the first timed event at zero, and a recording of what it saw replays on
///   those times as they are.
/// - Drop, reorder or hold back events, or cancel what is not in progress at the source.
/// - Block in ``dispatch(into:)``.
///
/// How a run stops: a source never ends a run. The run ends on its time limit, a signal,
/// ``LiveInputRun/stop()`` or its end condition, or when ``dispatch(into:)`` throws (a
/// compositor gone), and says why with the one stop reason, ``InputStopReason``. It then has
/// the source cancel what is still in progress (as above: removing its devices, or the
/// touches and gesture GTK's host leaves) and finishes its client.
///
/// The engine has rules of its own for input that does not keep this contract (a recording
/// cut mid-gesture, a removal with touches still down): `GestureEngine.deviceRemoved(_:at:)`
/// cancels what a removed device left down, `finish()` what the end of input left down, and
/// each reports it.
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
