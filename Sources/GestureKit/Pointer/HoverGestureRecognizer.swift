/// UIKit's `UIHoverGestureRecognizer`: continuous, driven by the pointer with no button
/// pressed. `began` when the pointer enters its view (the view under the pointer is its view
/// or one inside it), `changed` as it moves inside, `ended` when it leaves (or a button is
/// pressed), `cancelled` when the pointer's device goes away. Touches never hover: it sees
/// none (`allowedTouchTypes` is empty).
public final class HoverGestureRecognizer: GestureRecognizer, BuiltInRecognizer {
    public override var kind: Kind { .continuous }
    public override class var defaultNamePrefix: String { "hover" }

    /// The pointer's location, in screen points, at the last event the recognizer took.
    public private(set) var pointerLocation = Point.zero

    public init(name: String? = nil, action: ((HoverGestureRecognizer) -> Void)? = nil) {
        super.init(name: name)
        allowedTouchTypes = []
        if let action { addTarget(action) }
    }

    public override var screenLocation: Point { pointerLocation }

    /// The pointer is at `location`, inside the view or not, with no button pressed.
    func pointerMoved(to location: Point, inside: Bool) -> GestureDecision {
        switch (state.isActive, inside) {
        case (false, true):
            pointerLocation = location
            return .begin(.pointerEntered)
        case (true, true):
            pointerLocation = location
            return .change
        case (true, false):
            pointerLocation = location
            return .end(.pointerLeft)
        case (false, false):
            return .none
        }
    }

    /// A button was pressed: hovering stops.
    func buttonPressed() -> GestureDecision {
        state.isActive ? .end(.pointerButtonPressed) : .none
    }

    /// The pointer's device went away.
    func pointerGone(_ device: InputDeviceID) -> GestureDecision {
        state.isActive ? .cancel(.deviceRemoved(device)) : .none
    }
}
