import HeapModule
import Logging

/// Dispatches input frames to views and their gesture recognizers, arbitrates between the
/// recognizers (failure requirements, exclusivity, the delegate) and runs their timers.
///
/// The engine has no clock. Time arrives with each frame; `nextDeadline` says when the
/// engine next needs to be woken, and `advance(to:)` moves time forward (a virtual clock in
/// tests and replays; the live event loop's timer in an app). The same input always gives
/// the same output.
///
/// Rules for input that does not make sense (each is reported as `inputIgnored`):
/// - a `moved`, `ended` or `cancelled` change for a touch that is not down is ignored;
/// - a `began` for a source id that is already down cancels the earlier touch first;
/// - a non-finite location: a `began` is ignored (and so is the rest of that touch), a
///   `moved` keeps the last location, an `ended` or `cancelled` lifts it where it was;
/// - a frame whose time is earlier than the engine's time happens at the engine's time;
/// - a frame or gesture sent from inside an action or a view callback is queued and
///   handled right after the current one, and so are `advance(to:)`, `deviceRemoved` and
///   `finish()` called from there (the engine never runs a step inside another);
/// - a recognizer added from an action sees only the touches that begin after it was added;
///   one removed or disabled from an action fails at once (is cancelled, if it had begun).
///
/// Faults (README, "Reliability"): `deviceRemoved` cancels the device's touches and reports
/// it; `finish()` at the end of input runs the deadlines, then cancels what is still down and
/// reports it; a jump ahead in time fires every deadline on the way at its own time.
public final class GestureEngine {
    public private(set) var roots: [View] = []
    /// The engine's time: the latest frame's time or fired deadline.
    public private(set) var now: Instant = .zero
    public var logger: Logger
    /// Receives every transition, delivery and ignored input, as it happens.
    public var traceHandler: ((GestureTraceEvent) -> Void)?

    // Registry of attached recognizers; timer entries refer to them by index.
    private var registry: [GestureRecognizer?] = []
    private var freeSlots: [Int] = []

    final class TouchRecord {
        var touch: Touch
        let view: View?
        var recognizers: [GestureRecognizer] = []
        var lifted = false
        var viewBegan = false
        var viewFinished = false
        var cancelledForView = false
        /// Events held back from the view by delaysTouchesBegan / delaysTouchesEnded.
        var held: [Touch] = []
        /// A touchpad gesture rather than a contact: recognizers only, never views.
        let gestureKind: TouchpadGestureEvent.Kind?

        init(touch: Touch, view: View?, gestureKind: TouchpadGestureEvent.Kind? = nil) {
            self.touch = touch
            self.view = view
            self.gestureKind = gestureKind
        }
    }

    private var records: [TouchRecord] = []
    private var nextTouchID = 1

    // Buffers reused from step to step so that steady-state dispatch allocates nothing.
    private var frameTouches: [(record: TouchRecord, phase: TouchPhase)] = []
    private var feedList: [GestureRecognizer] = []
    private var stepRecognizers: [GestureRecognizer] = []
    private var phaseBuffer: [Touch] = []
    private var pendingDeliveries: [(view: View, phase: TouchPhase, touch: Touch)] = []
    private var deliveryBuffer: [Touch] = []
    private var pendingList: [GestureRecognizer] = []
    private var stepCounter = 0
    private var inStep = false
    private var resolving = false
    private var needsResolve = false

    private enum QueuedInput {
        case frame(TouchFrame)
        case gesture(TouchpadGestureEvent)
        case advance(Instant)
        case deviceRemoved(InputDeviceID, Instant)
        case finish
    }
    private var queued: [QueuedInput] = []

    private struct TimerEntry: Comparable {
        var deadline: Instant
        var sequence: Int
        var index: Int
        var generation: Int
        static func < (a: TimerEntry, b: TimerEntry) -> Bool {
            (a.deadline, a.sequence) < (b.deadline, b.sequence)
        }
        static func == (a: TimerEntry, b: TimerEntry) -> Bool {
            a.deadline == b.deadline && a.sequence == b.sequence
        }
    }
    private var timers = Heap<TimerEntry>()
    private var timerSequence = 0

    /// The most timers `finish()` fires before it gives up on a recognizer that keeps
    /// asking for new deadlines (a guard against a custom recognizer's bug, not a limit
    /// any real gesture reaches).
    public static let maximumTimersAtFinish = 100_000

