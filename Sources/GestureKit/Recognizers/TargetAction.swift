/// UIKit's `init(target:action:)` for every built-in recognizer: the action is one of the
/// target's methods, named without calling it, and the target is held weakly, as UIKit
/// holds it (`GestureRecognizerTargets.addTarget(_:action:)`). Swift on Linux has no
/// selectors; an unapplied method reference is the same idea, checked by the compiler:
///
/// ```swift
/// let pan = PanGestureRecognizer(target: self, action: PhotoViewController.panPiece)
/// ```

extension TapGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (TapGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension LongPressGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (LongPressGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension PanGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (PanGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension PinchGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (PinchGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension RotationGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (RotationGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension SwipeGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (SwipeGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension ScreenEdgePanGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (ScreenEdgePanGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}

extension HoverGestureRecognizer {
    public convenience init<Target: AnyObject>(target: Target, action: @escaping (Target) -> (HoverGestureRecognizer) -> Void) {
        self.init()
        addTarget(target, action: action)
    }
}
