import GestureFormat

/// UIKit's `UIDragInteractionDelegate`. Only the items for beginning are required; every
/// other method has UIKit's default.
public protocol DragInteractionDelegate: AnyObject {
    /// UIKit's `dragInteraction(_:itemsForBeginning:)`: the items a lift at
    /// `session.location(in:)` drags. None: there is no drag (the lift fails, and the touch
    /// goes on to the view's other recognizers).
    func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem]
    /// UIKit's `dragInteraction(_:itemsForAddingTo:withTouchAt:)`: a tap on this view (at
    /// `point`, in its coordinates) while another drag is under way adds these items to it.
    /// Default none (the tap is not taken).
    func dragInteraction(_ interaction: DragInteraction, itemsForAddingTo session: DragSession,
                         withTouchAt point: Point) -> [DragItem]
    /// UIKit's `dragInteraction(_:sessionAllowsMoveOperation:)`. Default yes.
    func dragInteraction(_ interaction: DragInteraction, sessionAllowsMoveOperation session: DragSession) -> Bool
    /// The items lifted: the drag begins.
    func dragInteraction(_ interaction: DragInteraction, sessionWillBegin session: DragSession)
    /// The drag moved: `session.location(in:)` is where to draw its preview.
    func dragInteraction(_ interaction: DragInteraction, sessionDidMove session: DragSession)
    /// Items of this interaction's were added to `session` (by a tap on this view).
    func dragInteraction(_ interaction: DragInteraction, session: DragSession, willAdd items: [DragItem])
    /// The drag is about to end with `operation` (before a target's `performDrop`).
    func dragInteraction(_ interaction: DragInteraction, session: DragSession, willEndWith operation: DropOperation)
    /// UIKit's `dragInteraction(_:session:didEndWith:)`: the drag ended with `operation`:
    /// `.copy` or `.move` when a target took the items (remove them on a move), `.cancel`
    /// when it was dropped on no target, on one that proposed cancel or forbidden, or when its
    /// touch was cancelled.
    func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation)
}

extension DragInteractionDelegate {
    public func dragInteraction(_ interaction: DragInteraction, itemsForAddingTo session: DragSession,
                                withTouchAt point: Point) -> [DragItem] { [] }
    public func dragInteraction(_ interaction: DragInteraction, sessionAllowsMoveOperation session: DragSession) -> Bool { true }
    public func dragInteraction(_ interaction: DragInteraction, sessionWillBegin session: DragSession) {}
    public func dragInteraction(_ interaction: DragInteraction, sessionDidMove session: DragSession) {}
    public func dragInteraction(_ interaction: DragInteraction, session: DragSession, willAdd items: [DragItem]) {}
    public func dragInteraction(_ interaction: DragInteraction, session: DragSession, willEndWith operation: DropOperation) {}
    public func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation) {}
}

extension GestureDefaults {
    /// Drag: how long a touch or a pen must be held still before its item lifts. UIKit
    /// documents no figure for its lift (`UIDragInteraction.LiftBehavior.default`, "the
    /// standard lift timing parameters"); we take its documented long-press default, 0.5 s,
    /// so that a drag lifts exactly when a long press would begin.
    public static let dragLiftDelay: Duration = .milliseconds(500)
    /// Drag: how far a touch may travel before its lift, in points (UIKit's documented
    /// long-press `allowableMovement`, 10 pt): a touch that moves farther first is a scroll
    /// or a pan, and drags nothing.
    public static let dragLiftAllowableMovementPoints = 10.0
    /// Drag: how far a pressed pointer must move before its drag begins, in points. UIKit's
    /// pointer drags begin "as soon as the pointer crosses the minimum movement threshold"
    /// (`allowsPointerDragBeforeLiftDelay`) without naming it; GTK's default
    /// `gtk-dnd-drag-threshold` is 8 pixels, and we take it.
    public static let dragPointerThresholdPoints = 8.0
}

/// UIKit's `UIDragInteraction`: makes its view a drag source. A touch (or a pen) held still
/// on the view for `GestureDefaults.dragLiftDelay` lifts the items its delegate gives; a
/// pointer's primary button pressed on it and moved past
/// `GestureDefaults.dragPointerThresholdPoints` does at once. The drag then follows that
/// touch or pointer over the app's drop interactions and drops when it lifts.
///
/// It is built on recognizers, added to the view with the interaction: the lift (a
/// continuous recognizer, `"<view>.drag"`) arbitrates with the view's other recognizers as
/// any recognizer does (UIKit's `allowsSimultaneousRecognitionDuringLift` false: when it
/// begins, competing recognizers fail, and the view's touches are cancelled); a tap
/// (`"<view>.dragAddItems"`) takes a tap on the view during another drag and adds its items.
public final class DragInteraction: Interaction {
    public private(set) weak var view: View?
    /// Held weakly, as UIKit's.
    public weak var delegate: (any DragInteractionDelegate)?
    /// UIKit's `isEnabled`: a disabled interaction lifts nothing and adds nothing.
    public var isEnabled = true {
        didSet {
            liftRecognizer.isEnabled = isEnabled
            addItemsRecognizer.isEnabled = isEnabled
        }
    }
    /// How long a touch or pen is held still before the lift (`GestureDefaults.dragLiftDelay`).
    public var liftDelay: Duration {
        get { liftRecognizer.liftDelay }
        set { liftRecognizer.liftDelay = newValue }
    }