    public init(logger: Logger = Logger(label: "gesturekit.engine")) {
        self.logger = logger
        frameTouches.reserveCapacity(16)
        feedList.reserveCapacity(64)
        stepRecognizers.reserveCapacity(64)
        phaseBuffer.reserveCapacity(16)
        pendingDeliveries.reserveCapacity(32)
        deliveryBuffer.reserveCapacity(16)
        records.reserveCapacity(16)
    }

    // MARK: - Views

    /// Adds a root view in front of the existing ones.
    public func addRoot(_ view: View) {
        view.removeFromSuperview()
        roots.append(view)
        view.engine = self
    }

    public func removeRoot(_ view: View) {
        roots.removeAll { $0 === view }
        view.engine = nil
    }

    /// The front-most view containing `point` (screen coordinates) that takes touches.
    public func hitTest(_ point: Point) -> View? {
        for root in roots.reversed() {
            let p = point - root.frame.origin + root.boundsOrigin
            if let hit = root.hitTest(p) { return hit }
        }
        return nil
    }

    func register(_ r: GestureRecognizer) {
        guard r.engine !== self || r.registryIndex < 0 else { return }
        if let slot = freeSlots.popLast() {
            registry[slot] = r
            r.registryIndex = slot
        } else {
            r.registryIndex = registry.count
            registry.append(r)
        }
        r.engine = self
    }

    /// Whether `r` is attached to this engine: the same answer as `r.engine === self`
    /// (`register` and `unregister` set both together, and the registry holds `r` strongly),
    /// without loading the weak reference, which costs an atomic load and release of the
    /// engine's side table each time. The dispatch loop asks this for every recognizer of
    /// every frame.
    @inline(__always)
    private func isRegistered(_ r: GestureRecognizer) -> Bool {
        let i = r.registryIndex
        return i >= 0 && i < registry.count && registry[i] === r
    }

    func unregister(_ r: GestureRecognizer) {
        guard r.engine === self, r.registryIndex >= 0 else { return }
        registry[r.registryIndex] = nil
        freeSlots.append(r.registryIndex)
        r.registryIndex = -1
        r.engine = nil
        r.armedDeadline = nil
        r.timerGeneration += 1
        pendingList.removeAll { $0 === r }
        for record in records { record.recognizers.removeAll { $0 === r } }
    }

    // MARK: - Input

    /// Handles one frame of touch changes. Deadlines earlier than the frame fire first.
    public func send(_ frame: TouchFrame) {
        if inStep {
            queued.append(.frame(frame))
            return
        }
        fireTimers(before: frame.time, inclusive: false)
        beginStep(at: frame.time)
        frameTouches.removeAll(keepingCapacity: true)
        for change in frame.changes {
            ingest(change, of: frame)
        }
        feedRecognizers()
        // Events held from earlier frames go first: they are older.
        for record in records { settle(record) }
        for entry in frameTouches {
            var touch = entry.record.touch
            touch.phase = entry.phase
            deliverToView(entry.record, touch)
        }
        endStep()
    }

    /// Handles a touchpad gesture event (libinput's pinch, swipe or hold): the recognizers
    /// on the view under `event.location` that understand its kind receive it.
    public func send(_ event: TouchpadGestureEvent) {
        if inStep {
            queued.append(.gesture(event))
            return
        }
        fireTimers(before: event.time, inclusive: false)
        beginStep(at: event.time)
        let existing = records.first { !$0.lifted && $0.gestureKind != nil && $0.touch.device == event.device }
        switch event.phase {
        case .begin:
            if let existing {
                ignored("a touchpad \(event.kind) began while a \(existing.gestureKind!) was under way: the earlier one is cancelled")
                var cancel = event
                cancel.kind = existing.gestureKind!
                cancel.phase = .cancel
                liftGesture(existing, with: cancel)
            }
            let id = TouchID(rawValue: nextTouchID)
            nextTouchID += 1
            let touch = Touch(id: id, gesture: event)
            let view = hitTest(event.location)
            let record = TouchRecord(touch: touch, view: view, gestureKind: event.kind)
            record.viewFinished = true
            var v = view
            while let current = v {
                for r in current.gestureRecognizers where r.isEnabled && r.understands(event.kind) {
                    if r.delegate?.gestureRecognizer(r, shouldReceive: touch) ?? true {
                        record.recognizers.append(r)
                    }
                }
                v = current.superview
            }
            records.append(record)
            for r in record.recognizers where r.engine === self && r.isEnabled {
                r.touchIDs.append(id)
                r.activeTouchCount += 1
                apply(r.touchpadGesture(event), to: r)
            }
        case .update:
            guard let existing, existing.gestureKind == event.kind else {
                ignored("touchpad \(event.kind) update with no \(event.kind) under way")
                break
            }
            existing.touch.location = event.location
            existing.touch.timestamp = now
            for r in existing.recognizers where r.engine === self && r.isEnabled && r.isTracking(existing.touch.id) {
                apply(r.touchpadGesture(event), to: r)
            }
        case .end, .cancel:
            guard let existing, existing.gestureKind == event.kind else {
                ignored("touchpad \(event.kind) \(event.phase) with no \(event.kind) under way")
                break
            }
            liftGesture(existing, with: event)
        }
        endStep()
    }

