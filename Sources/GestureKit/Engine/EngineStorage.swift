/// The engine's own state but arbitration, in one value: every stored property the dispatch
/// loop touches (the recognizers' table, the touches held, the step's buffers, the queue of
/// input sent from callbacks), held by the engine as `storage`. It and `arbiter` are the
/// engine's two properties Swift does not check for exclusive access at run time.
///
/// Why: Swift checks every access to a class's stored property at run time
/// (`swift_beginAccess`), and the dispatch loop reads and writes these many times a frame.
/// Benchmarks/Sources/profile-dispatch under callgrind (Benchmarks/README.md) counts a
/// frame at 3,567 instructions with two touches and eight recognizers panning, and 56,996
/// with 64 recognizers undecided; with the checks on `storage` and `arbiter` it is 7,478
/// and 101,434.
///
/// Why it is sound: the engine never holds an access to either across a call into other
/// code that could reach the same one. Input sent from an action or a view callback is
/// queued (`inStep`) and handled when the step ends; changes to the recognizers made from a
/// delegate, an action or a view callback wait until arbitration is over
/// (`arbitrationDepth`); arbitration, which holds `arbiter` while it asks the recognizers
/// and their delegates, gets answers that read `storage`, never `arbiter`: what a recognizer
/// shows (`state`, `numberOfTouches`, the touches `location(in:)` is the centroid of) is
/// `shown`, in `slots` here. Each forwarding accessor below yields one property for the
/// length of one access. Checked continuously: a debug build, the test suite's included,
/// compiles every such attribute out (GESTUREKIT_CHECKED_ACCESS, Package.swift's
/// `checkedInDebug`) and runs under Swift's run-time checks; DelegateReadsStateTests has a
/// delegate and overrides read both recognizers during every question.
///
/// It cannot be copied: it owns the step's slot lists' memory (SlotList.swift), and the
/// engine holds the one copy.
struct EngineStorage: ~Copyable {
    /// The engine's time: the latest frame's time or fired deadline.
    var now: Instant = .zero
    /// The reason a `changed` transition gives (a decision of `.change` carries none): the
    /// touches moved, unless the hover update under way says the pointer or a pen did.
    var changeReason: TransitionReason = .touchesMoved
    /// Whether anyone listens to the trace (a handler, or the logger at debug level).
    var isTracing: Bool = false
    /// Whether a recognizer of this engine has been given a delegate, or is of a class of
    /// the app's own (which may override `shouldRequireFailure(of:)`); never unset. Until
    /// then failure requirements are only the explicit ones, and arbitration asks no one.
    var hasDynamicRequirements: Bool = false
    /// Recognizers that set their own `state`, waiting to be weighed.
    var stateRequests: [RecognizerSlot] = []
    /// `!stateRequests.isEmpty`, as one byte the dispatch loop reads after every decision.
    var hasStateRequests: Bool = false
    /// Where the last touches to lift were, by id, for `location(ofTouch:in:)` once their
    /// records are gone (a ring of `liftedCapacity`).
    var liftedTouches: [(id: TouchID, location: Point)] = []
    var liftedNext: Int = 0
    /// The attached recognizers, by slot (RecognizerEntry.swift): a recognizer's slot is the
    /// index of its entry here and of its record in `Arbiter.records`.
    var slots: [RecognizerEntry] = []
    var freeSlots: [Int] = []
    /// How many recognizers the engine has been given: the number of the next default name.
    var recognizersNumbered = 0
    /// How many registered recognizers delay touches began: with none (UIKit's default),
    /// delivery to views skips asking the touch's recognizers.
    var recognizersDelayingBegan: Int = 0
    /// Animation frames (GestureEngine+DisplayLink.swift).
    var displayLinks: [DisplayLink] = []
    /// The pointer (GestureEngine+Pointer.swift).
    var pointer: GestureEngine.PointerState = GestureEngine.PointerState()
    /// The touches the engine holds: down, lifted in the current step, or with events held
    /// back from their view; in the order they began.
    var records: [GestureEngine.TouchRecord] = []
    var stepCounter: Int = 0
    var inStep: Bool = false
    /// How deep the engine is in arbitration (asking delegates, carrying out actions);
    /// changes to the recognizers made meanwhile wait until it is over.
    var arbitrationDepth: Int = 0
    var deferredChanges: [() -> Void] = []
    /// Recognizers that took part in this step (fed, decided, reset, woken).
    var stepRecognizers = SlotList(capacity: 64)
    /// The frame's touches and their phases.
    var frameTouches: [(record: Int, phase: TouchPhase)] = []
    var feedList = SlotList(capacity: 64)
    var touchBuffer: [Touch] = []
    /// The touches of the frame being fed, by phase (began, moved, ended, cancelled).
    var touchesByPhase: [[Touch]] = []
    var pendingDeliveries: [(view: View, phase: TouchPhase, touch: Touch)] = []
    var deliveryBuffer: [Touch] = []
    var queued: [GestureEngine.QueuedInput] = []
    /// Views that asked for a layout during this step (`View.setNeedsLayout()`).
    var viewsNeedingLayout: [View] = []
}

