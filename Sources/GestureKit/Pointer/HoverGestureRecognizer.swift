/// UIKit's `UIHoverGestureRecognizer`: continuous, driven by the pointer with no button
/// pressed, and by a pen in proximity with its tip up. `began` when the pointer enters its
/// view (the view under the pointer is its view or one inside it), `changed` as it moves
/// inside, `ended` when it leaves (or a button is pressed, the pen touches down or leaves
/// proximity), `cancelled` when the device it follows goes away. Touches never hover: it
/// sees none (`allowedTouchTypes` is empty).
public final class HoverGestureRecognizer: GestureRecognizer, BuiltInRecognizer {
    public override var kind: Kind { .continuous }
    public override class var defaultNamePrefix: String { "hover" }
    var isSubclassed: Bool { false }

    /// The pointer's location, in screen points, at the last event the recognizer took.
    public private(set) var pointerLocation = Point.zero

    /// A hover recognizer; no touch type is allowed (touches never hover).
    public override init(name: String? = nil) {
        super.init(name: name)
        allowedTouchTypes = []
    }

    public convenience init(name: String? = nil, action: ((HoverGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        if let action { addTarget(action) }
    }

    /// What hovers: a pen's sample (its zOffset, angles, tool), or `PenSample.upright` for
    /// the mouse pointer.
    public private(set) var hoverSample = PenSample.upright

    public override var screenLocation: Point { pointerLocation }

    /// UIKit's `zOffset`: a hovering pen's height above the surface, 0 at the surface to 1
    /// at the edge of proximity; 0 for the pointer and for a pen that reports no distance.
    public var zOffset: Double { hoverSample.zOffset ?? 0 }

    /// UIKit's `altitudeAngle`: the hovering pen's angle to the surface (π/2 upright, and for
    /// the pointer).
    public var altitudeAngle: Double { hoverSample.altitudeAngle }

    /// UIKit's `azimuthAngle(in:)`: the direction the hovering pen leans, in `view`'s
    /// coordinates (screen coordinates when nil); 0 for the pointer.
    public func azimuthAngle(in view: View?) -> Double {
        Touch.azimuth(hoverSample.azimuthAngle, in: view)
    }

    /// The pointer is at `location`, inside the view or not, with no button pressed (`pen`:
    /// a hovering pen's sample; nil for the pointer).
    func pointerMoved(to location: Point, inside: Bool, pen: PenSample?) -> GestureDecision {
        switch (state.isActive, inside) {
        case (false, true):
            pointerLocation = location
            hoverSample = pen ?? .upright
            return .begin(.pointerEntered)
        case (true, true):
            pointerLocation = location
            hoverSample = pen ?? .upright
            return .change
        case (true, false):
            pointerLocation = location
            hoverSample = pen ?? .upright
            return .end(.pointerLeft)
        case (false, false):
            return .none
        }
    }

    /// The pointer's device went away.
    func pointerGone(_ device: InputDeviceID) -> GestureDecision {
        state.isActive ? .cancel(.deviceRemoved(device)) : .none
    }
}