    private func liftGesture(_ record: TouchRecord, with event: TouchpadGestureEvent) {
        record.lifted = true
        record.touch.phase = event.phase == .cancel ? .cancelled : .ended
        for r in record.recognizers where r.engine === self && r.isEnabled && r.isTracking(record.touch.id) {
            r.activeTouchCount -= 1
            apply(r.touchpadGesture(event), to: r)
        }
    }

    /// Moves the engine's time to `time`, firing every deadline up to and including it.
    public func advance(to time: Instant) {
        if inStep {
            queued.append(.advance(time))
            return
        }
        fireTimers(before: time, inclusive: true)
        if time > now { now = time }
    }

    /// The earliest deadline a recognizer is waiting for, if any.
    public var nextDeadline: Instant? {
        while let top = timers.min {
            if isLive(top) { return top.deadline }
            _ = timers.removeMin()
        }
        return nil
    }

    /// Cancels every touch (and touchpad gesture) of `device`: it was unplugged. Reported as
    /// `inputIgnored`; later events for those touches are ignored (and reported) as events of
    /// touches that are not down.
    public func deviceRemoved(_ device: InputDeviceID, at time: Instant) {
        if inStep {
            queued.append(.deviceRemoved(device, time))
            return
        }
        cancelTouches(at: time, reason: "\(device) removed") { $0.touch.device == device }
    }

    /// The end of input (the end of a recording): runs every pending deadline, then cancels
    /// every touch still down, then runs the deadlines that follows, so every recognizer
    /// ends in a final state and is back in `possible`.
    public func finish() {
        if inStep {
            queued.append(.finish)
            return
        }
        runAllTimers()
        cancelTouches(at: now, reason: "input ended with touches down") { _ in true }
        runAllTimers()
    }

    private func runAllTimers() {
        var fired = 0
        while let deadline = nextDeadline, fired < GestureEngine.maximumTimersAtFinish {
            advance(to: deadline)
            fired += 1
        }
        if fired >= GestureEngine.maximumTimersAtFinish {
            ignored("stopped after \(fired) timers: a recognizer keeps asking for new deadlines")
        }
    }

    private func cancelTouches(at time: Instant, reason: String, where matches: (TouchRecord) -> Bool) {
        let down = records.filter { !$0.lifted && matches($0) }
        guard !down.isEmpty else { return }
        ignored("\(reason): cancelling \(down.count) touch\(down.count == 1 ? "" : "es")", at: max(time, now))
        var byDevice: [InputDeviceID: TouchFrame] = [:]
        var gestures: [TouchpadGestureEvent] = []
        for record in down {
            if let kind = record.gestureKind {
                gestures.append(TouchpadGestureEvent(kind: kind, phase: .cancel, time: time,
                                                     device: record.touch.device, fingers: 0,
                                                     location: record.touch.location))
            } else {
                let d = record.touch.device
                var frame = byDevice[d] ?? TouchFrame(time: time, device: d, deviceKind: record.touch.deviceKind)
                frame.changes.append(TouchChange(sourceID: record.touch.sourceID, phase: .cancelled,
                                                 location: record.touch.location))
                byDevice[d] = frame
            }
        }
        for device in byDevice.keys.sorted() { send(byDevice[device]!) }
        for g in gestures { send(g) }
    }

    // MARK: - Steps

    private func beginStep(at time: Instant) {
        inStep = true
        stepCounter &+= 1
        stepRecognizers.removeAll(keepingCapacity: true)
        if time < now {
            ignored("input at \(formatTime(time)) s is earlier than \(formatTime(now)) s: handled at \(formatTime(now)) s")
        } else {
            now = time
        }
    }

