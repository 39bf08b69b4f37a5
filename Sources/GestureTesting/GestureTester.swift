import GestureKit

/// Drives your views' gesture recognizers as a person would, on a virtual clock, and
/// explains what they did: the tester of GestureTesting.
///
/// **The clock rule.** The tester owns the engine's time. Every event it makes is stamped
/// on that clock, each strictly later than the one before; a deadline or a display-link
/// frame that falls between two events fires at its own time before the later event (the
/// engine's own rule). Nothing reads a real clock, so a test runs as fast as the engine does
/// and gives the same result every time.
///
/// - `now` is the time of the latest event, or of the latest `wait(_:)`.
/// - A moving gesture's events are about `sampleInterval` apart (a touchscreen's report
///   rate), the k-th at k/rate seconds from its start rounded to the nanosecond, so times
///   read as a screen's do (three samples at 120 Hz: 0.025 s).
/// - A gesture starts one sample after `now`, and at least `tapPause` after the previous
///   gesture ended, as a person's next gesture does; it leaves `now` at its last event. Two
///   `tap(at:)` calls in a row are a double tap to a recognizer that wants one, as they are
///   from a finger: `wait(_:)` or `settle()` between them separates them.
/// - `wait(_:)` moves the clock on, firing what falls due; `settle()` runs it on until the
///   engine waits for nothing (no recognizer's deadline, no animation frame).
///
/// The tester installs its own `traceHandler` on the engine; set `traceHandler` on the
/// tester to see the events too. It keeps no global state: make one per test.
public final class GestureTester {
    /// The engine the tester drives (yours, with `init(engine:)`).
    public let engine: GestureEngine
    /// The screen, in points: the union of the engine's roots' frames when the tester was
    /// made. A screen-edge pan starts at its edges.
    public var screen: Rect
    /// How the tester's person makes gestures: report rate, tap timing, finger spacing and
    /// order, edge inset, jitter, report latency (``Variation/typical`` unless a test or a
    /// ``Sweep`` sets another). Setting it checks it: an out-of-range figure is refused,
    /// keeping the one before, and the next gesture throws naming it.
    public var variation: Variation = .typical {
        didSet {
            do {
                try variation.validate()
                invalidVariation = nil
                jitterGenerator = SeededGenerator(seed: variation.seed)
            } catch {
                invalidVariation = error
                variation = oldValue
            }
        }
    }
    var invalidVariation: (any Error)?
    /// Events a second for the motion of every gesture (a touchscreen's report rate): the
    /// variation's, ``defaultSampleRate`` unless set. A rate below 1 is refused (the next
    /// gesture throws, naming it).
    public var sampleRate: Int {
        get { variation.sampleRate }
        set { variation.sampleRate = newValue }
    }
    /// How many points a millimetre of the tester's touchscreen is, when a test wants the
    /// physical distances (a screen-edge pan's 5 mm margin) to apply; nil by default, as a
    /// recording without a size (the edge pan's margin is then in points, and the tester's
    /// own millimetres go through ``nominalPointsPerMillimetre``).
    public var touchscreenPointsPerMillimetre: Double?
    /// Sees every trace event after the tester has recorded it.
    public var traceHandler: ((GestureTraceEvent) -> Void)?

    /// The points a millimetre that the tester's own distances in millimetres (finger
    /// spacing, edge inset, jitter) go through: `touchscreenPointsPerMillimetre` where set,
    /// else ``nominalPointsPerMillimetre``.
    public var pointsPerMillimetre: Double {
        touchscreenPointsPerMillimetre.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? GestureTester.nominalPointsPerMillimetre
    }

    /// Every transition, delivery, wait and ignored input since the tester was made (or
    /// `clearRecords()`), in order, while `isRecording`.
    public internal(set) var records: [GestureTraceEvent] = []
    /// The touch changes the tester sent since the records began, for the account's margins.
    var touchLog: [LoggedChange] = []
    /// Whether the tester keeps `records` (true). A long run that asserts on what its
    /// recognizers did, not on the records, may turn it off: memory then stays flat, and
    /// `transitions(of:)`, `account` and the `require…` checks see nothing from that time.
    public var isRecording = true
    var announced: Set<InputDeviceID> = []
    /// When the latest gesture made by a helper ended (its last event): the next one starts
    /// at least a pause after it.
    var lastGestureEnd: Instant?
    /// The jitter's random numbers (the variation's seed; set anew when it changes).
    var jitterGenerator = SeededGenerator(seed: 0)
    var nextTouchID = 1
    /// The time of the latest event or wait; the clock's sleepers follow it.
    var latest: Instant? {
        didSet { if let latest { clock.move(to: latest) } }
    }
    /// The tester's virtual time as Swift's `Clock`, for the app's own timers (a debounce, a
    /// timeout written against `any Clock<Duration>`): see ``VirtualClock``.
    public let clock = VirtualClock()
    /// Where the tester's mouse is, once it has moved.
    public internal(set) var pointerLocation: Point?
    var heldModifiers: ModifierFlags = []
    let previousHandler: ((GestureTraceEvent) -> Void)?