    /// The lift, and the tap that adds items to another drag.
    package let liftRecognizer: DragLiftGestureRecognizer
    package let addItemsRecognizer: TapGestureRecognizer
    private let addItemsGate: AddItemsGate

    public init(delegate: any DragInteractionDelegate) {
        self.delegate = delegate
        liftRecognizer = DragLiftGestureRecognizer()
        addItemsRecognizer = TapGestureRecognizer()
        addItemsGate = AddItemsGate()
        liftRecognizer.interaction = self
        addItemsGate.interaction = self
        addItemsRecognizer.delegate = addItemsGate
        liftRecognizer.addTarget { [weak self] lift in self?.liftChanged(lift) }
        addItemsRecognizer.addTarget { [weak self] tap in self?.addItemsTapped(tap) }
    }

    /// Leaving its view ends a drag it started, cancelled, here: the lift's own cancellation
    /// waits until the engine's arbitration is over when it is removed from a callback, and
    /// by then the interaction has no view to find its engine by.
    public func willMove(to view: View?) {
        guard let old = self.view else { return }
        if let engine = old.engine, let session = engine.dragAndDrop.session, session.sourceInteraction === self {
            engine.dragAndDrop.end(dropping: false, reason: "its drag interaction was removed", engine: engine)
        }
        old.removeGestureRecognizer(liftRecognizer)
        old.removeGestureRecognizer(addItemsRecognizer)
    }

    public func didMove(to view: View?) {
        self.view = view
        guard let view else { return }
        liftRecognizer.name = "\(view.debugName).drag"
        addItemsRecognizer.name = "\(view.debugName).dragAddItems"
        view.addGestureRecognizer(liftRecognizer)
        view.addGestureRecognizer(addItemsRecognizer)
    }

    /// The lift recognizer's action: it began (the items lift), moved, ended (a drop) or was
    /// cancelled.
    private func liftChanged(_ lift: DragLiftGestureRecognizer) {
        guard let engine = view?.engine else { return }
        let dnd = engine.dragAndDrop
        switch lift.state {
        case .began:
            guard let session = lift.pendingSession else { return }
            lift.pendingSession = nil
            dnd.begin(session, items: lift.itemsForBeginning, touch: lift.trackedTouch,
                      reason: lift.beganReason, engine: engine)
            lift.itemsForBeginning = []
        case .changed:
            dnd.move(to: lift.screenLocation, engine: engine)
        case .ended:
            dnd.move(to: lift.screenLocation, engine: engine)
            dnd.end(dropping: true, reason: "the touch lifted", engine: engine)
        case .cancelled:
            dnd.end(dropping: false, reason: "the touch was cancelled", engine: engine)
        case .possible, .failed:
            break
        }
    }

    /// The add-items tap's action: its items, asked for when it was about to recognize.
    private func addItemsTapped(_ tap: TapGestureRecognizer) {
        guard tap.state == .ended, let engine = view?.engine else { return }
        let items = addItemsGate.pending
        addItemsGate.pending = []
        engine.dragAndDrop.add(items, from: self, at: tap.location(in: nil), engine: engine)
    }

    /// The items the delegate gives for a lift at `location` (screen points), asked with a
    /// session that is not yet under way.
    func itemsForBeginning(at location: Point, engine: GestureEngine) -> (items: [DragItem], session: DragSession)? {
        guard let delegate else { return nil }
        let session = engine.dragAndDrop.makeSession(from: self, at: location)
        let items = delegate.dragInteraction(self, itemsForBeginning: session)
        return items.isEmpty ? nil : (items, session)
    }

    /// Says whether the add-items tap may recognize: a drag of another interaction's is under
    /// way, and the delegate gives items for the tap.
    private final class AddItemsGate: GestureRecognizerDelegate {
        weak var interaction: DragInteraction?
        var pending: [DragItem] = []

        func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
            pending = []
            guard let interaction, let view = interaction.view, let delegate = interaction.delegate,
                  let session = view.engine?.dragAndDrop.session,
                  session.sourceInteraction !== interaction, session.outcome == nil else { return false }
            pending = delegate.dragInteraction(interaction, itemsForAddingTo: session,
                                               withTouchAt: recognizer.location(in: view))
            return !pending.isEmpty
        }
    }
}