    private func markDirty(_ r: GestureRecognizer) {
        if r.stepMark != stepCounter {
            r.stepMark = stepCounter
            stepRecognizers.append(r)
        }
    }

    private func endStep() {
        // A recognizer still possible whose touches have all lifted, with no timer and no
        // transition waiting, has seen everything it will see: it fails. This keeps the
        // promise that every recognizer returns to possible once touches end and timers run.
        var i = 0
        while i < stepRecognizers.count {
            let r = stepRecognizers[i]
            i += 1
            if isRegistered(r), r.state == .possible, r.pending == nil, !r.touchIDs.isEmpty,
               r.activeTouchCount == 0, liveDeadline(of: r) == nil {
                fail(r, .touchesLiftedWithoutGesture)
            }
        }
        for record in records { settle(record) }
        flushDeliveries()
        for r in stepRecognizers { rearm(r) }
        records.removeAll { $0.lifted && $0.held.isEmpty }
        inStep = false
        if !queued.isEmpty {
            let work = queued
            queued.removeAll()
            for item in work {
                switch item {
                case let .frame(f): send(f)
                case let .gesture(g): send(g)
                case let .advance(t): advance(to: t)
                case let .deviceRemoved(d, t): deviceRemoved(d, at: t)
                case .finish: finish()
                }
            }
        }
    }

    // MARK: - Touches in

    private func activeRecord(device: InputDeviceID, sourceID: Int) -> TouchRecord? {
        for record in records where !record.lifted && record.gestureKind == nil
            && record.touch.sourceID == sourceID && record.touch.device == device {
            return record
        }
        return nil
    }

    /// The touches the engine still holds a record of: down, lifted in the current step, or
    /// with events held back from their view. Arbitration only considers these (for tests).
    var recordedTouchIDs: [TouchID] { records.map(\.touch.id) }

    private func record(for id: TouchID) -> TouchRecord? {
        for record in records where record.touch.id == id { return record }
        return nil
    }

    private func ingest(_ change: TouchChange, of frame: TouchFrame) {
        switch change.phase {
        case .began:
            guard change.location.isFinite else {
                ignored("touch \(change.sourceID) of \(frame.device) began at a non-finite location: the touch is ignored")
                return
            }
            if let old = activeRecord(device: frame.device, sourceID: change.sourceID) {
                ignored("touch \(change.sourceID) of \(frame.device) began again while down: the earlier touch is cancelled")
                old.lifted = true
                old.touch.phase = .cancelled
                old.touch.timestamp = now
                frameTouches.append((old, .cancelled))
            }
            let id = TouchID(rawValue: nextTouchID)
            nextTouchID += 1
            var f = frame
            f.time = now
            let touch = Touch(id: id, change: change, frame: f)
            let view = hitTest(change.location)
            let record = TouchRecord(touch: touch, view: view)
            if view == nil { record.viewFinished = true }
            var v = view
            while let current = v {
                for r in current.gestureRecognizers where r.isEnabled {
                    if r.delegate?.gestureRecognizer(r, shouldReceive: touch) ?? true {
                        record.recognizers.append(r)
                    }
                }
                v = current.superview
            }
            records.append(record)
            frameTouches.append((record, .began))
        case .moved:
            guard let record = activeRecord(device: frame.device, sourceID: change.sourceID) else {
                ignored("touch \(change.sourceID) of \(frame.device) moved but is not down")
                return
            }
            guard change.location.isFinite else {
                ignored("touch \(change.sourceID) of \(frame.device) moved to a non-finite location: it stays where it was")
                return
            }
            record.touch.previousLocation = record.touch.location
            record.touch.location = change.location
            record.touch.timestamp = now
            if let last = frameTouches.lastIndex(where: { $0.record === record }) {
                // A second change for the same touch in one frame updates the first.
                if frameTouches[last].phase == .began || frameTouches[last].phase == .moved { return }
            }
            record.touch.phase = .moved
            frameTouches.append((record, .moved))
        case .ended, .cancelled:
            guard let record = activeRecord(device: frame.device, sourceID: change.sourceID) else {
                ignored("touch \(change.sourceID) of \(frame.device) \(change.phase.rawValue) but is not down")
                return
            }
            if change.location.isFinite && change.location != record.touch.location {
                record.touch.previousLocation = record.touch.location
                record.touch.location = change.location
            }
            record.touch.timestamp = now
            record.touch.phase = change.phase
            record.lifted = true
            frameTouches.append((record, change.phase))
        }
    }