    /// A tester over a new engine with `root` as its one root view, whose frame is the screen.
    public convenience init(root: View) {
        let engine = GestureEngine()
        engine.addRoot(root)
        self.init(engine: engine)
    }

    /// A tester driving `engine`, whose roots are already added (an app's own engine). The
    /// engine's `traceHandler` keeps being called, after the tester's.
    public init(engine: GestureEngine) {
        self.engine = engine
        var union: Rect?
        for root in engine.roots {
            let frame = root.frame
            guard let u = union else { union = frame; continue }
            let minX = Swift.min(u.minX, frame.minX), minY = Swift.min(u.minY, frame.minY)
            let maxX = Swift.max(u.maxX, frame.maxX), maxY = Swift.max(u.maxY, frame.maxY)
            union = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
        screen = union ?? Rect(x: 0, y: 0, width: 1000, height: 1000)
        previousHandler = engine.traceHandler
        engine.traceHandler = { [unowned self] event in
            if isRecording { records.append(event) }
            traceHandler?(event)
            previousHandler?(event)
        }
    }

    // MARK: - The clock

    /// The time of the latest event or wait.
    public var now: Instant { Swift.max(engine.now, latest ?? .zero) }

    /// The time from one motion event to the next: `1 / sampleRate` seconds, to the nearest
    /// nanosecond (8,333,333 ns at 120 Hz). A gesture's k-th sample is at k/rate seconds
    /// from its start, rounded once, so samples do not drift.
    public var sampleInterval: Duration { sampleOffset(1) }

    /// The time of a gesture's `k`-th sample from its start: k/rate seconds, to the nearest
    /// nanosecond.
    func sampleOffset(_ k: Int) -> Duration {
        .nanoseconds(Int64((Double(k) * 1e9 / Double(max(1, sampleRate))).rounded()))
    }

    /// The time of the next event: one sample after `now` (at zero for the very first, so a
    /// test's times read from zero). Each call moves `now` there.
    func stamp(after interval: Duration? = nil) -> Instant {
        let t: Instant
        if let latest {
            t = Swift.max(now, latest) + (interval ?? sampleInterval)
        } else {
            // A fresh engine's first event is at zero; an engine that has had input before
            // the tester (an app's) gets the next one a sample after its time.
            t = engine.now > .zero ? engine.now + (interval ?? sampleInterval) : .zero
        }
        latest = t
        return t
    }

    /// An event at `time`, which the helpers make later than the latest event: moves `now`
    /// there. A time that is not later (a helper's internal mistake, never a parameter: they
    /// are checked first) is an internal inconsistency.
    func stamp(at time: Instant) -> Instant {
        guard latest.map({ time > $0 }) ?? true else {
            fatalError("GestureTester: an event at \(formatTime(time)) s is not after the latest, at \(formatTime(latest ?? .zero)) s")
        }
        latest = time
        return time
    }

    /// The time of a new gesture's first event: one sample after `now` (zero for a tester's
    /// first event), and at least `pause` after the previous gesture's end, as a person's
    /// next gesture comes. Throws first for a variation that was refused.
    func gestureStart(pause: Duration) throws -> Instant {
        if let invalidVariation { throw invalidVariation }
        let next: Instant
        if let latest {
            next = Swift.max(now, latest) + sampleInterval
        } else {
            next = engine.now > .zero ? engine.now + sampleInterval : .zero
        }
        guard let end = lastGestureEnd else { return next }
        return Swift.max(next, end + pause)
    }

    /// Marks the end of a helper's gesture: the next starts at least a pause after `now`.
    func endGesture() { lastGestureEnd = now }

    /// Moves the clock on by `duration`, firing every deadline and animation frame on the way
    /// at its own time. Throws, moving nothing, for a negative duration.
    public func wait(_ duration: Duration) throws {
        guard duration >= .zero else {
            throw GestureTestError.invalidParameter(parameter: "duration", value: swiftDuration(duration),
                                                    why: "must not be negative: the clock only moves on")
        }
        let target = now + duration
        advanceBoth(to: target)
        latest = target
    }

    /// Moves the clock on to `time` (if it is later than `now`), firing what falls due.
    public func wait(until time: Instant) {
        guard time > now else { return }
        advanceBoth(to: time)
        latest = time
    }

    /// Moves the clock on by `seconds`; throws for a negative number or one that is not finite.
    public func wait(seconds: Double) throws {
        guard seconds.isFinite else {
            throw GestureTestError.invalidParameter(parameter: "seconds", value: fmt(seconds), why: "must be a finite number of seconds")
        }
        try wait(Duration(seconds: seconds))
    }

    /// The longest `settle()` runs the clock before it gives up: 60 seconds of virtual time.
    public static let defaultSettleLimit: Duration = .seconds(60)

    /// Runs the clock on until the engine waits for nothing: every recognizer's deadline has
    /// passed and every animation has come to rest (a scroll view's deceleration, its bounce),
    /// and every sleeper of ``clock`` has been resumed (in an `async` test, `await settle()`
    /// also waits for their tasks). Touches still down stay down. Throws, naming what is still pending, when that takes
    /// longer than `limit` of virtual time (an animation that never rests).
    public func settle(limit: Duration = GestureTester.defaultSettleLimit) throws {
        let end = now + limit
        while let deadline = earliest(engine.nextDeadline, clock.nextDeadline) {
            guard deadline <= end else {
                throw GestureTestError.didNotSettle(after: limit, pending: pending)
            }
            advanceBoth(to: deadline)
            latest = Swift.max(latest ?? .zero, deadline)
        }
    }

    /// The earlier of two times, either of which may be missing.
    func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    /// What the engine and the tester's clock still wait for, earliest first:
    /// "longPress#1's deadline at 0.500000 s", "a sleeper of the tester's clock until 0.300000 s".
    public var pending: [String] { engine.pendingDeadlines().map(\.description) + clock.pendingDescriptions }

    /// Ends the input as a recording's end does (`GestureEngine.finish()`): the deadlines run,
    /// then every touch still down is cancelled, so every recognizer ends in a final state.
    public func endInput() {
        engine.finish()
        latest = now
    }

    // MARK: - Sending

    /// Sends `event` to the engine as it is, at its own time, announcing nothing: raw input
    /// for what the helpers do not make (an engine's rules for bad input, a source's quirks).
    /// The clock moves to the event's time when that is later.
    public func send(_ event: InputEvent) {
        noteInput(event)
        engine.send(event)
        if let t = event.time { markSent(at: t) }
    }

    /// Sees every input event the tester's helpers make, before the engine does: a driver that
    /// plays the same gestures on a real device (GestureDriveInput) takes them from here.
    package var inputObserver: ((InputEvent) -> Void)?

    /// Sends one event a helper made: to the input observer, then to the engine.
    func post(_ event: InputEvent) {
        inputObserver?(event)
        engine.send(event)
    }

    /// Whether the tester has sent any input yet (a replay's first event then comes at `now`).
    package var hasSentInput: Bool { latest != nil }

    /// Moves `now` to `time` when that is later: input sent at that time, not by the tester's
    /// own helpers (a replayed recording).
    package func markSent(at time: Instant) {
        if latest.map({ time > $0 }) ?? true { latest = time }
    }

    /// Announces a device of the tester once, the first time it is used, as a real source
    /// does.
    func announce(_ device: TestDevice) {
        guard !announced.contains(device.id) else { return }
        announced.insert(device.id)
        engine.send(.deviceAdded(InputDeviceInfo(
            id: device.id, name: "GestureTester \(device.name)", systemName: "tester", kind: device.kind,
            capabilities: device.capabilities, sizeMillimetres: nil,
            pointsPerMillimetre: device.kind == .touchscreen ? touchscreenPointsPerMillimetre : nil)))
    }
}

/// The tester's devices, one of each kind, with fixed ids.
struct TestDevice {
    var id: InputDeviceID
    var name: String
    var kind: InputDeviceKind?
    var capabilities: Set<InputDeviceCapability>

    static let touchscreen = TestDevice(id: InputDeviceID(0), name: "touchscreen", kind: .touchscreen, capabilities: [.touch])
    static let mouse = TestDevice(id: InputDeviceID(1), name: "mouse", kind: .pointer, capabilities: [.pointer])
    static let touchpad = TestDevice(id: InputDeviceID(2), name: "touchpad", kind: .touchpad, capabilities: [.pointer, .gesture])
    static let pen = TestDevice(id: InputDeviceID(3), name: "pen", kind: .pen, capabilities: [.tabletTool])
    static let keyboard = TestDevice(id: InputDeviceID(4), name: "keyboard", kind: nil, capabilities: [.keyboard])
}
