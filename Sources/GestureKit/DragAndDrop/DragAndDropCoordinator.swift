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
/// 5. Between apps, where a backend carries drags through the compositor (`systemDrags`, a
///    Wayland data device): a drag of the app's whose location leaves its window is handed
///    to the compositor (`SystemDragPort.carriesOut`): the target under it is exited, and
///    from then on its touch neither moves nor ends it (the compositor holds the pointer or
///    touch). The compositor's word ends it (`systemDragEnded`: the operation the app it was
///    dropped on performed, or cancel). If it comes back over the app's window, the
///    compositor's positions move it (`systemDragEntered`, `systemDragMoved`) and its drop
///    there is rule 3's. A drag from another app is a session with no source interaction,
///    moved by the compositor, dropped by it (rule 3; its items' data loads through their
///    providers), or ended without a drop when it leaves the window (`systemDragLeft`).
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

    /// The backend that carries a drag out of the app's window, if any (rule 5).
    package weak var systemDrags: (any SystemDragPort)?

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

    /// Rule 5: the compositor's drag came over the app's window at `location`: the app's own
    /// drag coming back (it goes on), or another app's: a new session of `items`, whose data
    /// loads when they are dropped.
    package func systemDragEntered(items: () -> [DragItem], at location: Point, engine: GestureEngine) -> DragSession {
        if let own = session, own.outcome == nil, !own.isEnding, own.isCarriedBySystem, own.sourceInteraction != nil {
            trace(.moved, own, view: nil, reason: "the drag came back over the window", engine: engine)
            moveSession(own, to: location, engine: engine)
            return own
        }
        if let old = session, old.outcome == nil { finish(old, dropping: false, reason: "another drag came in", engine: engine) }
        let new = DragSession(id: nextID, origin: .system, items: items(), location: location, allowsMoveOperation: false)
        new.isCarriedBySystem = true
        nextID += 1
        session = new
        seen = []
        trace(.began, new, view: nil, reason: "a drag from another app entered", engine: engine)
        moveSession(new, to: location, engine: engine)
        return new
    }

    /// Rule 5: the compositor moved its drag over the app's window.
    package func systemDragMoved(to location: Point, engine: GestureEngine) {
        guard let session, session.isCarriedBySystem else { return }
        moveSession(session, to: location, engine: engine)
    }

    /// Rule 5: the compositor's drag left the app's window: the app's own drag is carried on
    /// (the target under it exited); another app's ends without a drop here.
    package func systemDragLeft(engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, session.isCarriedBySystem else { return }
        if session.sourceInteraction == nil {
            finish(session, dropping: false, reason: "the drag left the window", engine: engine)
        } else {
            exitTarget(of: session, reason: "the drag left the window", engine: engine)
            trace(.moved, session, view: nil, reason: "the drag left the window: the compositor carries it", engine: engine)
        }
    }

    /// Rule 5: the compositor dropped its drag on the app's window (rule 3 with its target);
    /// the operation performed, `.cancel` for none.
    package func systemDragDropped(engine: GestureEngine) -> DropOperation {
        guard let session, session.outcome == nil, !session.isEnding, session.isCarriedBySystem else { return .cancel }
        finish(session, dropping: true, reason: "the compositor dropped it", engine: engine)
        return session.outcome ?? .cancel
    }

    /// Rule 5: the compositor ended the app's own drag, carried out of its window: dropped on
    /// another app, which performed `operation`, or cancelled (`.cancel`).
    package func systemDragEnded(with operation: DropOperation, reason: String, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, session.isCarriedBySystem,
              let source = session.sourceInteraction else { return }
        session.isEnding = true
        defer { session.isEnding = false }
        let outcome: DropOperation = operation.performsDrop ? operation : .cancel
        source.delegate?.dragInteraction(source, session: session, willEndWith: outcome)
        session.outcome = outcome
        session.operation = outcome
        trace(.ended, session, view: source.view, reason: reason, engine: engine)
        source.delegate?.dragInteraction(source, session: session, didEndWith: outcome)
        tellSeenTargetsEnded(session)
    }

    /// Rule 4.
    func add(_ items: [DragItem], from interaction: DragInteraction, at location: Point, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, !items.isEmpty else { return }
        interaction.delegate?.dragInteraction(interaction, session: session, willAdd: items)
        session.add(items)
        trace(.added, session, view: interaction.view, at: location,
              reason: "a tap added \(items.count) item\(items.count == 1 ? "" : "s")", engine: engine)
    }

    /// Rule 2: the drag's touch is at `location` (screen points). Rule 5: a drag leaving the
    /// window there is handed to the compositor, if a backend carries drags.
    package func move(to location: Point, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, !session.isCarriedBySystem,
              location.isFinite else { return }
        session.location = location
        if let port = systemDrags, session.sourceInteraction != nil, port.carriesOut(session) {
            session.isCarriedBySystem = true
            exitTarget(of: session, reason: "the drag left the window", engine: engine)
            trace(.moved, session, view: nil, reason: "the drag left the window: the compositor carries it", engine: engine)
            if let source = session.sourceInteraction {
                source.delegate?.dragInteraction(source, sessionDidMove: session)
            }
            return
        }
        moveSession(session, to: location, engine: engine)
    }

    /// Rule 2, for a touch's move or the compositor's.
    private func moveSession(_ session: DragSession, to location: Point, engine: GestureEngine) {
        guard session.outcome == nil, !session.isEnding, location.isFinite else { return }
        session.location = location
        let target = dropTarget(at: location, for: session, engine: engine)
        if let old = session.target, old !== target {
            exitTarget(of: session, reason: "the drag left it", engine: engine)
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

    /// Rule 3: the drag's touch lifted (`dropping`) or was cancelled. Rule 5: not while the
    /// compositor carries the drag.
    package func end(dropping: Bool, reason: String, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, !session.isCarriedBySystem else { return }
        finish(session, dropping: dropping, reason: reason, engine: engine)
    }

    /// The session's target is exited (nothing when it has none).
    private func exitTarget(of session: DragSession, reason: String, engine: GestureEngine) {
        guard let old = session.target else { return }
        session.target = nil
        session.operation = .cancel
        trace(.exited, session, view: old.view, reason: reason, engine: engine)
        old.delegate?.dropInteraction(old, sessionDidExit: session)
    }

    /// Every target that saw the session is told it ended.
    private func tellSeenTargetsEnded(_ session: DragSession) {
        for entry in seen {
            if let t = entry.interaction { t.delegate?.dropInteraction(t, sessionDidEnd: session) }
        }
        seen = []
    }

    /// Rule 3.
    private func finish(_ session: DragSession, dropping: Bool, reason: String, engine: GestureEngine) {
        guard session.outcome == nil, !session.isEnding else { return }
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
        tellSeenTargetsEnded(session)
    }

    /// A drop interaction left its view: if the drag is over it, it is exited.
    func dropInteractionRemoved(_ interaction: DropInteraction, engine: GestureEngine) {
        guard let session, session.outcome == nil, !session.isEnding, session.target === interaction else { return }
        session.target = nil
        session.operation = .cancel
        trace(.exited, session, view: interaction.view, reason: "its drop interaction was removed", engine: engine)
        interaction.delegate?.dropInteraction(interaction, sessionDidExit: session)
    }

    /// Rule 5's way out of the app: the data of a MIME type the compositor asks of the app's
    /// own drag (a `text/uri-list` joins every item's lines; any other type is the first
    /// item's that has it), or why there is none. `completion` runs once.
    package static func data(of session: DragSession, for type: ContentType,
                              completion: @escaping (Result<[UInt8], ItemProviderError>) -> Void) {
        let providers = session.items.map(\.itemProvider).filter { $0.hasRepresentation(conformingTo: type) }
        guard let first = providers.first else {
            completion(.failure(.noRepresentation(type, offered: session.contentTypes)))
            return
        }
        guard type.conforms(to: .uriList), providers.count > 1 else {
            first.loadData(for: type, completion: completion)
            return
        }
        var parts = [[UInt8]?](repeating: nil, count: providers.count)
        var remaining = providers.count
        var failure: ItemProviderError?
        for (i, provider) in providers.enumerated() {
            provider.loadData(for: type) { result in
                switch result {
                case let .success(bytes): parts[i] = bytes
                case let .failure(error): failure = failure ?? error
                }
                remaining -= 1
                guard remaining == 0 else { return }
                if let failure { return completion(.failure(failure)) }
                var joined: [UInt8] = []
                for part in parts {
                    joined += part ?? []
                    if let last = joined.last, last != 0x0A { joined += [0x0D, 0x0A] }
                }
                completion(.success(joined))
            }
        }
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

/// A backend that carries the app's drags out of its window, through the compositor (rule 5
/// of `DragAndDropCoordinator`): a Wayland data device.
package protocol SystemDragPort: AnyObject {
    /// Whether `session`, at its location (screen points), has left the app's window and the
    /// compositor now carries it: the port has started a drag of its items' content types.
    func carriesOut(_ session: DragSession) -> Bool
}