    private static let phaseOrder: [TouchPhase] = [.began, .moved, .ended, .cancelled]

    @inline(__always)
    private static func phaseBit(_ phase: TouchPhase) -> UInt8 {
        switch phase {
        case .began: 1
        case .moved: 2
        case .ended: 4
        case .cancelled: 8
        }
    }

    private func feedRecognizers() {
        feedList.removeAll(keepingCapacity: true)
        let mark = stepCounter
        for entry in frameTouches {
            for r in entry.record.recognizers where r.stepMark != mark {
                r.stepMark = mark
                feedList.append(r)
                stepRecognizers.append(r)
            }
        }
        // New touches join every recognizer that sees them before any recognizer hears of
        // the frame: one that begins while the others are fed must find them tracking the
        // touches (exclusivity), and one that decides must find the recognizers it waits
        // for involved (require(toFail:)), whatever their order.
        for entry in frameTouches where entry.phase == .began {
            let id = entry.record.touch.id
            for r in entry.record.recognizers where isRegistered(r) && r.isEnabled && id >= r.minimumTouchID {
                r.touchIDs.append(id)
                r.activeTouchCount += 1
            }
        }
        // The phases this frame has: a frame of moves skips the began, ended and cancelled
        // passes (they would find no touch) for every recognizer.
        var present: UInt8 = 0
        var newestID = TouchID(rawValue: Int.min)
        for entry in frameTouches {
            present |= GestureEngine.phaseBit(entry.phase)
            newestID = max(newestID, entry.record.touch.id)
        }
        // The recognizers' touches are collected in a local buffer (moved out of, and back
        // into, `phaseBuffer` so its storage is reused): the loop then mutates no stored
        // property of the engine, so it pays no exclusivity check per touch.
        var buffer = phaseBuffer
        phaseBuffer = []
        defer { phaseBuffer = buffer }
        for r in feedList {
            // A recognizer reset since these touches began (it failed, or was excluded) takes
            // none of them: every pass below would skip every touch.
            if r.minimumTouchID > newestID { continue }
            for phase in GestureEngine.phaseOrder where present & GestureEngine.phaseBit(phase) != 0 {
                guard isRegistered(r), r.isEnabled else { break }
                buffer.removeAll(keepingCapacity: true)
                for entry in frameTouches where entry.phase == phase {
                    let id = entry.record.touch.id
                    if phase == .began {
                        // Joined above, unless a reset since then dropped it.
                        guard id >= r.minimumTouchID, r.isTracking(id) else { continue }
                    } else {
                        guard id >= r.minimumTouchID, r.isTracking(id) else { continue }
                        if phase == .ended || phase == .cancelled { r.activeTouchCount -= 1 }
                    }
                    var touch = entry.record.touch
                    touch.phase = phase
                    buffer.append(touch)
                }
                guard !buffer.isEmpty else { continue }
                let decision: GestureDecision
                switch phase {
                case .began: decision = r.touchesBegan(buffer, at: now)
                case .moved: decision = r.touchesMoved(buffer, at: now)
                case .ended: decision = r.touchesEnded(buffer, at: now)
                case .cancelled: decision = r.touchesCancelled(buffer, at: now)
                }
                apply(decision, to: r)
            }
        }
    }

    // MARK: - Timers

    private func isLive(_ entry: TimerEntry) -> Bool {
        guard entry.index < registry.count, let r = registry[entry.index] else { return false }
        return r.timerGeneration == entry.generation && r.armedDeadline == entry.deadline
    }

    /// The recognizer's deadline, unless it is one that already fired.
    private func liveDeadline(of r: GestureRecognizer) -> Instant? {
        guard let d = r.deadline, d != r.firedDeadline else { return nil }
        return d
    }

    private func rearm(_ r: GestureRecognizer) {
        let wanted = isRegistered(r) && r.isEnabled ? liveDeadline(of: r) : nil
        guard wanted != r.armedDeadline else { return }
        r.timerGeneration &+= 1
        r.armedDeadline = wanted
        if let wanted {
            timerSequence &+= 1
            timers.insert(TimerEntry(deadline: wanted, sequence: timerSequence,
                                     index: r.registryIndex, generation: r.timerGeneration))
        }
    }

