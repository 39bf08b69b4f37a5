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
/// - A gesture's events are `sampleInterval` apart, a touchscreen's report rate; a gesture
///   starts one interval after `now` and leaves `now` at its last event. Gestures follow
///   one another at once, as a person's would: two `tap(at:)` calls in a row are a double
///   tap to a recognizer that wants one. `wait(_:)` or `settle()` between them separates
///   them.
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
    /// Events a second for the motion of every gesture (a touchscreen's report rate):
    /// 120, which most touchscreens of today report at (Flutter's `timedDrag` moves at 60 by
    /// default).
    public var sampleRate: Int = GestureTester.defaultSampleRate {
        didSet { sampleRate = max(1, sampleRate) }
    }
    /// How many points a millimetre of the tester's touchscreen is, when a test wants the
    /// physical distances (a screen-edge pan's 5 mm margin) to apply; nil by default, as a
    /// recording without a size (the edge pan's margin is then in points).
    public var touchscreenPointsPerMillimetre: Double?
    /// Sees every trace event after the tester has recorded it.
    public var traceHandler: ((GestureTraceEvent) -> Void)?

    /// The report rate of the tester's touchscreen when none is set: 120 events a second.
    public static let defaultSampleRate = 120 /* events per second */

    /// Every transition, delivery, wait and ignored input since the tester was made (or
    /// `clearRecords()`), in order, while `isRecording`.
    public internal(set) var records: [GestureTraceEvent] = []
    /// Whether the tester keeps `records` (true). A long run that asserts on what its
    /// recognizers did, not on the records, may turn it off: memory then stays flat, and
    /// `transitions(of:)`, `account` and the `require…` checks see nothing from that time.
    public var isRecording = true
    var announced: Set<InputDeviceID> = []
    var nextTouchID = 1
    var latest: Instant?
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

    /// The time from one motion event to the next: `1 / sampleRate` seconds.
    public var sampleInterval: Duration { .seconds(1) / sampleRate }

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

    /// An event at `time`, which must be later than the latest event: moves `now` there.
    func stamp(at time: Instant) -> Instant {
        precondition(latest.map { time > $0 } ?? true, "GestureTester: an event at \(formatTime(time)) s is not after the latest, at \(formatTime(latest ?? .zero)) s")
        latest = time
        return time
    }

    /// Moves the clock on by `duration`, firing every deadline and animation frame on the way
    /// at its own time.
    public func wait(_ duration: Duration) {
        let target = now + duration
        engine.advance(to: target)
        latest = target
    }

    /// Moves the clock on to `time` (if it is later than `now`), firing what falls due.
    public func wait(until time: Instant) {
        guard time > now else { return }
        wait(time - now)
    }

    /// Moves the clock on by `seconds`.
    public func wait(seconds: Double) { wait(Duration(seconds: seconds)) }

    /// The longest `settle()` runs the clock before it gives up: 60 seconds of virtual time.
    public static let defaultSettleLimit: Duration = .seconds(60)

    /// Runs the clock on until the engine waits for nothing: every recognizer's deadline has
    /// passed and every animation has come to rest (a scroll view's deceleration, its bounce).
    /// Touches still down stay down. Throws, naming what is still pending, when that takes
    /// longer than `limit` of virtual time (an animation that never rests).
    public func settle(limit: Duration = GestureTester.defaultSettleLimit) throws {
        let end = now + limit
        while let deadline = engine.nextDeadline {
            guard deadline <= end else {
                throw GestureTestError.didNotSettle(after: limit,
                                                    pending: engine.pendingDeadlines().map(\.description))
            }
            engine.advance(to: deadline)
            latest = Swift.max(latest ?? .zero, deadline)
        }
    }

    /// What the engine still waits for, earliest first: "longPress#1's deadline at 0.500000 s".
    public var pending: [String] { engine.pendingDeadlines().map(\.description) }

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
        engine.send(event)
        if let t = event.time { markSent(at: t) }
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
