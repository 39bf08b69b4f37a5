import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One run of live input from any source into a client, shared by every backend (libinput's
/// `LiveInput`, Wayland's `WaylandInput`):
/// - the source's fd and the client's next deadline wait together (`InputEventLoop`: poll and
///   a timerfd, no busy waiting);
/// - times are rebased once, here: the first timed event is zero on the client's clock;
/// - a touchpad gesture the system will never end is cancelled here (`UnfinishedGestures`);
/// - the run ends on SIGINT/SIGTERM, after `timeLimit`, on `stop()`, or when `endWhen` says
///   so after a batch; the caller then cancels what is in progress and finishes the client.
public final class LiveInputRun {
    /// Why a run ended: `duration` (`timeLimit` passed), `signal` (SIGINT or SIGTERM), or
    /// `stopped` (`stop()`, or `endWhen` said so).
    public typealias StopReason = InputStopReason

    public let source: any InputEventSource
    /// How long the run lasts at most; nil: until a signal or `stop()`.
    public var timeLimit: Duration?
    /// Seconds the run lasts; nil: until a signal or `stop()`.
    @available(*, deprecated, renamed: "timeLimit", message: "durations are Duration values: use timeLimit (.seconds(s))")
    public var duration: Double? {
        get { timeLimit?.inSeconds }
        set { timeLimit = newValue.map { Duration(seconds: $0) } }
    }
    /// How often the client's `batchHandled` runs when nothing else happens (a window's own
    /// events need reading); nil: only after input and deadlines.
    public var idleTick: Duration?
    /// The monotonic time of the first timed event: time zero of the client's clock.
    public var origin: Instant? { clock.origin }
    private var clock = ClientClock()
    private var unfinished = UnfinishedGestures()
    private var loop: InputEventLoop?
    private var stopRequested = false

    public init(source: any InputEventSource, timeLimit: Duration? = nil, idleTick: Duration? = nil) {
        self.source = source
        self.timeLimit = timeLimit
        self.idleTick = idleTick
    }

    @available(*, deprecated, renamed: "init(source:timeLimit:idleTick:)", message: "durations are Duration values: use timeLimit: .seconds(s)")
    public convenience init(source: any InputEventSource, duration: Double?, idleTick: Duration? = nil) {
        self.init(source: source, timeLimit: duration.map { Duration(seconds: $0) }, idleTick: idleTick)
    }

    /// Ends the run from inside a client's callback (or before it starts).
    public func stop() {
        stopRequested = true
        loop?.stop()
    }

    /// Now on the client's clock, which starts now if no event has started it (the source
    /// reports a step that is no input event, and the client's time must move with it).
    package func clientNow() -> Instant {
        clock.startingTime(MonotonicClock.now())
    }

    /// `event` on the client's clock. The first event with a time sets the origin.
    package func rebased(_ event: InputEvent) -> InputEvent {
        clock.rebased(event)
    }

    /// Hands `event` to `client`, on the client's clock, after the cancel of a touchpad
    /// gesture it ends (`UnfinishedGestures`).
    package func deliver(_ event: InputEvent, to client: some LiveInputClient) {
        if let cancel = unfinished.cancel(before: event) { client.handle(rebased(cancel)) }
        client.handle(rebased(event))
    }

    /// Runs until a signal, `timeLimit`, `stop()` or `endWhen` (asked after every batch).
    /// Errors of the source (a compositor gone) and of the loop's system calls are thrown.
    @discardableResult
    public func run(_ client: some LiveInputClient, endWhen: (() -> Bool)? = nil) throws -> StopReason {
        let loop = try InputEventLoop(source: source)
        self.loop = loop
        defer { self.loop = nil }
        if stopRequested { loop.stop() }
        try loop.stopOnSignals([SIGINT, SIGTERM])
        let end = timeLimit.map { MonotonicClock.now() + $0 }
        var reason = StopReason.stopped
        var lastBatch = MonotonicClock.now()
        let signal = try loop.run(
            onEvent: { [unowned self] in deliver($0, to: client) },
            nextDeadline: { [unowned self] in
                // Asked once there is a clock to put it on.
                let clientDeadline = origin == nil ? nil : client.nextDeadline.flatMap { clock.monotonic($0) }
                let tick = idleTick.map { lastBatch + $0 }
                return [end, clientDeadline, tick].compactMap { $0 }.min()
            },
            advance: { [unowned self] now in
                if let now = clock.clientTime(now) { client.advance(to: now) }
                if let end, now >= end {
                    reason = .duration
                    loop.stop()
                }
            },
            beforeWait: { [unowned self] in
                client.batchHandled(by: self)
                lastBatch = MonotonicClock.now()
                if endWhen?() == true { loop.stop() }
            })
        return signal != nil ? .signal : reason
    }
}
