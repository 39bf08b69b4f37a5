import GestureKit

/// How a drag session the tester made came out: what the source was told
/// (`dragInteraction(_:session:didEndWith:)`), where it was dropped, and why.
public struct DragOutcome: Equatable, Sendable, CustomStringConvertible {
    /// `.copy` or `.move` when a target took the items, `.cancel` otherwise.
    public var operation: DropOperation
    /// The view dropped on (its `debugName`), nil when the drag was cancelled.
    public var target: String?
    /// How many items the session held at its end.
    public var items: Int
    /// Why it ended so, in the trace's words ("dropped on b", "the touch lifted over b,
    /// which proposed forbidden").
    public var reason: String

    public init(operation: DropOperation, target: String?, items: Int, reason: String) {
        self.operation = operation
        self.target = target
        self.items = items
        self.reason = reason
    }

    public var description: String {
        "\(operation.rawValue)\(target.map { " on \($0)" } ?? "") with \(items) item\(items == 1 ? "" : "s"): \(reason)"
    }
}

extension GestureTester {
    /// How the drag starts: a finger held for the lift (`touch`), or the mouse's primary
    /// button pressed and moved (`pointer`).
    public enum DragInput: Sendable {
        case touch
        case pointer
    }

    /// Drags from `source`'s centre (or `spot` in it) to `destination`'s (or `destinationSpot`
    /// in it) and drops, as a person does: by `.touch`, a finger held for the drag
    /// interaction's `liftDelay` plus `longPressMargin`, moved over `duration` and lifted; by
    /// `.pointer`, the mouse pressed, moved and released. Returns how the session ended.
    /// Throws when no drag session began (with the lift's account: why it failed).
    @discardableResult
    public func dragAndDrop(from source: View, at spot: Point? = nil, to destination: View, at destinationSpot: Point? = nil,
                            using input: DragInput = .touch, duration: Duration = .milliseconds(300)) throws -> DragOutcome {
        let start = try aim(at: source, point: spot)
        let end = try aim(at: destination, point: destinationSpot)
        return try dragAndDrop(from: start, to: end, using: input, duration: duration)
    }

    /// The same from `start` to `end` (screen points).
    @discardableResult
    public func dragAndDrop(from start: Point, to end: Point, using input: DragInput = .touch,
                            duration: Duration = .milliseconds(300)) throws -> DragOutcome {
        let first = records.count
        let drags = engine.hitTest(start).map(dragInteractions(at:)) ?? []
        switch input {
        case .touch:
            let delay = drags.map(\.liftDelay).max() ?? GestureDefaults.dragLiftDelay
            try longPress(at: start, duration: delay + GestureTester.longPressMargin, thenDragTo: end, dragDuration: duration)
        case .pointer:
            try mouseDrag(from: start, to: end, duration: duration)
        }
        let steps = records[first...].compactMap { if case let .drag(d) = $0 { d } else { nil } }
        guard let ended = steps.last(where: { $0.phase == .ended }) else {
            let lifts = drags.map { account(of: $0.liftRecognizer) }.joined(separator: "\n")
            throw GestureTestError.recognition(expected: "a drag session from \(fmtPoint(start)) to \(fmtPoint(end))",
                                               account: lifts.isEmpty ? "no drag interaction under \(fmtPoint(start))" : lifts)
        }
        let dropped = steps.last { $0.phase == .dropped && $0.session == ended.session }
        return DragOutcome(operation: ended.operation, target: dropped?.view?.debugName, items: ended.items, reason: ended.reason)
    }

    /// The drag interactions of `view` and its superviews, nearest first.
    private func dragInteractions(at view: View) -> [DragInteraction] {
        var result: [DragInteraction] = []
        var v: View? = view
        while let current = v {
            for case let drag as DragInteraction in current.interactions { result.append(drag) }
            v = current.superview
        }
        return result
    }

    private func fmtPoint(_ p: Point) -> String { "(\(p.x), \(p.y))" }
}