extension GestureEngine {
    /// The engine's time: the latest frame's time or fired deadline.

    public internal(set) var now: Instant {
        get { storage.now }
        set { storage.now = newValue }
    }

    var changeReason: TransitionReason {
        _read { yield storage.changeReason }
        _modify { yield &storage.changeReason }
    }

    var isTracing: Bool {
        _read { yield storage.isTracing }
        _modify { yield &storage.isTracing }
    }

    var hasDynamicRequirements: Bool {
        _read { yield storage.hasDynamicRequirements }
        _modify { yield &storage.hasDynamicRequirements }
    }

    var stateRequests: [RecognizerSlot] {
        _read { yield storage.stateRequests }
        _modify { yield &storage.stateRequests }
    }

    var hasStateRequests: Bool {
        _read { yield storage.hasStateRequests }
        _modify { yield &storage.hasStateRequests }
    }

    var liftedTouches: [(id: TouchID, location: Point)] {
        _read { yield storage.liftedTouches }
        _modify { yield &storage.liftedTouches }
    }

    var liftedNext: Int {
        _read { yield storage.liftedNext }
        _modify { yield &storage.liftedNext }
    }

    var slots: [RecognizerEntry] {
        _read { yield storage.slots }
        _modify { yield &storage.slots }
    }

    var freeSlots: [Int] {
        _read { yield storage.freeSlots }
        _modify { yield &storage.freeSlots }
    }

    var recognizersNumbered: Int {
        get { storage.recognizersNumbered }
        set { storage.recognizersNumbered = newValue }
    }

    var recognizersDelayingBegan: Int {
        _read { yield storage.recognizersDelayingBegan }
        _modify { yield &storage.recognizersDelayingBegan }
    }

    var displayLinks: [DisplayLink] {
        _read { yield storage.displayLinks }
        _modify { yield &storage.displayLinks }
    }

    var pointer: GestureEngine.PointerState {
        _read { yield storage.pointer }
        _modify { yield &storage.pointer }
    }

    var records: [GestureEngine.TouchRecord] {
        _read { yield storage.records }
        _modify { yield &storage.records }
    }

    var stepCounter: Int {
        _read { yield storage.stepCounter }
        _modify { yield &storage.stepCounter }
    }

    var inStep: Bool {
        _read { yield storage.inStep }
        _modify { yield &storage.inStep }
    }

    var arbitrationDepth: Int {
        _read { yield storage.arbitrationDepth }
        _modify { yield &storage.arbitrationDepth }
    }

    var deferredChanges: [() -> Void] {
        _read { yield storage.deferredChanges }
        _modify { yield &storage.deferredChanges }
    }

    var stepRecognizers: SlotList {
        _read { yield storage.stepRecognizers }
        _modify { yield &storage.stepRecognizers }
    }

    var frameTouches: [(record: Int, phase: TouchPhase)] {
        _read { yield storage.frameTouches }
        _modify { yield &storage.frameTouches }
    }

    var feedList: SlotList {
        _read { yield storage.feedList }
        _modify { yield &storage.feedList }
    }

    var touchBuffer: [Touch] {
        _read { yield storage.touchBuffer }
        _modify { yield &storage.touchBuffer }
    }

    var touchesByPhase: [[Touch]] {
        _read { yield storage.touchesByPhase }
        _modify { yield &storage.touchesByPhase }
    }

    var pendingDeliveries: [(view: View, phase: TouchPhase, touch: Touch)] {
        _read { yield storage.pendingDeliveries }
        _modify { yield &storage.pendingDeliveries }
    }

    var deliveryBuffer: [Touch] {
        _read { yield storage.deliveryBuffer }
        _modify { yield &storage.deliveryBuffer }
    }

    var queued: [GestureEngine.QueuedInput] {
        _read { yield storage.queued }
        _modify { yield &storage.queued }
    }

    var viewsNeedingLayout: [View] {
        _read { yield storage.viewsNeedingLayout }
        _modify { yield &storage.viewsNeedingLayout }
    }
}