/// The lift of a drag interaction: continuous. On a touch or a pen it begins once the touch
/// has been held within `GestureDefaults.dragLiftAllowableMovementPoints` for `liftDelay`;
/// on a pointer once the pressed primary button has moved past
/// `GestureDefaults.dragPointerThresholdPoints`. It follows the touch that began it (later
/// touches are ignored: they belong to the view's other recognizers, or add items to the
/// drag on other views) and ends when it lifts. It fails when its delegate has no items, when
/// another drag is under way, and on a touchpad's contacts (a touchpad drags as a pointer,
/// by its click).
package final class DragLiftGestureRecognizer: GestureRecognizer {
    weak var interaction: DragInteraction?
    var liftDelay = GestureDefaults.dragLiftDelay

    /// One handler per state, as libinput's gesture code.
    private enum Phase {
        case idle
        /// A touch or pen is held, waiting for the lift delay.
        case holding(start: Instant)
        /// A pointer's button is pressed, waiting for it to move far enough.
        case pressed
        /// The drag is under way.
        case dragging
    }

    private var phase = Phase.idle
    private(set) var trackedTouch: TouchID?
    private var start = Point.zero
    private var current = Point.zero
    /// The delegate's items, asked for when the lift decided to begin, and the session they
    /// were asked with (its `localContext` may be set): taken by the action.
    var itemsForBeginning: [DragItem] = []
    var pendingSession: DragSession?
    private(set) var beganReason = ""
    /// Counts resets, to see one made while the delegate is asked for items.
    private var resets = 0

    package override var kind: Kind { .continuous }
    package override class var defaultNamePrefix: String { "drag" }
    package override var screenLocation: Point { current }

    package override var deadline: Instant? {
        if case let .holding(start) = phase { start + liftDelay } else { nil }
    }

    package override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        guard case .idle = phase, let touch = touches.first else {
            for t in touches { ignore(t) }
            return .none
        }
        for t in touches.dropFirst() { ignore(t) }
        trackedTouch = touch.id
        start = touch.location
        current = touch.location
        if let session = view?.engine?.dragAndDrop.session, session.outcome == nil {
            return .fail(.custom("drag session \(session.id) is under way"))
        }
        switch touch.deviceKind {
        case .touchscreen, .pen:
            phase = .holding(start: time)
        case .pointer:
            guard touch.buttonMask.contains(.primary) else {
                return .fail(.custom("a pointer drags with its primary button"))
            }
            phase = .pressed
        case .touchpad:
            return .fail(.custom("a touchpad's contacts do not drag (its click does, as a pointer)"))
        }
        return .none
    }

    package override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        guard let touch = touches.first(where: { $0.id == trackedTouch }) else { return .none }
        current = touch.location
        let moved = start.distance(to: current)
        switch phase {
        case .holding:
            let allowed = GestureDefaults.dragLiftAllowableMovementPoints
            return moved > allowed ? .fail(.movedTooFar(points: moved, allowed: allowed)) : .none
        case .pressed:
            let threshold = GestureDefaults.dragPointerThresholdPoints
            guard moved > threshold else { return .none }
            return lift(because: .panned(points: moved, threshold: threshold),
                        text: "pointer moved \(DecimalTextShort(moved)) pt > \(DecimalTextShort(threshold)) pt")
        case .dragging:
            return .change
        case .idle:
            return .none
        }
    }

    package override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        guard let touch = touches.first(where: { $0.id == trackedTouch }) else { return .none }
        current = touch.location
        switch phase {
        case let .holding(start):
            return .fail(.liftedBeforeDuration(held: time - start, required: liftDelay))
        case .pressed:
            return .fail(.touchesLiftedWithoutGesture)
        case .dragging:
            return .end(.touchesEnded)
        case .idle:
            return .none
        }
    }

    package override func touchesCancelled(_ touches: [Touch], at time: Instant) -> GestureDecision {
        guard touches.contains(where: { $0.id == trackedTouch }) else { return .none }
        if case .dragging = phase { return .cancel(.touchesCancelled) }
        return .fail(.touchesCancelled)
    }

    package override func deadlineReached(at time: Instant) -> GestureDecision {
        guard case let .holding(start) = phase else { return .none }
        let held = time - start
        return lift(because: .pressDurationReached(held: held, touches: 1),
                    text: "held \(DecimalTextShort(Double(held.components.seconds) + Double(held.components.attoseconds) / 1e18)) s")
    }

    /// Asks the delegate for the items; none fails the lift. A reset while it is asked (the
    /// interaction disabled or removed from there: the engine drops what this returns) leaves
    /// the reset state as it is.
    private func lift(because reason: TransitionReason, text: String) -> GestureDecision {
        let resetsBefore = resets
        let asked = interaction.flatMap { interaction in
            view?.engine.flatMap { interaction.itemsForBeginning(at: current, engine: $0) }
        }
        guard resets == resetsBefore else { return .none }
        guard let (items, session) = asked else {
            phase = .idle
            return .fail(.custom("the drag interaction's delegate gave no items"))
        }
        itemsForBeginning = items
        pendingSession = session
        beganReason = text
        phase = .dragging
        return .begin(reason)
    }

    package override func reset() {
        resets &+= 1
        phase = .idle
        trackedTouch = nil
        itemsForBeginning = []
        pendingSession = nil
    }
}

/// A number for a trace's words: at most two decimals.
func DecimalTextShort(_ x: Double) -> String { DecimalText.trimmed(x, digits: 2) }