    private func fireTimers(before limit: Instant, inclusive: Bool) {
        while let top = timers.min, top.deadline < limit || (inclusive && top.deadline == limit) {
            _ = timers.removeMin()
            guard isLive(top), let r = registry[top.index] else { continue }
            r.armedDeadline = nil
            r.firedDeadline = top.deadline
            beginStep(at: max(top.deadline, now))
            markDirty(r)
            apply(r.deadlineReached(at: now), to: r)
            endStep()
        }
    }

    // MARK: - Arbitration

    private func apply(_ decision: GestureDecision, to r: GestureRecognizer) {
        markDirty(r)
        switch decision {
        case .none:
            return
        case let .begin(reason):
            request(r, r.kind == .discrete ? .recognize(reason) : .begin(reason))
        case .change:
            if r.state.isActive {
                transition(r, to: .changed, reason: .touchesMoved)
                r.performActions()
            }
        case let .recognize(reason):
            if r.state == .possible {
                request(r, r.kind == .discrete ? .recognize(reason) : .beginThenEnd(reason))
            } else if r.state.isActive {
                transition(r, to: .ended, reason: reason)
                r.performActions()
                reset(r)
            }
        case let .fail(reason), let .cancel(reason):
            if r.state == .possible {
                fail(r, reason)
            } else if r.state.isActive {
                cancel(r, reason)
            }
        }
    }

    private func request(_ r: GestureRecognizer, _ p: GestureRecognizer.PendingTransition) {
        guard r.state == .possible else { return }
        if let existing = r.pending {
            switch (existing, p) {
            case let (.begin(reason), .beginThenEnd), let (.begin(reason), .recognize):
                r.pending = .beginThenEnd(reason)
            default:
                break
            }
            return
        }
        evaluate(r, p)
    }

