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
/// Its jobs, one file each:
/// - GestureEngine+Registry.swift: roots, hit-testing, the recognizers' slots;
/// - GestureEngine+Dispatch.swift: frames and touchpad gestures in, recognizers fed;
/// - Arbiter.swift: who may recognize (the rules, as a table), with every recognizer's record
///   (RecognizerRecord.swift), and GestureEngine+Arbitration.swift: carrying out what the
///   arbiter decides;
/// - GestureEngine+Delivery.swift: touches to views (cancelsTouchesInView, delays);
/// - GestureEngine+Timers.swift: the recognizers' deadlines;
/// - GestureEngine+DisplayLink.swift: animation frames, deadlines at a frame rate;
/// - GestureEngine+Tracing.swift: transitions, deliveries and ignored input reported.
///
/// Rules for input that does not make sense (each is reported as `inputIgnored`):
/// - a `moved`, `ended` or `cancelled` change for a touch that is not down is ignored;
/// - a `began` for a source id that is already down cancels the earlier touch first;
/// - a non-finite location: a `began` is ignored (and so is the rest of that touch), a
///   `moved` keeps the last location, an `ended` or `cancelled` lifts it where it was;
/// - a frame whose time is earlier than the engine's time happens at the engine's time
///   (its touches keep their own timestamps, and velocities are measured on those: see
///   VelocityTracker.swift);
/// - a frame or gesture sent from inside an action or a view callback is queued and
///   handled right after the current one, and so are `advance(to:)`, `deviceRemoved` and
///   `finish()` called from there (the engine never runs a step inside another);
/// - a recognizer added from an action sees only the touches that begin after it was added;
///   one removed or disabled from an action fails at once (is cancelled, if it had begun).
///
/// Faults (the article "Bad input and faults"): `deviceRemoved` cancels the device's touches and reports
/// it; `finish()` at the end of input runs the deadlines, then cancels what is still down and
/// reports it; a jump ahead in time fires every deadline on the way at its own time.
///
/// The engine's own state is one value, `storage` (EngineStorage.swift), the one engine
/// property Swift does not check for exclusive access at run time: that file states the
/// rule that makes it sound (no access held across a call into app code) and the benchmark
/// that needs it.
public final class GestureEngine {
    /// Everything the engine holds but its roots, its logger and its trace handler
    /// (EngineStorage.swift), reached one expression at a time.
    #if GESTUREKIT_CHECKED_ACCESS
    var storage = EngineStorage()
    #else
    @exclusivity(unchecked) var storage = EngineStorage()
    #endif
    public internal(set) var roots: [View] = []
    /// The drag session under way, and the rules that run it (DragAndDropCoordinator.swift).
    package let dragAndDrop = DragAndDropCoordinator()
    public var logger: Logger {
        didSet { updateTracing() }
    }
    /// Receives every transition, delivery and ignored input, as it happens.
    public var traceHandler: ((GestureTraceEvent) -> Void)? {
        didSet { updateTracing() }
    }
    /// How many screen points a millimetre of each touchscreen covers, where the device's
    /// physical size is known (set by whoever maps the device onto the screen: the replay, the
    /// live session; or by the device's announcement where its source maps it itself,
    /// `InputDeviceInfo.pointsPerMillimetre`: a compositor's touchscreen). Distances that are
    /// physical (a screen edge pan's margin) use it.
    public var pointsPerMillimetre: [InputDeviceID: Double] = [:]
    /// The context menu on the screen, if any: one at a time (ContextMenuInteraction.swift).
    public internal(set) var presentedContextMenu: PresentedContextMenu?
    /// Who draws context menus when they open and close (GestureGTK's popover; an app's own
    /// drawing). Held weakly. Without one, the menu is still presented, as data
    /// (`presentedContextMenu`), for the app to draw.
    public weak var contextMenuPresenter: (any ContextMenuPresenter)?
    /// How many lifted touches' locations the engine keeps (`liftedTouches`).
    static let liftedCapacity = 64

    /// What arrived while a step was under way (from a callback): handled, in order, when
    /// the step ends.
    enum QueuedInput {
        case input(InputEvent)
        case advance(Instant)
        case finish
        /// The menu key (`sendMenuKey(at:focusedView:)`).
        case menuKey(Instant, View?)
    }

