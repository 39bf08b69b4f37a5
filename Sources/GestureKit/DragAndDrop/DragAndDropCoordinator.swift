/// The engine's drag session, and the rules that run it (stated once, here):
///
/// 1. One session at a time per engine. It begins when a drag interaction's lift begins
///    (its recognizer's `began`), with the items its delegate gave; a lift while another
///    session is under way fails.
/// 2. At every move of the drag, the target is found as touches are: the front-most view
///    under the drag's location (`GestureEngine.hitTest`), then up its superviews to the
///    first with an enabled drop interaction whose delegate can handle the session. A new
///    target is entered (after the old one is exited); the target's proposal is asked at
///    every move. `.move` for a session that does not allow it counts as `.cancel` (UIKit).
/// 3. The drag ends when its touch lifts: over a target proposing `.copy` or `.move`, the
///    source is told it will end with that operation, the target performs the drop, the
///    source is told it ended with it, the target concludes. Anywhere else (no target, or a
///    target proposing `.cancel` or `.forbidden`), or when the touch is cancelled, the
///    target under it is exited and the source is told `.cancel`. Every target that saw
///    the session is then told it ended.
/// 4. A tap on another drag interaction's view during the session adds that delegate's
///    items (`itemsForAddingTo`).
///
/// Every step is traced (`GestureTraceEvent.drag`) with what caused it.
///
/// The delegates' callbacks may call any public API, this coordinator's ways in included (a
/// source removed, a target disabled, a drag interaction's view removed): a session that is
/// ending (`DragSession.isEnding`) neither moves, takes items, loses its target nor ends
/// again, so each delegate hears its session end once.
package final class DragAndDropCoordinator {
    /// The session under way, or the one that just ended (until the next begins).
    package private(set) var session: DragSession?
    private var nextID = 1
    /// The targets the session has been over, to tell each that it ended.
    private var seen: [WeakDropInteraction] = []

    private struct WeakDropInteraction {
        weak var interaction: DropInteraction?
    }

    init() {}

    /// A session for `interaction`'s delegate to fill, not under way yet.
    func makeSession(from interaction: DragInteraction, at location: Point) -> DragSession {
        DragSession(id: nextID, origin: .local(interaction), items: [], location: location, allowsMoveOperation: true)
    }

    /// Rule 1: the lift began.
    func begin(_ new: DragSession, items: [DragItem], touch: TouchID?, reason: String, engine: GestureEngine) {
        guard let interaction = new.sourceInteraction else { return }
        nextID = max(nextID, new.id + 1)
        new.add(items)
        new.touch = touch
        new.allowsMoveOperation = interaction.delegate?.dragInteraction(interaction, sessionAllowsMoveOperation: new) ?? true
        session = new
        seen = []
        trace(.began, new, view: interaction.view, reason: reason, engine: engine)
        interaction.delegate?.dragInteraction(interaction, sessionWillBegin: new)
        move(to: new.location, engine: engine)
    }

    /// A system drag (another app's, through the compositor) came over the app at
    /// `location`: a session whose items load their data when dropped.
    package func beginSystemDrag(items: [DragItem], at location: Point, engine: GestureEngine) -> DragSession {
        if let old = session, old.outcome == nil { end(dropping: false, reason: "another drag came in", engine: engine) }
        let new = DragSession(id: nextID, origin: .system, items: items, location: location, allowsMoveOperation: false)
        nextID += 1
        session = new
        seen = []
        trace(.began, new, view: nil, reason: "a drag from another app entered", engine: engine)
        move(to: location, engine: engine)
        return new
    }

    /// Rule 4.
    func add(_ items: [DragItem], from interaction: DragInteraction, at location: Point, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, !items.isEmpty else { return }
        interaction.delegate?.dragInteraction(interaction, session: session, willAdd: items)
        session.add(items)
        trace(.added, session, view: interaction.view, at: location,
              reason: "a tap added \(items.count) item\(items.count == 1 ? "" : "s")", engine: engine)
    }

    /// Rule 2: the drag is at `location` (screen points).
    package func move(to location: Point, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, location.isFinite else { return }
        session.location = location
        let target = dropTarget(at: location, for: session, engine: engine)
        if let old = session.target, old !== target {
            session.target = nil
            session.operation = .cancel
            trace(.exited, session, view: old.view, reason: "the drag left it", engine: engine)
            old.delegate?.dropInteraction(old, sessionDidExit: session)
        }
        if let target, session.target !== target {
            session.target = target
            if !seen.contains(where: { $0.interaction === target }) { seen.append(WeakDropInteraction(interaction: target)) }
            trace(.entered, session, view: target.view, reason: "the drag came over it", engine: engine)
            target.delegate?.dropInteraction(target, sessionDidEnter: session)
        }
        var reason = "over no drop target"
        if let target = session.target, let delegate = target.delegate {
            var operation = delegate.dropInteraction(target, sessionDidUpdate: session).operation
            reason = "\(target.view?.debugName ?? "a removed view") proposed \(operation.rawValue)"
            if operation == .move && !session.allowsMoveOperation {
                operation = .cancel
                reason += ", which this session does not allow: cancel"
            }
            session.operation = operation
        } else {
            session.operation = .cancel
        }
        trace(.moved, session, view: session.target?.view, reason: reason, engine: engine)
        if let source = session.sourceInteraction {
            source.delegate?.dragInteraction(source, sessionDidMove: session)
        }
    }

    /// Rule 3: the drag's touch lifted (`dropping`) or was cancelled.
    package func end(dropping: Bool, reason: String, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding else { return }
        session.isEnding = true
        defer { session.isEnding = false }
        let source = session.sourceInteraction
        let target = session.target
        let operation = dropping && target != nil ? session.operation : .cancel
        if operation.performsDrop, let target {
            source?.delegate?.dragInteraction(source!, session: session, willEndWith: operation)
            trace(.dropped, session, view: target.view, reason: "\(reason) over it: \(operation.rawValue)", engine: engine)
            target.delegate?.dropInteraction(target, performDrop: session)
            session.outcome = operation
            trace(.ended, session, view: source?.view, reason: "dropped on \(target.view?.debugName ?? "a removed view")", engine: engine)
            source?.delegate?.dragInteraction(source!, session: session, didEndWith: operation)
            target.delegate?.dropInteraction(target, concludeDrop: session)
        } else {
            let why: String
            if !dropping { why = reason }
            else if let target { why = "\(reason) over \(target.view?.debugName ?? "a removed view"), which proposed \(session.operation.rawValue)" }
            else { why = "\(reason) over no drop target" }
            if let target {
                session.target = nil
                trace(.exited, session, view: target.view, reason: "the drag ended without a drop", engine: engine)
                target.delegate?.dropInteraction(target, sessionDidExit: session)
            }
            source?.delegate?.dragInteraction(source!, session: session, willEndWith: .cancel)
            session.outcome = .cancel
            session.operation = .cancel
            trace(.ended, session, view: source?.view, reason: why, engine: engine)
            source?.delegate?.dragInteraction(source!, session: session, didEndWith: .cancel)
        }
        for entry in seen {
            if let t = entry.interaction { t.delegate?.dropInteraction(t, sessionDidEnd: session) }
        }
        seen = []
    }

    /// A drop interaction left its view: if the drag is over it, it is exited.
    func dropInteractionRemoved(_ interaction: DropInteraction, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, session.target === interaction else { return }
        session.target = nil
        session.operation = .cancel
        trace(.exited, session, view: interaction.view, reason: "its drop interaction was removed", engine: engine)
        interaction.delegate?.dropInteraction(interaction, sessionDidExit: session)
    }

    /// Rule 2's search.
    private func dropTarget(at location: Point, for session: DragSession, engine: GestureEngine) -> DropInteraction? {
        var view = engine.hitTest(location)
        while let v = view {
            for case let drop as DropInteraction in v.interactions where drop.isEnabled {
                if let delegate = drop.delegate, delegate.dropInteraction(drop, canHandle: session) { return drop }
            }
            view = v.superview
        }
        return nil
    }

    private func trace(_ phase: DragTraceEvent.Phase, _ session: DragSession, view: View?, at location: Point? = nil,
                       reason: String, engine: GestureEngine) {
        guard engine.traceHandler != nil || engine.logger.logLevel <= .debug else { return }
        engine.emit(.drag(DragTraceEvent(time: engine.now, session: session.id, phase: phase, view: view,
                                         location: location ?? session.location, items: session.items.count,
                                         operation: session.outcome ?? session.operation, reason: reason)))
    }
}

/// One step of a drag session, as the engine traces it (`GestureTraceEvent.drag`) and the
/// replay prints it (REPLAY.md's `drag` lines).
public struct DragTraceEvent {
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        /// The items lifted (the source's view).
        case began
        /// A tap added items (the view tapped).
        case added
        /// The drag is over a target (its view), or over none: where its preview is.
        case moved
        /// The drag came over a drop target (its view).
        case entered
        /// The drag left a drop target (its view), or ended over it without a drop.
        case exited
        /// The items were dropped on a target (its view).
        case dropped
        /// The session ended (the source's view), with `operation`.
        case ended
    }

    public let time: Instant
    /// The session's number within the engine.
    public let session: Int
    public let phase: Phase
    /// The view concerned (see each phase), nil for none.
    public let view: View?
    /// Where the drag is, in screen points.
    public let location: Point
    /// How many items the session holds.
    public let items: Int
    /// The proposal of the target under the drag (`.cancel` over none); at `ended`, the
    /// operation the session ended with.
    public let operation: DropOperation
    /// Why, in words ("held 0.5 s", "b proposed forbidden").
    public let reason: String
}
