import GestureKit
import GestureLibinput
#if canImport(Glibc)
import Glibc
#endif

/// Live input from a Wayland compositor into a `LiveInputClient` (an engine, a `LiveSession`):
/// the counterpart of `LiveInput` for an app in a desktop session, where the compositor owns the
/// devices and hands each window its own input. The connection's fd and the client's next
/// deadline wait in one poll (`InputEventLoop`); times are rebased to the first event, as
/// `LiveInput` does. The run ends on SIGINT/SIGTERM, after `duration`, when the window is
/// asked to close, on `stop()`, or when the compositor goes away; every way out cancels the
/// touches and gestures still in progress and finishes the client, so every recognizer ends
/// in a final state.
public final class WaylandInput {
    public enum StopReason: Hashable, Sendable {
        case duration, signal, stopped, windowClosed
        /// The compositor went away (or broke the protocol): the message says how.
        case connectionLost(String)
    }

    public let connection: WaylandConnection
    /// The window whose close request ends the run, if any.
    public weak var window: WaylandWindow?
    public var duration: Double?
    public private(set) var origin: Instant?
    private var loop: InputEventLoop?
    private var stopRequested = false

    public init(connection: WaylandConnection, window: WaylandWindow? = nil, duration: Double? = nil) {
        self.connection = connection
        self.window = window
        self.duration = duration
    }

    public func stop() {
        stopRequested = true
        loop?.stop()
    }

    private func rebased(_ event: LibinputInputEvent) -> LibinputInputEvent {
        func clock(_ t: Instant) -> Instant {
            if origin == nil { origin = t }
            return Instant(nanoseconds: t.nanoseconds &- origin!.nanoseconds)
        }
        switch event {
        case var .touchFrame(frame):
            frame.time = clock(frame.time)
            return .touchFrame(frame)
        case var .touchpadGesture(gesture):
            gesture.time = clock(gesture.time)
            return .touchpadGesture(gesture)
        case var .pointer(p):
            p.time = clock(p.time)
            return .pointer(p)
        case .deviceAdded, .deviceRemoved:
            return event
        }
    }

    @discardableResult
    public func run(_ client: some LiveInputClient) throws -> StopReason {
        let deliver: (LibinputInputEvent) -> Void = { [unowned self] in client.handle(rebased($0)) }
        let loop = try InputEventLoop(source: connection)
        self.loop = loop
        defer { self.loop = nil }
        if stopRequested { loop.stop() }
        try loop.stopOnSignals([SIGINT, SIGTERM])
        let end = duration.map { MonotonicClock.now().advanced(bySeconds: $0) }
        var reason: StopReason = .stopped
        do {
            let signal = try loop.run(
                onEvent: deliver,
                nextDeadline: { [unowned self] in
                    let clientDeadline = origin.flatMap { origin in
                        client.nextDeadline.map { Instant(nanoseconds: $0.nanoseconds &+ origin.nanoseconds) }
                    }
                    return [end, clientDeadline].compactMap { $0 }.min()
                },
                advance: { [unowned self] now in
                    if let origin { client.advance(to: Instant(nanoseconds: now.nanoseconds &- origin.nanoseconds)) }
                    if let end, now >= end {
                        reason = .duration
                        loop.stop()
                    }
                },
                beforeWait: { [unowned self] in
                    if window?.closeRequested == true {
                        reason = .windowClosed
                        loop.stop()
                    }
                })
            if signal != nil { reason = .signal }
        } catch let error as WaylandError {
            reason = .connectionLost(error.description)
        }
        // Whatever ended the run, what is still in progress is cancelled: touches down,
        // a touchpad gesture.
        connection.cancelAll(into: deliver)
        client.finish()
        return reason
    }
}