    /// The most timers `finish()` fires before it gives up on a recognizer that keeps
    /// asking for new deadlines (a guard against a custom recognizer's bug, not a limit
    /// any real gesture reaches).
    package static let maximumTimersAtFinish = 100_000

    public init(logger: Logger = Logger(label: "gesturekit.engine")) {
        self.logger = logger
        storage.frameTouches.reserveCapacity(16)
        storage.touchBuffer.reserveCapacity(16)
        storage.pendingDeliveries.reserveCapacity(32)
        storage.deliveryBuffer.reserveCapacity(16)
        storage.records.reserveCapacity(16)
        updateTracing()
    }

    // MARK: - Input

    /// Handles one input event from any source: touches, a touchpad gesture, the pointer,
    /// a device removed (at its time, or the engine's `now` when the source gave none).
    /// A device added under the id of one removed is a new device (its events count again);
    /// one added saying how many points a millimetre of it is sets `pointsPerMillimetre`;
    /// a drop or a source's note is reported (`inputIgnored`) at its time.
    public func send(_ event: InputEvent) {
        switch event {
        case let .deviceAdded(info):
            if storage.inStep { storage.queued.append(.input(event)); return }
            storage.pointer.removed.removeAll { $0 == info.id }
            if let scale = info.pointsPerMillimetre { pointsPerMillimetre[info.id] = scale }
        case let .touchFrame(frame):
            send(frame)
        case let .touchpadGesture(gesture):
            send(gesture)
        case let .pointer(pointerEvent):
            send(pointerEvent)
        case let .pen(penEvent):
            send(penEvent)
        case let .modifiers(time, device, flags):
            send(modifiers: flags, of: device, at: time)
        case let .deviceRemoved(device, time):
            deviceRemoved(device, at: time ?? now)
        case let .eventsDropped(time, device):
            if storage.inStep { storage.queued.append(.input(event)); return }
            ignored(InputEvent.eventsDroppedReason(device), at: time)
        case let .note(time, device, text):
            if storage.inStep { storage.queued.append(.input(event)); return }
            ignored("\(device): \(text)", at: time)
        }
    }

    /// Handles one frame of touch changes. Deadlines earlier than the frame fire first.
    public func send(_ frame: TouchFrame) {
        inputStep(.touchFrame(frame), at: frame.time) { dispatch(frame) }
    }

    /// Handles a touchpad gesture event (libinput's pinch, swipe or hold): the recognizers
    /// on the view under `event.location` that understand its kind receive it.
    public func send(_ event: TouchpadGestureEvent) {
        inputStep(.touchpadGesture(event), at: event.time) { dispatch(event) }
    }

    /// Moves the engine's time to `time`, firing every deadline up to and including it.
    public func advance(to time: Instant) {
        if storage.inStep {
            storage.queued.append(.advance(time))
            return
        }
        fireDeadlines(before: time, inclusive: true)
        if time > now { now = time }
    }

    /// The earliest deadline a recognizer or a running display link is waiting for, if any.
    public var nextDeadline: Instant? {
        nextDeadlineIncludingDisplayLinks(nextDeadlineIncludingPointer(storage.table.nextDeadline()))
    }

    /// Cancels every touch (and touchpad gesture) of `device`: it was unplugged. Reported as
    /// `inputIgnored`; later events for those touches are ignored (and reported) as events of
    /// touches that are not down.
    public func deviceRemoved(_ device: InputDeviceID, at time: Instant) {
        if storage.inStep {
            storage.queued.append(.input(.deviceRemoved(device, time: time)))
            return
        }
        cancelTouches(at: time, reason: "\(device) removed") { $0.touch.device == device }
        pointerDeviceRemoved(device, at: time)
        if storage.keyboards[device] != nil { setModifiers([], of: device) }
    }

