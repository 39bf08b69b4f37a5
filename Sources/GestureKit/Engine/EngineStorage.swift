/// **The engine's rule for calls into app code.** No access to the engine's state is held
/// across a call into code of the app's, so that code may call any public API.
///
/// The engine calls app code all the time: a recognizer's actions, its delegate's questions,
/// the overridable methods of recognizers and views (`touchesBegan(_:with:)`,
/// `gestureRecognizerShouldBegin`, `canPrevent`, `deadline`, `reset()`, `layoutSubviews()`,
/// `hitTest`), `onTouches`, display links' callbacks, the trace handler and the logger's
/// handler, the interactions' delegates (context menu, drag, drop), menu actions, the menu's
/// presenter and item providers' loaders; GestureLayout adds layouts, data sources and scroll
/// and collection delegates.
/// The list, with the public API each is checked against, is `CallbackMatrixTests` (in
/// GestureLayoutTests). Any of them may read the engine (`nextDeadline`, a recognizer's
/// `state`, `location(in:)`), change the recognizers (`isEnabled`, `addGestureRecognizer`,
/// `removeFromSuperview`, `require(toFail:)`) or send input. So:
///
/// - Every access to `storage` is one expression (a property read or write, or a call of a
///   method of a value inside it), over before the next call out; the engine never passes a
///   part of it `inout` to code that calls out, and never calls out from inside one of its
///   values' methods: the values in it (the recognizers' table, RecognizerTable.swift; the
///   touch records; the step's lists) hold no reference to anything that runs app code.
/// - Arbitration, which must ask the recognizers and their delegates questions halfway
///   through a decision, reads the table, lets go, asks, then changes the table
///   (Arbiter.swift): a question is always asked with nothing held.
/// - A read answers from what the engine shows, which arbitration does not run ahead of: a
///   recognizer's `state`, `numberOfTouches` and touches (`RecognizerRecord.Shown`), the
///   timers' next deadline (a read that changes nothing).
/// - A change waits until it can be made without tearing a step in half: input sent from a
///   callback is queued (`inStep`) and handled when the step ends; changes to the recognizers
///   made during arbitration or while its actions are carried out wait until it is over
///   (`arbitrationDepth`). A recognizer withdrawn (disabled, removed) by app code that a
///   call into it ran has that call's decision dropped (`withdrawals`).
///
/// Where a call back is not allowed, it stops with a precondition naming the misuse (the
/// collection view's `reloadData()` during its own layout pass, CollectionView.swift). It
/// never overlaps an access.
///
/// **Why it matters:** `storage` is the engine's one property Swift does not check for
/// exclusive access at run time in a release build (`@exclusivity(unchecked)`). Swift checks
/// every access to a class's stored property at run time (`swift_beginAccess`), and the
/// dispatch loop reads and writes this state many times a frame:
/// Benchmarks/Sources/profile-dispatch under callgrind (Benchmarks/README.md) counts a frame
/// at 3,567 instructions with two touches and eight recognizers panning, and 56,996 with 64
/// recognizers undecided; with the checks it is 7,478 and 101,434 (2026-11-26). A held access
/// that app code overlaps would be undefined behaviour there. The rule is checked
/// continuously: a debug build, the test suite's included, compiles every such attribute out
/// (GESTUREKIT_CHECKED_ACCESS, Package.swift's `checkedInDebug`), so Swift's run-time checks
/// trap on any overlap ("Simultaneous accesses"), and `CallbackMatrixTests` calls every public
/// API that reads or changes state from every callback point; `make test-release-asan` runs
/// the engine's, the layouts' and the replays' tests in a release build, shortcuts on, under
/// AddressSanitizer.
///
/// It cannot be copied: it owns the step's slot lists' memory (SlotList.swift), and the
/// engine holds the one copy.
struct EngineStorage: ~Copyable {
    /// The engine's recognizers (RecognizerTable.swift): their objects, what they show, their
    /// arbitration records, the touches' arenas, the timers.
    var table = RecognizerTable()
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
    /// How many registered recognizers delay touches began: with none (UIKit's default),
    /// delivery to views skips asking the touch's recognizers.
    var recognizersDelayingBegan: Int = 0
    /// Animation frames (GestureEngine+DisplayLink.swift).
    var displayLinks: [DisplayLink] = []
    /// The pointer (GestureEngine+Pointer.swift).
    var pointer: GestureEngine.PointerState = GestureEngine.PointerState()
    /// The pens whose tips are down (Pen.swift).
    var pens = GestureEngine.PenState()
    /// The modifier flags of each keyboard holding any, and their union (Keys.swift).
    var keyboards: [InputDeviceID: ModifierFlags] = [:]
    var heldModifiers: ModifierFlags = []
    /// The touches the engine holds: down, lifted in the current step, or with events held
    /// back from their view; in the order they began. A touchpad gesture under way is one of
    /// them, with its last event (`TouchRecord.gesture`: its one home in the engine).
    var records: [GestureEngine.TouchRecord] = []
    var stepCounter: Int = 0
    var inStep: Bool = false
    /// How deep the engine is in arbitration (asking delegates, carrying out actions);
    /// changes to the recognizers made meanwhile wait until it is over.
    var arbitrationDepth: Int = 0
    /// How many times a recognizer has been withdrawn (disabled, removed from its view):
    /// read before each call into a recognizer and compared with the recognizer's record's
    /// `withdrawnAt` after it, so that a decision returned by a recognizer that app code
    /// withdrew during the call is dropped (`GestureEngine.apply(_:to:unlessWithdrawnSince:)`).
    var withdrawals: Int = 0
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
}
