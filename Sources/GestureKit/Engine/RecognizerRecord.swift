/// Everything arbitration holds of one recognizer, in one record: its state, the touches of
/// its event sequence, the transition it waits to make, its timer, the step it was last
/// listed in.
///
/// The records are in the engine's table (RecognizerTable.swift), one per slot, beside the
/// slot's entry (RecognizerEntry.swift: the object and what it shows). Only the table's
/// methods change them, for arbitration (Arbiter.swift) and for the engine (`armTimer`,
/// `markOnce`, `machineWasReset`); arbitration knows recognizers only by their slots.
///
/// Two states: `state` is arbitration's, and runs ahead while the engine carries out one
/// arbitration's actions (a recognizer let go to begin and end at once performs its `began`
/// actions while arbitration already has it `ended`); what the recognizer shows its actions,
/// its delegate and the app (`Shown`: the state of the last transition the engine carried
/// out, its touches) is in its entry, written only as the engine carries the actions out, so
/// a delegate asked in the middle of a decision reads what UIKit would show.
struct RecognizerRecord {
    /// A transition the recognizer has decided on but may not make yet, because a recognizer
    /// it requires to fail is still possible.
    enum PendingTransition: Hashable {
        case recognize(TransitionReason)
        case begin(TransitionReason)
        case beginThenEnd(TransitionReason)
    }

    /// What the recognizer shows its actions, its delegate and the app: the record as of the
    /// last action the engine carried out, or the last touch it joined or left.
    struct Shown: Equatable {
        var state = GestureRecognizer.State.possible
        /// Every touch tracked since the last reset, lifted ones included (UIKit: a
        /// two-finger tap's action sees 2).
        var numberOfTouches = 0
        /// The touches of the current sequence or, if it has none, of the sequence that ended
        /// at the last reset (`RecognizerTable.sequenceTouches`): where `location(in:)` is.
        var touches: [TouchID] = []
    }

    /// The recognizer's deadline in the timer queue (`TimerQueue`).
    struct Timer {
        /// The deadline in the heap, if any.
        var armed: Instant?
        /// The last deadline that fired (a recognizer that forgets to clear it is not woken
        /// twice).
        var fired: Instant?
        /// Makes every older heap entry of the slot stale; never goes back, so a slot's next
        /// recognizer cannot be woken by its last one's entries.
        var generation = 0

        /// The recognizer's `deadline`, unless it is the one that already fired: a recognizer
        /// that forgets to clear it is not woken twice, nor kept involved by it.
        @inline(__always)
        func live(_ deadline: Instant?) -> Instant? {
            deadline == fired ? nil : deadline
        }
    }

    /// False for a slot no recognizer holds.
    var isAttached = true
    var state = GestureRecognizer.State.possible
    /// The recognizer's kind while it is attached: the class's `kind`, or continuous once it
    /// began by setting its own state (UIKit's rule). Here only: the object has the declared
    /// kind alone.
    var kind: GestureRecognizer.Kind
    /// The object's `isEnabled`, copied by the engine whenever it changes
    /// (`GestureEngine.recognizer(_:enabledChangedTo:)`, the one writer). The object keeps the
    /// value a recognizer has before it is attached, and the one a delegate reads during
    /// arbitration, which must not read the arbiter; this copy is what arbitration reads on
    /// every touch.
    var isEnabled = true
    /// The engine's count of withdrawals (`EngineStorage.withdrawals`) when the recognizer in
    /// this slot was last withdrawn; kept for the slot's next recognizer, as the timer's
    /// generation is, so that a decision of one withdrawn is never applied to the next.
    var withdrawnAt = 0

    // MARK: The event sequence (from one reset to the next)

    /// Touches seen since the last reset, in order of arrival.
    var touches: [TouchID] = []
    /// How many of `touches` are still down.
    var touchesDown = 0
    /// Touches with a smaller id began before the last reset and are ignored.
    var minimumTouchID = TouchID(rawValue: 0)
    /// The touches of the sequence that ended at the last reset (for the invariant tests,
    /// which see a transition after the arbiter may have reset the recognizer).
    var previousSequence: [TouchID] = []

    // MARK: Waiting

    /// The transition waiting for a recognizer to fail, if any.
    var pending: PendingTransition? {
        didSet { isWaiting = pending != nil }
    }
    /// Whether a transition waits: `pending != nil`, kept as a plain flag so that the
    /// engine's per-frame checks read one byte instead of copying the reason.
    private(set) var isWaiting = false
    /// In a final state waiting for its sequence to end, or reset by arbitration with its
    /// state machine not reset yet: its deadline does not count.
    var awaitingMachineReset = false

    // MARK: The engine's marks

    var timer = Timer()
    /// The step in which the engine last listed the recognizer among the step's recognizers.
    var stepMark = 0

    init(kind: GestureRecognizer.Kind) {
        self.kind = kind
        touches.reserveCapacity(4)
    }

    func isTracking(_ touch: TouchID) -> Bool { touches.contains(touch) }
}