    /// The end of input (the end of a recording): runs every pending deadline, then cancels
    /// every touch still down, then runs the deadlines that follows, so every recognizer
    /// ends in a final state and is back in `possible`.
    public func finish() {
        if storage.inStep {
            storage.queued.append(.finish)
            return
        }
        runAllTimers()
        cancelTouches(at: now, reason: "input ended with touches down") { _ in true }
        // The pointer's touch is cancelled with the rest: no button is held any more.
        storage.pointer.buttonDevice = nil
        storage.pointer.buttons = []
        cancelHover(reason: .inputEnded, at: now)
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

    // MARK: - Steps

    /// The rule every `send` follows: input that arrives while a step is under way (from a
    /// callback) waits in `queued` until the step ends; otherwise the deadlines earlier than
    /// it fire first, then `handle` runs in a step at its time.
    @inline(__always)
    func inputStep(_ event: @autoclosure () -> InputEvent, at time: Instant, _ handle: () -> Void) {
        if storage.inStep {
            storage.queued.append(.input(event()))
            return
        }
        fireDeadlines(before: time, inclusive: false)
        beginStep(at: time)
        handle()
        endStep()
    }

    func beginStep(at time: Instant) {
        storage.inStep = true
        storage.stepCounter &+= 1
        storage.stepRecognizers.removeAll()
        if time < now {
            ignored("input at \(formatTime(time)) s is earlier than \(formatTime(now)) s: handled at \(formatTime(now)) s")
        } else {
            now = time
        }
    }

    /// Lists `r` among the recognizers of this step (once).
    @inline(__always)
    func markDirty(_ r: RecognizerSlot) {
        if storage.table.markOnce(r, step: storage.stepCounter) { storage.stepRecognizers.append(r) }
    }

    func endStep() {
        if storage.hasStateRequests { applyStateRequests() }
        // A recognizer still possible whose touches have all lifted, with no timer and no
        // transition waiting, has seen everything it will see: it fails. This keeps the
        // promise that every recognizer returns to possible once touches end and timers run.
        var i = 0
        while i < storage.stepRecognizers.count {
            let r = storage.stepRecognizers[i]
            i += 1
            if storage.table.mayHaveSeenEverything(r) {
                arbitrate { endOfStep(r) }
            }
        }
        var index = 0
        while index < storage.records.count {
            settle(index)
            index += 1
        }
        flushDeliveries()
        i = 0
        while i < storage.stepRecognizers.count {
            rearm(storage.stepRecognizers[i])
            i += 1
        }
        closeFinishedRecords()
        layOutViews()
        storage.inStep = false
        if !storage.queued.isEmpty {
            let work = storage.queued
            storage.queued.removeAll()
            for item in work {
                switch item {
                case let .input(event): send(event)
                case let .advance(t): advance(to: t)
                case .finish: finish()
                case let .menuKey(t, view): sendMenuKey(at: t, focusedView: view)
                }
            }
        }
    }
}

extension GestureEngine {
    /// Lists `view` for the layout pass at the end of the current step; false outside a
    /// step (the view lays itself out at once then).
    func deferLayout(of view: View) -> Bool {
        guard storage.inStep else { return false }
        storage.viewsNeedingLayout.append(view)
        return true
    }

    /// The layout pass at the end of a step: every view that asked for one lays itself out,
    /// once, in the order they asked. A layout that asks for another (a collection view
    /// whose layout invalidates itself while it is laid out) is laid out again, up to
    /// `maximumLayoutRounds` times; past that the loop is a programming error, reported.
    func layOutViews() {
        var rounds = 0
        while !storage.viewsNeedingLayout.isEmpty {
            rounds += 1
            if rounds > GestureEngine.maximumLayoutRounds {
                let ids = storage.viewsNeedingLayout.map(\.debugName).joined(separator: ", ")
                storage.viewsNeedingLayout.removeAll()
                programmingError("views \(ids) still need layout after \(GestureEngine.maximumLayoutRounds) passes in one step: each layout asks for another")
                return
            }
            let views = storage.viewsNeedingLayout
            storage.viewsNeedingLayout.removeAll()
            for view in views { view.layoutIfNeeded() }
        }
    }

    /// How many layout passes one step may take before a loop is reported.
    static let maximumLayoutRounds = 8
}

extension Array {
    /// Empties the array, keeping its storage; an empty one is left alone (the dispatch loop
    /// clears its buffers every frame, most of them already empty).
    @inline(__always)
    mutating func clearKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
