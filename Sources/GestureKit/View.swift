/// A rectangle on the screen that receives touches, with subviews and gesture
/// recognizers: the part of UIKit's `UIView` that input needs.
///
/// Subclass it and override the `touches…` methods to receive touches that no recognizer
/// claimed, or set `onTouches`.
open class View {
    /// An identifier for traces (the scene's view id).
    public var id: String
    /// The view's frame in its superview's coordinates (screen coordinates for a root).
    public var frame: Rect
    /// The origin of the view's own coordinate space: scrolling moves it (UIKit's
    /// `bounds.origin`).
    public var boundsOrigin: Point = .zero
    public var isUserInteractionEnabled = true
    public var isHidden = false
    /// UIKit's `isExclusiveTouch`: while a touch is down on this view, a touch that lands
    /// on any other view reaches neither that view nor its recognizers; and a touch that
    /// lands on this view while another view is touched reaches nothing either. Both are
    /// reported as ignored input. Default false.
    public var isExclusiveTouch = false
    /// UIKit's `isMultipleTouchEnabled`: when false, a touch that lands on this view while
    /// another of its touches is down is not delivered to the view (its recognizers still
    /// see it: a two-finger pinch on the view works). Default true here — UIKit's default
    /// is false — so that views see every touch unless they ask otherwise.
    public var isMultipleTouchEnabled = true

    public private(set) weak var superview: View?
    public private(set) var subviews: [View] = []
    public private(set) var gestureRecognizers: [GestureRecognizer] = []

    /// Called for every delivery of touches to this view, after the overridable methods.
    public var onTouches: ((View, TouchPhase, [Touch]) -> Void)?

    /// The engine the view's root was added to, if any: where its animations ask for frames
    /// (`addDisplayLink`).
    public var gestureEngine: GestureEngine? { engine }

    weak var engine: GestureEngine? {
        didSet {
            guard engine !== oldValue else { return }
            for r in gestureRecognizers {
                oldValue?.unregister(r)
                engine?.register(r)
            }
            for v in subviews { v.engine = engine }
        }
    }

    public init(id: String, frame: Rect) {
        self.id = id
        self.frame = frame
    }

    // MARK: Tree

    /// Adds `view` in front of the existing subviews.
    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
        view.engine = engine
    }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        engine = nil
    }

    /// Whether `self` is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    // MARK: Recognizers

    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        if let old = recognizer.view, old !== self { old.removeGestureRecognizer(recognizer) }
        guard !gestureRecognizers.contains(where: { $0 === recognizer }) else { return }
        gestureRecognizers.append(recognizer)
        recognizer.view = self
        engine?.register(recognizer)
    }

    /// Detaches `recognizer`; one in the middle of a gesture is cancelled (or failed).
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard let index = gestureRecognizers.firstIndex(where: { $0 === recognizer }) else { return }
        engine?.recognizerWillBeRemoved(recognizer)
        gestureRecognizers.remove(at: index)
        recognizer.view = nil
        engine?.unregister(recognizer)
    }

    // MARK: Geometry

    /// The view's frame origin in screen coordinates, minus its bounds origin: what to
    /// subtract from a screen point to get a point in this view.
    var screenOffset: Point {
        var offset = frame.origin - boundsOrigin
        var v = superview
        while let parent = v {
            offset = offset + parent.frame.origin - parent.boundsOrigin
            v = parent.superview
        }
        return offset
    }

    /// Converts a point in screen coordinates into this view's coordinates.
    public func convertFromScreen(_ point: Point) -> Point {
        point - screenOffset
    }

    /// Converts a point in this view's coordinates into screen coordinates.
    public func convertToScreen(_ point: Point) -> Point {
        point + screenOffset
    }

    /// The view's bounds in its own coordinates.
    public var bounds: Rect { Rect(origin: boundsOrigin, size: frame.size) }

    /// Whether `point` (in this view's coordinates) is inside the view.
    open func point(inside point: Point) -> Bool {
        bounds.contains(point)
    }

    /// The front-most descendant (or self) that contains `point` (in this view's
    /// coordinates) and takes touches: hidden views and views with user interaction
    /// disabled are skipped with their subviews; later subviews are in front.
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, isUserInteractionEnabled, self.point(inside: point) else { return nil }
        for child in subviews.reversed() {
            let p = point - child.frame.origin + child.boundsOrigin
            if let hit = child.hitTest(p) { return hit }
        }
        return self
    }

    // MARK: Touch delivery (UIResponder)

    /// UIKit's `UIView.gestureRecognizerShouldBegin(_:)`: asked of a recognizer's view when
    /// the recognizer is about to leave `possible`, before its delegate; no makes it fail.
    /// Default yes. (A control that wants its own touches says no to an ancestor's pan.)
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool { true }

    open func touchesBegan(_ touches: [Touch]) {}
    open func touchesMoved(_ touches: [Touch]) {}
    open func touchesEnded(_ touches: [Touch]) {}
    open func touchesCancelled(_ touches: [Touch]) {}

    func deliver(_ phase: TouchPhase, _ touches: [Touch]) {
        switch phase {
        case .began: touchesBegan(touches)
        case .moved: touchesMoved(touches)
        case .ended: touchesEnded(touches)
        case .cancelled: touchesCancelled(touches)
        }
        onTouches?(self, phase, touches)
    }
}
