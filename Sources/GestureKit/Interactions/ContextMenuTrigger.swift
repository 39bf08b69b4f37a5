/// When a context menu opens (UIKit's `UIContextMenuInteraction`), as a value-type state
/// machine that returns what to do: the rule of the trigger, stated once here.
///
/// - A touch or a pen (one contact) held still lifts the preview at `liftDelay` and opens the
///   menu at `pressDuration`, both counted from touch-down; moving more than
///   `allowableMovement` before the menu opens, lifting, or a second contact fails it, so
///   the drag, the scroll or the tap under it goes on.
/// - A pointer's secondary button (a right click; a touchpad's two-finger click, which
///   libinput makes the secondary button) opens it at the press. The primary button held
///   still is a long press, as a touch is (iPadOS: a click held).
/// - Once open, the trigger follows its contacts until they lift (the menu stays open).
package struct ContextMenuTrigger: Sendable {
    package enum Phase: Sendable, Equatable {
        case idle
        /// Held still, before the lift.
        case pressing(start: Instant)
        /// The preview has lifted; the menu opens at `start + pressDuration`.
        case lifted(start: Instant)
        /// The menu is open (or the trigger is waiting to be let begin).
        case active
    }

    /// What the recognizer does after a call.
    package struct Output: Sendable, Equatable {
        /// The preview lifts now: ask the delegate for a menu.
        package var lift = false
        /// The menu opens now, by a secondary click: ask the delegate for a menu.
        package var secondaryClick = false
        package var decision = GestureDecision.none

        static let none = Output()
        static func decide(_ decision: GestureDecision) -> Output { Output(decision: decision) }
    }

    package var pressDuration = GestureDefaults.contextMenuPressDuration
    package var liftDelay = GestureDefaults.contextMenuLiftDelay
    package var allowableMovement = GestureDefaults.contextMenuAllowableMovementPoints

    package private(set) var phase = Phase.idle
    /// Whether the menu under way was opened by a secondary click (not a press).
    package private(set) var openedBySecondaryClick = false
    private var touches = TrackedTouches()
    package private(set) var location = Point.zero

    package init() {}

    package var deadline: Instant? {
        switch phase {
        case let .pressing(start): start + min(liftDelay, pressDuration)
        case let .lifted(start): start + pressDuration
        case .idle, .active: nil
        }
    }

    package mutating func touchesBegan(_ new: [Touch], at time: Instant) -> Output {
        for t in new { touches.add(t) }
        location = touches.centroid
        switch phase {
        case .active:
            return .none
        case .pressing, .lifted:
            return .decide(.fail(.tooManyTouches(count: touches.count, allowed: 1)))
        case .idle:
            guard touches.count == 1, let touch = new.first else {
                return .decide(.fail(.tooManyTouches(count: touches.count, allowed: 1)))
            }
            if touch.type == .indirectPointer && touch.buttonMask.contains(.secondary) {
                phase = .active
                openedBySecondaryClick = true
                return Output(secondaryClick: true, decision: .begin(.custom("secondary click")))
            }
            phase = .pressing(start: time)
            return .none
        }
    }

    package mutating func touchesMoved(_ moved: [Touch], at time: Instant) -> Output {
        let farthest = touches.update(moved)
        location = touches.centroid
        switch phase {
        case .pressing, .lifted:
            let allowed = allowableMovement * touches.distanceScale
            return farthest > allowed ? .decide(.fail(.movedTooFar(points: farthest, allowed: allowed))) : .none
        case .idle, .active:
            return .none
        }
    }

    package mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> Output {
        touches.update(lifted)
        location = touches.centroid
        touches.remove(lifted)
        switch phase {
        case let .pressing(start), let .lifted(start):
            return .decide(.fail(.liftedBeforeDuration(held: time - start, required: pressDuration)))
        case .active:
            return touches.isEmpty ? .decide(.end(.touchesEnded)) : .none
        case .idle:
            return .none
        }
    }

    package mutating func deadlineReached(at time: Instant) -> Output {
        switch phase {
        case let .pressing(start):
            phase = .lifted(start: start)
            guard time - start >= pressDuration else { return Output(lift: true) }
            phase = .active
            return Output(lift: true, decision: .begin(.pressDurationReached(held: time - start, touches: 1)))
        case let .lifted(start):
            phase = .active
            return .decide(.begin(.pressDurationReached(held: time - start, touches: 1)))
        case .idle, .active:
            return .none
        }
    }

    package mutating func reset() {
        phase = .idle
        openedBySecondaryClick = false
        touches.removeAll()
    }
}

extension GestureDefaults {
    /// Context menu: how long a touch or a pen must be held still before the menu opens,
    /// from touch-down: 0.5 s, UIKit's documented long-press duration
    /// (`UILongPressGestureRecognizer.minimumPressDuration`) and the Human Interface
    /// Guidelines' figure for a long press. Apple documents no separate figure for
    /// `UIContextMenuInteraction`.
    public static let contextMenuPressDuration: Duration = .milliseconds(500)
    /// Context menu: when the preview lifts (UIKit's highlight, the moment before the menu),
    /// from touch-down: 0.25 s. Apple documents no figure; developers measure UIKit's context
    /// menus reacting to a press after about 0.25 s (Apple Developer Forums, "Context menu
    /// long press duration"), half the press duration.
    public static let contextMenuLiftDelay: Duration = .milliseconds(250)
    /// Context menu: how far a touch may travel before the menu opens, in points: 10, the
    /// long press's documented allowable movement, which is also the pan's threshold, so a
    /// drag or a scroll that starts under the finger takes over.
    public static let contextMenuAllowableMovementPoints = 10.0
}
