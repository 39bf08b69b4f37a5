/// A rectangle on the screen that receives touches, with subviews and gesture
/// recognizers: the part of UIKit's `UIView` that input needs.
///
/// Subclass it and override the `touches…` methods, UIKit's `touchesBegan(_:with:)` and its
/// siblings, to receive touches that no recognizer claimed, or set `onTouches`.
open class View {
    /// An optional name for traces, logs and tests, as UIKit's `accessibilityIdentifier` is
    /// one: a scene's views always have one (the scene's view id), a view made with
    /// `init(frame:)` has none. Traces name a view by `debugName`.
    public var id: String?
    /// How traces, logs and errors name the view: its `id`, or, for a view with none, its
    /// class and frame (`View [0.0, 0.0, 800.0, 480.0]`).
    public var debugName: String { id ?? "\(type(of: self)) \(frame)" }
    /// Where the view is in its superview before its `transform`: `center` and
    /// `bounds.size` read and write it.
    var untransformedFrame: Rect
    /// The view's frame in its superview's coordinates (screen coordinates for a root).
    /// With a `transform` other than the identity it is the smallest rectangle holding the
    /// transformed view, and setting it moves the view's `center` there (UIKit leaves the
    /// frame undefined then: set `center` and `bounds` instead).
    public var frame: Rect {
        get {
            guard hasTransform else { return untransformedFrame }
            let size = untransformedFrame.size
            return Rect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height)
                .applying(transform).offsetBy(dx: center.x, dy: center.y)
        }
        set {
            if hasTransform { center = Point(x: newValue.midX, y: newValue.midY) } else { untransformedFrame = newValue }
        }
    }
    /// The view's center in its superview's coordinates (UIKit's `center`): the point its
    /// `transform` turns and scales about. Setting it moves the view.
    public var center: Point {
        get { Point(x: untransformedFrame.midX, y: untransformedFrame.midY) }
        set {
            untransformedFrame.origin = Point(x: newValue.x - untransformedFrame.width / 2,
                                              y: newValue.y - untransformedFrame.height / 2)
        }
    }
    /// The origin of the view's own coordinate space: scrolling moves it (UIKit's
    /// `bounds.origin`).
    public var boundsOrigin: Point = .zero
    /// The view's bounds in its own coordinates (UIKit's `bounds`): its origin is where the
    /// view's top-left corner is in its own space (scrolling moves it), its size the view's
    /// size before the transform. Setting a new size keeps the `center`.
    public var bounds: Rect {
        get { Rect(origin: boundsOrigin, size: untransformedFrame.size) }
        set {
            boundsOrigin = newValue.origin
            if newValue.size != untransformedFrame.size {
                let c = center
                untransformedFrame.size = newValue.size
                center = c
            }
        }
    }
    /// UIKit's `transform`: turns, scales and moves the view about its `center`, as drawn
    /// and as touched. Hit-testing, `location(in:)`, `translation(in:)` and every
    /// conversion go through it. Default `.identity`.
    public var transform: AffineTransform = .identity {
        didSet { hasTransform = !transform.isIdentity }
    }
    /// Whether `transform` is not the identity (the hot paths skip it then).
    private(set) var hasTransform = false
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
    /// UIKit's `interactions`: the interactions added with `addInteraction(_:)` (a context menu,
    /// a drag, a drop), in order.
    public internal(set) var interactions: [any Interaction] = []

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

    /// UIKit's `init(frame:)`: a view with no `id` (traces name it by its class and frame).
    public init(frame: Rect = .zero) {
        self.id = nil
        self.untransformedFrame = frame
        isOfSubclass = ObjectIdentifier(type(of: self)) != ObjectIdentifier(View.self)
    }

    /// A view named `id` for traces and logs (a scene's views are made so).
    public init(id: String, frame: Rect) {
        self.id = id
        self.untransformedFrame = frame
        isOfSubclass = ObjectIdentifier(type(of: self)) != ObjectIdentifier(View.self)
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

    /// Converts a point in the superview's coordinates (screen coordinates for a root) into
    /// this view's: through `center`, the inverse of `transform`, and `bounds`.
    public func convertFromSuperview(_ point: Point) -> Point {
        guard hasTransform else { return point - untransformedFrame.origin + boundsOrigin }
        let c = center, size = untransformedFrame.size
        let p = (point - c).applying(transform.inverted())
        return Point(x: p.x + boundsOrigin.x + size.width / 2, y: p.y + boundsOrigin.y + size.height / 2)
    }

    /// Converts a point in this view's coordinates into its superview's.
    public func convertToSuperview(_ point: Point) -> Point {
        guard hasTransform else { return point + untransformedFrame.origin - boundsOrigin }
        let size = untransformedFrame.size
        let p = Point(x: point.x - boundsOrigin.x - size.width / 2, y: point.y - boundsOrigin.y - size.height / 2)
        return p.applying(transform) + center
    }

    /// The view's frame origin in screen coordinates, minus its bounds origin: what to
    /// subtract from a screen point to get a point in this view; nil when the view or one of
    /// its ancestors has a transform (no single offset converts then).
    var screenOffset: Point? {
        if hasTransform { return nil }
        var offset = untransformedFrame.origin - boundsOrigin
        var v = superview
        while let parent = v {
            if parent.hasTransform { return nil }
            offset = offset + parent.untransformedFrame.origin - parent.boundsOrigin
            v = parent.superview
        }
        return offset
    }

    /// Converts a point in screen coordinates into this view's coordinates.
    public func convertFromScreen(_ point: Point) -> Point {
        if let offset = screenOffset { return point - offset }
        return convertFromSuperview(superview?.convertFromScreen(point) ?? point)
    }

    /// Converts a point in this view's coordinates into screen coordinates.
    public func convertToScreen(_ point: Point) -> Point {
        if let offset = screenOffset { return point + offset }
        let p = convertToSuperview(point)
        return superview?.convertToScreen(p) ?? p
    }

    /// Converts a movement (a vector, not a place: a translation, a velocity) in screen
    /// coordinates into this view's: a scaled or turned view sees it scaled and turned back.
    public func convertVectorFromScreen(_ vector: Point) -> Point {
        if screenOffset != nil { return vector }
        return convertFromScreen(vector) - convertFromScreen(.zero)
    }

    /// Converts a movement in this view's coordinates into screen coordinates.
    public func convertVectorToScreen(_ vector: Point) -> Point {
        if screenOffset != nil { return vector }
        return convertToScreen(vector) - convertToScreen(.zero)
    }

    /// UIKit's `convert(_:to:)`: `point`, in this view's coordinates, in `view`'s (screen
    /// coordinates for nil).
    public func convert(_ point: Point, to view: View?) -> Point {
        let screen = convertToScreen(point)
        return view?.convertFromScreen(screen) ?? screen
    }

    /// UIKit's `convert(_:from:)`: `point`, in `view`'s coordinates (screen coordinates for
    /// nil), in this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        convertFromScreen(view?.convertToScreen(point) ?? point)
    }

    /// Whether `point` (in this view's coordinates) is inside the view.
    open func point(inside point: Point) -> Bool {
        bounds.contains(point)
    }

    /// The front-most descendant (or self) that contains `point` (in this view's
    /// coordinates) and takes touches: hidden views and views with user interaction
    /// disabled are skipped with their subviews; later subviews are in front. A subview's
    /// `transform` counts: a turned or scaled view is touched where it is drawn.
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, isUserInteractionEnabled, self.point(inside: point) else { return nil }
        for child in subviews.reversed() {
            if let hit = child.hitTest(child.convertFromSuperview(point)) { return hit }
        }
        return self
    }

    // MARK: Layout (UIKit's layout pass)

    /// Whether `setNeedsLayout()` was called and `layoutSubviews()` has not run since.
    public private(set) var needsLayout = false

    /// UIKit's `setNeedsLayout()`: `layoutSubviews()` runs at the end of the engine's
    /// current step (UIKit's next layout pass), once however many times this is called;
    /// outside a step (or for a view in no engine) it runs at once, so that what is drawn
    /// next is never a stale layout.
    public func setNeedsLayout() {
        guard !needsLayout else { return }
        needsLayout = true
        if let engine, engine.deferLayout(of: self) { return }
        layoutIfNeeded()
    }

    /// UIKit's `layoutIfNeeded()`: runs `layoutSubviews()` now if a layout is pending.
    public func layoutIfNeeded() {
        guard needsLayout else { return }
        needsLayout = false
        layoutSubviews()
    }

    /// UIKit's `layoutSubviews()`: lays out the subviews. Override it; the default does
    /// nothing. A collection view brings its visible cells in line with its layout here.
    open func layoutSubviews() {}

    /// The pending layout was done by other means (a collection view that re-laid itself
    /// at once): the pass at the end of the step has nothing to do.
    package func clearNeedsLayout() { needsLayout = false }

    // MARK: Touch delivery (UIResponder)

    /// UIKit's `UIView.gestureRecognizerShouldBegin(_:)`: asked of a recognizer's view when
    /// the recognizer is about to leave `possible`, before its delegate; no makes it fail.
    /// Default yes. (A control that wants its own touches says no to an ancestor's pan.)
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool { true }

    /// UIKit's `touchesBegan(_:with:)`: touches that landed on this view and reach it (no
    /// recognizer held them back or took them; see "Delivery to views"). The default calls
    /// the deprecated `touchesBegan(_: [Touch])`, so that a subclass that still overrides it
    /// keeps working for one release; an override that calls `super` keeps that too.
    open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        callDeprecatedTouchMethod(.began, touches)
    }
    /// UIKit's `touchesMoved(_:with:)`: touches of this view that moved.
    open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        callDeprecatedTouchMethod(.moved, touches)
    }
    /// UIKit's `touchesEnded(_:with:)`: touches of this view that lifted.
    open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        callDeprecatedTouchMethod(.ended, touches)
    }
    /// UIKit's `touchesCancelled(_:with:)`: touches of this view that were cancelled (the
    /// system's, or a recognizer that cancels touches in view took them).
    open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        callDeprecatedTouchMethod(.cancelled, touches)
    }

    @available(*, deprecated, message: "override touchesBegan(_:with:) instead (UIKit's signature: a Set<Touch> and a TouchEvent); View's default touchesBegan(_:with:) still calls this one, for one release")
    open func touchesBegan(_ touches: [Touch]) {}
    @available(*, deprecated, message: "override touchesMoved(_:with:) instead (UIKit's signature: a Set<Touch> and a TouchEvent); View's default touchesMoved(_:with:) still calls this one, for one release")
    open func touchesMoved(_ touches: [Touch]) {}
    @available(*, deprecated, message: "override touchesEnded(_:with:) instead (UIKit's signature: a Set<Touch> and a TouchEvent); View's default touchesEnded(_:with:) still calls this one, for one release")
    open func touchesEnded(_ touches: [Touch]) {}
    @available(*, deprecated, message: "override touchesCancelled(_:with:) instead (UIKit's signature: a Set<Touch> and a TouchEvent); View's default touchesCancelled(_:with:) still calls this one, for one release")
    open func touchesCancelled(_ touches: [Touch]) {}

    /// Whether the object is of a subclass of `View` (an app's, a layout's), which may
    /// override the touch methods. A plain `View` overrides nothing: its deliveries go to
    /// `onTouches` alone, without making the `Set` and the `TouchEvent` nobody would read
    /// (Benchmarks/README.md: 5,861 instructions a frame with 64 recognizers undecided).
    private var isOfSubclass = false

    /// The touches of the delivery under way, in the engine's order (the order they were
    /// handed over before they became a `Set`).
    private var deliveryOrder: [Touch] = []

    /// `touches` in a deterministic order: the delivery's order for those it holds, then any
    /// others by id (a `Set`'s own order differs from one process to the next).
    package func inDeliveryOrder(_ touches: Set<Touch>) -> [Touch] {
        touches.ordered(like: deliveryOrder)
    }

    /// The deprecated `[Touch]` method of `phase`, with the touches in delivery order.
    private func callDeprecatedTouchMethod(_ phase: TouchPhase, _ touches: Set<Touch>) {
        let ordered = inDeliveryOrder(touches)
        let legacy: any DeprecatedViewTouchMethods = self
        switch phase {
        case .began: legacy.touchesBegan(ordered)
        case .moved: legacy.touchesMoved(ordered)
        case .ended: legacy.touchesEnded(ordered)
        case .cancelled: legacy.touchesCancelled(ordered)
        }
    }

    func deliver(_ phase: TouchPhase, _ touches: [Touch]) {
        if isOfSubclass { deliverToTouchMethods(phase, touches) }
        onTouches?(self, phase, touches)
    }

    /// UIKit's touch method of `phase`, which a subclass may override.
    private func deliverToTouchMethods(_ phase: TouchPhase, _ touches: [Touch]) {
        let outer = deliveryOrder   // a delivery made from inside another's callback
        deliveryOrder = touches
        defer { deliveryOrder = outer }
        let set = Set(touches)
        let event = TouchEvent(timestamp: engine?.now ?? touches.first?.timestamp ?? .zero,
                               allTouches: engine?.allTouches() ?? set)
        switch phase {
        case .began: touchesBegan(set, with: event)
        case .moved: touchesMoved(set, with: event)
        case .ended: touchesEnded(set, with: event)
        case .cancelled: touchesCancelled(set, with: event)
        }
    }
}

/// The deprecated `[Touch]` touch methods, called through this protocol by `View`'s
/// defaults so that calling them is not itself a use of a deprecated declaration.
private protocol DeprecatedViewTouchMethods {
    func touchesBegan(_ touches: [Touch])
    func touchesMoved(_ touches: [Touch])
    func touchesEnded(_ touches: [Touch])
    func touchesCancelled(_ touches: [Touch])
}

extension View: DeprecatedViewTouchMethods {}
