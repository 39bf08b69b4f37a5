import GestureFormat

/// What the engine reports as it works: every recognizer transition with its reason, every
/// delivery of touches to a view, and input it had to set aside. The replay tool prints
/// these; apps can log them to answer "why did my tap fail?".
public enum GestureTraceEvent {
    case transition(Transition)
    case delivery(Delivery)
    /// A recognizer decided on a transition but waits for another to fail first.
    case waiting(time: Instant, recognizer: GestureRecognizer, reason: TransitionReason)
    /// Input the engine did not use, and why (an unknown touch ended, NaN coordinates...).
    case inputIgnored(time: Instant, reason: String)
    /// A mistake in how the app wired its recognizers, refused (a `require(toFail:)` that
    /// would close a cycle). Also logged at error level.
    case programmingError(time: Instant, message: String)
    /// A pen frame the engine took, before what it caused (REPLAY.md's `pen` lines).
    case pen(PenEvent)
    /// A context menu interaction changed state: the preview lifted or dropped, the menu
    /// opened or closed (ContextMenuInteraction.swift).
    case contextMenu(ContextMenuTransition)
    /// A step of a drag session (REPLAY.md's `drag` lines): lifted, moved over a target,
    /// dropped, ended.
    case drag(DragTraceEvent)

    public struct Transition {
        public let time: Instant
        public let recognizer: GestureRecognizer
        public let from: GestureRecognizer.State
        public let to: GestureRecognizer.State
        public let reason: TransitionReason
        /// The gesture's location in the recognizer's view coordinates.
        public let location: Point
        public let values: GestureValues
        /// The modifier keys held at the event (UIKit's `modifierFlags`).
        public let modifierFlags: ModifierFlags
    }

    public struct Delivery {
        public let time: Instant
        public let view: View
        public let phase: TouchPhase
        public let touches: [Touch]
    }

    public var time: Instant {
        switch self {
        case let .transition(t): t.time
        case let .delivery(d): d.time
        case let .waiting(time, _, _): time
        case let .inputIgnored(time, _): time
        case let .programmingError(time, _): time
        case let .pen(event): event.time
        case let .contextMenu(t): t.time
        case let .drag(event): event.time
        }
    }
}

extension GestureTraceEvent: CustomStringConvertible {
    /// One readable line: time, who, what, why, values.
    public var description: String {
        switch self {
        case let .transition(t):
            var line = "\(formatTime(t.time))  \(t.recognizer.name): \(t.from.rawValue) → \(t.to.rawValue) (\(t.reason))"
            line += "  at (\(fmt(t.location.x)), \(fmt(t.location.y)))"
            t.values.forEachField { field in
                switch field.value {
                case let .number(n): line += " \(field.key) \(fmt(n))\(field.traceUnit)"
                case let .pair(p): line += " \(field.key) (\(fmt(p.x)), \(fmt(p.y)))\(field.traceUnit)"
                }
            }
            if !t.modifierFlags.isEmpty { line += " with \(t.modifierFlags)" }
            return line
        case let .delivery(d):
            return "\(formatTime(d.time))  view \(d.view.debugName): \(d.phase.callbackName) \(d.touches.map { String($0.id.rawValue) }.joined(separator: ","))"
        case let .waiting(time, r, reason):
            return "\(formatTime(time))  \(r.name): possible, \(reason)"
        case let .inputIgnored(time, reason):
            return "\(formatTime(time))  input ignored: \(reason)"
        case let .programmingError(time, message):
            return "\(formatTime(time))  programming error: \(message)"
        case let .contextMenu(t):
            var line = "\(formatTime(t.time))  \(t.interaction.name): menu \(t.from.rawValue) → \(t.to.rawValue) (\(t.reason))"
            line += "  at (\(fmt(t.location.x)), \(fmt(t.location.y)))"
            if let menu = t.menu { line += " actions \(menu.actions.map(\.action.identifier).joined(separator: ", "))" }
            return line
        case let .pen(p):
            return "\(formatTime(p.time))  pen \(p.phase.rawValue) of \(p.device) at (\(fmt(p.location.x)), \(fmt(p.location.y))) force \(fmt(p.sample.force))"
        case let .drag(d):
            return "\(formatTime(d.time))  drag \(d.session) \(d.phase.rawValue)\(d.view.map { " " + $0.debugName } ?? "") at (\(fmt(d.location.x)), \(fmt(d.location.y))) items \(d.items) \(d.operation.rawValue) (\(d.reason))"
        }
    }
}

/// Seconds with microsecond precision, e.g. "0.300000".
public func formatTime(_ t: Instant) -> String { DecimalText.seconds(nanoseconds: t.nanoseconds) }

extension TouchPhase {
    /// The view callback a delivery of this phase calls ("touchesBegan").
    public var callbackName: String {
        switch self {
        case .began: "touchesBegan"
        case .moved: "touchesMoved"
        case .ended: "touchesEnded"
        case .cancelled: "touchesCancelled"
        }
    }
}
