import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What live input drives: a gesture engine, a scene around one, an app's wall. Times it sees
/// are on its own clock, zero at the first event (as a replay's are), so a live session and a
/// replay of the same recording print comparable times.
public protocol LiveInputClient: AnyObject {
    /// One converted libinput event, its time on the client's clock.
    func handle(_ event: LibinputInputEvent)
    /// The client's next deadline on its clock (a long press's duration, a double tap's
    /// interval), asked before every wait; nil: none.
    var nextDeadline: Instant? { get }
    /// The client's clock reached `now`: fire what is due.
    func advance(to now: Instant)
    /// A batch of events and deadlines was handled and the loop is about to sleep: where an
    /// app draws what the batch changed. `input.stop()` ends the run.
    func batchHandled(by input: LiveInput)
    /// The end of input (the devices are already removed, their touches cancelled).
    func finish()
}

extension LiveInputClient {
    public func batchHandled(by input: LiveInput) {}
    public func finish() {}
}

extension GestureEngine: LiveInputClient {
    public func handle(_ event: LibinputInputEvent) {
        switch event {
        case let .touchFrame(frame): send(frame)
        case let .touchpadGesture(gesture): send(gesture)
        case let .pointer(event): send(event)
        case .deviceAdded: break
        case let .deviceRemoved(id): deviceRemoved(id, at: now)
        }
    }
}

/// The one live-input loop, which `gesturekit listen`, `LiveSession`, the probe and PhotoWall
/// share: opens libinput on a seat or on device paths, waits on its fd and the client's next
/// deadline together (`InputEventLoop`: poll and a timerfd, no busy waiting), rebases times
/// to the first event, stops on SIGINT/SIGTERM, after `duration`, or on `stop()`, and at the
/// end removes every device (libinput_suspend, so touches still down are reported cancelled)
/// and finishes the client.
public final class LiveInput {
    public let listener: LibinputListener
    /// How often the client's `batchHandled` runs when nothing else happens (a window's own
    /// events need reading); nil: only after input and deadlines.
    public var idleTick: Duration?
    /// The monotonic time of the first timed event: time zero of the client's clock.
    public private(set) var origin: Instant?
    /// Devices libinput reported and has not removed, by id.
    public private(set) var devices: [InputDeviceID: LibinputDeviceInfo] = [:]
    private var loop: InputEventLoop?
    private var stopRequested = false

    public init(_ listener: LibinputListener, idleTick: Duration? = nil) {
        self.listener = listener
        self.idleTick = idleTick
    }

    /// Ends a run from inside a client's callback (or before it starts).
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
        case let .deviceAdded(info):
            devices[info.id] = info
            return event
        case let .deviceRemoved(id):
            devices[id] = nil
            return event
        }
    }

    /// Runs `client` until a signal, `duration` or `stop()`. `log` receives libinput's own
    /// messages; `notice` this loop's word on what it sees (a seat with no touch device yet).
    /// Throws when libinput cannot start, or when a seat's only touch devices may not be read
    /// (the permission error names the device and the fix).
    @discardableResult
    public func run(_ client: some LiveInputClient,
                    log: ((LibinputLogPriority, String) -> Void)? = nil,
                    notice: ((String) -> Void)? = nil) throws -> LibinputListener.StopReason {
        let context: LibinputContext
        switch listener.source {
        case let .seat(seat):
            context = try LibinputContext(seat: seat, screenSize: listener.screenSize, mapping: listener.mapping,
                                          access: listener.access, grab: listener.grab,
                                          logPriority: listener.logPriority, log: log)
        case let .paths(paths):
            context = try LibinputContext(paths: paths, screenSize: listener.screenSize, mapping: listener.mapping,
                                          access: listener.access, grab: listener.grab,
                                          logPriority: listener.logPriority, log: log)
        }
        let deliver: (LibinputInputEvent) -> Void = { [unowned self] in client.handle(rebased($0)) }
        // A seat's devices are opened as libinput finds them; one the user may not read is
        // skipped by libinput in silence. With no touch device at all, say why.
        try context.dispatch(into: deliver)
        if let seat = context.seatName { notice?("devices opened through the seat \(seat) (libseat)") }
        if listener.grab {
            for path in context.grabbedDevices { notice?("grabbed \(path) (EVIOCGRAB): nothing else receives its events") }
            for failure in context.grabFailures { notice?(failure) }
        }
        if case .seat = listener.source, !context.devices.contains(where: { $0.kind != nil }) {
            if let denied = context.openFailures.first(where: {
                if case .permissionDenied = $0 { true } else { false }
            }) {
                throw denied
            }
            notice?("no touchscreen or touchpad on this seat (yet); listening for devices to appear")
        }
        let loop = try InputEventLoop(context: context)
        self.loop = loop
        defer { self.loop = nil }
        if stopRequested { loop.stop() }
        try loop.stopOnSignals([SIGINT, SIGTERM])
        let end = listener.duration.map { MonotonicClock.now().advanced(bySeconds: $0) }
        var lastBatch = MonotonicClock.now()
        let signal = try loop.run(
            onEvent: deliver,
            nextDeadline: { [unowned self] in
                let clientDeadline = origin.flatMap { origin in
                    client.nextDeadline.map { Instant(nanoseconds: $0.nanoseconds &+ origin.nanoseconds) }
                }
                let tick = idleTick.map { lastBatch + $0 }
                return [end, clientDeadline, tick].compactMap { $0 }.min()
            },
            advance: { [unowned self] now in
                if let origin { client.advance(to: Instant(nanoseconds: now.nanoseconds &- origin.nanoseconds)) }
                if let end, now >= end { loop.stop() }
            },
            beforeWait: { [unowned self] in
                client.batchHandled(by: self)
                lastBatch = MonotonicClock.now()
            })
        if listener.removeDevicesAtEnd {
            context.suspend()
            try context.dispatch(into: deliver)
        }
        client.finish()
        return signal == nil ? .duration : .signal
    }
}