    /// Whether `a` and `b` may recognize at the same time.
    private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.isSimultaneous(with: b)
            || (a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) ?? false)
            || (b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) ?? false)
    }

    /// Whether `a` must wait for `b` to fail.
    private func requires(_ a: GestureRecognizer, toFail b: GestureRecognizer) -> Bool {
        a.failureRequirements.contains { $0 === b }
            || (a.delegate?.gestureRecognizer(a, shouldRequireFailureOf: b) ?? false)
            || (b.delegate?.gestureRecognizer(b, shouldBeRequiredToFailBy: a) ?? false)
    }

    /// Calls `body` with every other recognizer that sees one of `r`'s touches.
    private func forEachSharingTouches(with r: GestureRecognizer, _ body: (GestureRecognizer, TouchID) -> Void) {
        for id in r.touchIDs {
            guard let record = record(for: id) else { continue }
            for other in record.recognizers where other !== r && isRegistered(other) {
                body(other, id)
            }
        }
    }

    private enum RequirementStatus {
        case clear
        case waiting(GestureRecognizer)
        case succeeded(GestureRecognizer)
    }

    private func requirementStatus(of r: GestureRecognizer) -> RequirementStatus {
        var waitingOn: GestureRecognizer?
        func consider(_ b: GestureRecognizer) -> RequirementStatus? {
            guard b !== r, isRegistered(b) else { return nil }
            if b.state.isActive || b.state == .ended { return .succeeded(b) }
            if b.state == .possible && b.isInvolved && waitingOn == nil { waitingOn = b }
            return nil
        }
        for b in r.failureRequirements {
            if let s = consider(b) { return s }
        }
        var result: RequirementStatus?
        forEachSharingTouches(with: r) { other, _ in
            guard result == nil, !r.failureRequirements.contains(where: { $0 === other }),
                  requires(r, toFail: other), other.requirementPath(to: r) == nil else { return }
            result = consider(other)
        }
        if let result { return result }
        if let waitingOn { return .waiting(waitingOn) }
        return .clear
    }

    private func evaluate(_ r: GestureRecognizer, _ p: GestureRecognizer.PendingTransition) {
        var preventer: GestureRecognizer?
        forEachSharingTouches(with: r) { other, _ in
            if preventer == nil, other.state.isActive, !simultaneous(r, other) { preventer = other }
        }
        if let preventer {
            fail(r, .preventedBy(preventer.name))
            return
        }
        switch requirementStatus(of: r) {
        case let .succeeded(b):
            fail(r, .requiredRecognizerSucceeded(b.name))
        case let .waiting(b):
            let wasPending = r.pending != nil
            r.pending = p
            if !wasPending && !pendingList.contains(where: { $0 === r }) { pendingList.append(r) }
            emit(.waiting(time: now, recognizer: r, reason: .waitingForFailure(of: b.name)))
        case .clear:
            commit(r, p)
        }
    }

    private func commit(_ r: GestureRecognizer, _ p: GestureRecognizer.PendingTransition) {
        clearPending(r)
        if !(r.delegate?.gestureRecognizerShouldBegin(r) ?? true) {
            fail(r, .delegateDeclinedBegin)
            return
        }
        switch p {
        case let .recognize(reason):
            transition(r, to: .ended, reason: reason)
        case let .begin(reason), let .beginThenEnd(reason):
            transition(r, to: .began, reason: reason)
        }
        succeeded(r)
        r.performActions()
        if case .beginThenEnd = p, r.state.isActive {
            transition(r, to: .ended, reason: .touchesEnded)
            r.performActions()
        }
        if r.state.isFinal { reset(r) }
    }

    /// `r` began or recognized: exclusivity, cancelsTouchesInView, and the recognizers
    /// that required it to fail.
    private func succeeded(_ r: GestureRecognizer) {
        // The failures below may release recognizers that wait for them; none is released
        // until every recognizer this success excludes has been excluded (otherwise one
        // could begin here and be cancelled a moment later by the same success).
        let outermost = !resolving
        resolving = true
        defer {
            if outermost {
                resolving = false
                if needsResolve { resolvePending() }
            }
        }
        // Everything that waits for r to fail now fails.
        for a in registry {
            guard let a, a !== r, a.state == .possible, a.isInvolved else { continue }
            if a.failureRequirements.contains(where: { $0 === r })
                || (a.pending != nil && requires(a, toFail: r)) {
                fail(a, .requiredRecognizerSucceeded(r.name))
            }
        }
        forEachSharingTouches(with: r) { other, id in
            guard !simultaneous(r, other) else { return }
            if other.state == .possible && other.isTracking(id) {
                fail(other, .excludedBy(r.name))
            } else if other.state.isActive {
                cancel(other, .excludedBy(r.name))
            }
        }
        if r.cancelsTouchesInView {
            for id in r.touchIDs {
                if let record = record(for: id) { cancelForView(record) }
            }
        }
    }

    private func fail(_ r: GestureRecognizer, _ reason: TransitionReason) {
        guard r.state == .possible else { return }
        clearPending(r)
        transition(r, to: .failed, reason: reason)
        reset(r)
        resolvePending()
    }

    private func cancel(_ r: GestureRecognizer, _ reason: TransitionReason) {
        guard r.state.isActive else { return }
        transition(r, to: .cancelled, reason: reason)
        r.performActions()
        reset(r)
    }

    private func clearPending(_ r: GestureRecognizer) {
        if r.pending != nil {
            r.pending = nil
            pendingList.removeAll { $0 === r }
        }
    }

    /// Re-evaluates every waiting recognizer after a failure that may have released it.
    private func resolvePending() {
        if resolving {
            needsResolve = true
            return
        }
        resolving = true
        repeat {
            needsResolve = false
            for r in pendingList {
                guard let p = r.pending, r.state == .possible else { continue }
                if case .waiting = requirementStatus(of: r) { continue }
                clearPending(r)
                evaluate(r, p)
            }
        } while needsResolve
        resolving = false
    }

    private func reset(_ r: GestureRecognizer) {
        r.state = .possible
        r.touchIDs.removeAll(keepingCapacity: true)
        r.activeTouchCount = 0
        r.minimumTouchID = TouchID(rawValue: nextTouchID)
        clearPending(r)
        r.firedDeadline = nil
        r.reset()
        markDirty(r)
    }

    private func transition(_ r: GestureRecognizer, to state: GestureRecognizer.State, reason: TransitionReason) {
        let from = r.state
        r.state = state
        guard traceHandler != nil || logger.logLevel <= .debug else { return }
        flushDeliveries()
        emit(.transition(.init(time: now, recognizer: r, from: from, to: state, reason: reason,
                               location: r.location(in: r.view), values: r.values)))
    }

    func recognizerWasDisabled(_ r: GestureRecognizer) {
        outsideChange(r, reason: .disabled)
    }

    func recognizerWillBeRemoved(_ r: GestureRecognizer) {
        outsideChange(r, reason: .removedFromView)
    }

    private func outsideChange(_ r: GestureRecognizer, reason: TransitionReason) {
        let standalone = !inStep
        if standalone { beginStep(at: now) }
        markDirty(r)
        if r.state == .possible && r.isInvolved {
            fail(r, reason)
        } else if r.state.isActive {
            cancel(r, reason)
        }
        if standalone { endStep() }
    }

    // MARK: - Delivery to views

    private func delaysBegan(_ record: TouchRecord) -> Bool {
        let id = record.touch.id
        return record.recognizers.contains {
            $0.delaysTouchesBegan && $0.state == .possible && isRegistered($0) && $0.isTracking(id)
        }
    }

    private func delaysEnded(_ record: TouchRecord) -> Bool {
        let id = record.touch.id
        return record.recognizers.contains {
            $0.delaysTouchesEnded && $0.state == .possible && isRegistered($0) && $0.isTracking(id)
        }
    }

    private func deliverToView(_ record: TouchRecord, _ touch: Touch) {
        guard !record.cancelledForView, !record.viewFinished, let view = record.view else { return }
        switch touch.phase {
        case .began, .moved:
            if !record.held.isEmpty || delaysBegan(record) {
                record.held.append(touch)
            } else {
                emitDelivery(view, touch, record)
            }
        case .ended:
            if !record.held.isEmpty || delaysBegan(record) || delaysEnded(record) {
                record.held.append(touch)
            } else {
                emitDelivery(view, touch, record)
            }
        case .cancelled:
            record.held.removeAll()
            if record.viewBegan { emitDelivery(view, touch, record) }
            record.viewFinished = true
        }
    }

    /// Delivers held events whose recognizers no longer hold them back.
    private func settle(_ record: TouchRecord) {
        guard !record.held.isEmpty else { return }
        guard !record.cancelledForView, !record.viewFinished, let view = record.view else {
            record.held.removeAll()
            return
        }
        var delivered = 0
        for touch in record.held {
            if touch.phase == .ended {
                if delaysBegan(record) || delaysEnded(record) { break }
            } else if delaysBegan(record) {
                break
            }
            emitDelivery(view, touch, record)
            delivered += 1
        }
        record.held.removeFirst(delivered)
    }

    private func cancelForView(_ record: TouchRecord) {
        guard !record.cancelledForView, !record.viewFinished else { return }
        record.held.removeAll()
        record.cancelledForView = true
        if record.viewBegan, let view = record.view {
            var touch = record.touch
            touch.phase = .cancelled
            pendingDeliveries.append((view, .cancelled, touch))
        }
    }

    private func emitDelivery(_ view: View, _ touch: Touch, _ record: TouchRecord) {
        switch touch.phase {
        case .began: record.viewBegan = true
        case .ended, .cancelled: record.viewFinished = true
        case .moved: break
        }
        pendingDeliveries.append((view, touch.phase, touch))
    }

    /// Hands the collected deliveries to their views, one call per run of distinct touches
    /// with the same view and phase.
    private func flushDeliveries() {
        guard !pendingDeliveries.isEmpty else { return }
        var i = 0
        let count = pendingDeliveries.count
        while i < count {
            let view = pendingDeliveries[i].view
            let phase = pendingDeliveries[i].phase
            deliveryBuffer.removeAll(keepingCapacity: true)
            while i < count, pendingDeliveries[i].view === view, pendingDeliveries[i].phase == phase,
                  !deliveryBuffer.contains(where: { $0.id == pendingDeliveries[i].touch.id }) {
                deliveryBuffer.append(pendingDeliveries[i].touch)
                i += 1
            }
            if traceHandler != nil || logger.logLevel <= .debug {
                emit(.delivery(.init(time: now, view: view, phase: phase, touches: deliveryBuffer)))
            }
            view.deliver(phase, deliveryBuffer)
        }
        pendingDeliveries.removeAll(keepingCapacity: true)
    }

    // MARK: - Trace

    private func emit(_ event: GestureTraceEvent) {
        if logger.logLevel <= .debug {
            logger.debug("\(event.description)")
        }
        traceHandler?(event)
    }

    private func ignored(_ reason: String, at time: Instant? = nil) {
        emit(.inputIgnored(time: time ?? now, reason: reason))
    }
}

extension Touch {
    /// A touchpad gesture stands for a touch in arbitration (exclusivity, requirements).
    init(id: TouchID, gesture: TouchpadGestureEvent) {
        self.id = id
        self.sourceID = -1
        self.device = gesture.device
        self.deviceKind = .touchpad
        self.phase = .began
        self.location = gesture.location
        self.previousLocation = gesture.location
        self.initialLocation = gesture.location
        self.beganAt = gesture.time
        self.timestamp = gesture.time
    }
}
