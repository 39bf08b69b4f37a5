import GestureInput
import GestureKit

/// Live input from a Wayland compositor into a `LiveInputClient` (an engine, a `LiveSession`):
/// the counterpart of `LiveInput` for an app in a desktop session, where the compositor owns the
/// devices and hands each window its own input. The connection is a source of the shared live
/// loop (`LiveInputRun`: its fd and the client's next deadline in one poll, times rebased to
/// the first event). The run ends on SIGINT/SIGTERM, after `timeLimit`, when the window is
/// asked to close, on `stop()`, or when the compositor goes away; every way out cancels the
/// touches and gestures still in progress and finishes the client, so every recognizer ends
/// in a final state.
public final class WaylandInput {
    /// Why a run ended: `duration`, `signal`, `stopped`, `windowClosed`, or
    /// `connectionLost` (the compositor went away or broke the protocol: the message says how).
    public typealias StopReason = InputStopReason

    public let connection: WaylandConnection
    /// The window whose close request ends the run, if any.
    public weak var window: WaylandWindow?
    /// How long the run lasts at most; nil: until another way out.
    public var timeLimit: Duration?
    @available(*, deprecated, renamed: "timeLimit", message: "durations are Duration values: use timeLimit (.seconds(s))")
    public var duration: Double? {
        get { timeLimit?.inSeconds }
        set { timeLimit = newValue.map { Duration(seconds: $0) } }
    }
    /// The monotonic time of the first timed event: time zero of the client's clock.
    public var origin: Instant? { run.origin }
    private let run: LiveInputRun

    public init(connection: WaylandConnection, window: WaylandWindow? = nil, timeLimit: Duration? = nil) {
        self.connection = connection
        self.window = window
        self.timeLimit = timeLimit
        run = LiveInputRun(source: connection)
    }

    @available(*, deprecated, renamed: "init(connection:window:timeLimit:)", message: "durations are Duration values: use timeLimit: .seconds(s)")
    public convenience init(connection: WaylandConnection, window: WaylandWindow? = nil, duration: Double?) {
        self.init(connection: connection, window: window, timeLimit: duration.map { Duration(seconds: $0) })
    }

    public func stop() { run.stop() }

    /// Now on the client's clock (which starts now if no event has started it).
    package func clientNow() -> Instant { run.clientNow() }

    @discardableResult
    public func run(_ client: some LiveInputClient) throws -> StopReason {
        run.timeLimit = timeLimit
        var reason: StopReason
        do {
            var closed = false
            let stop = try run.run(client, endWhen: { [weak self] in
                closed = self?.window?.closeRequested == true
                return closed
            })
            reason = stop == .stopped && closed ? .windowClosed : stop
        } catch let error as WaylandError {
            reason = .connectionLost(error.description)
        }
        // Whatever ended the run, what is still in progress is cancelled: touches down,
        // a touchpad gesture.
        connection.cancelAll { run.deliver($0, to: client) }
        client.finish()
        return reason
    }
}
