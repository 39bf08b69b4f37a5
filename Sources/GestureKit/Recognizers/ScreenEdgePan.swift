/// The edges of the screen (UIKit's `UIRectEdge`).
public struct ScreenEdges: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let top = ScreenEdges(rawValue: 1 << 0)
    public static let left = ScreenEdges(rawValue: 1 << 1)
    public static let bottom = ScreenEdges(rawValue: 1 << 2)
    public static let right = ScreenEdges(rawValue: 1 << 3)
    public static let all: ScreenEdges = [.top, .left, .bottom, .right]

    public var description: String {
        var names: [String] = []
        if contains(.top) { names.append("top") }
        if contains(.left) { names.append("left") }
        if contains(.bottom) { names.append("bottom") }
        if contains(.right) { names.append("right") }
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }
}

extension GestureDefaults {
    /// Screen edge pan: how far from an edge a touch may begin and still start from it, in
    /// millimetres, on a touchscreen whose physical size is known. GNOME Shell's edge swipes
    /// (`EdgeDragAction`, `EDGE_THRESHOLD = 20` logical pixels) take 5.3 mm at their
    /// reference 96 dpi; Android's `ViewDragHelper` (`EDGE_SIZE = 20` dp) takes 3.2 mm. A
    /// finger swept in from the bezel is first reported with its centre 2–5 mm inside the
    /// glass, so 5 mm.
    public static let screenEdgeMarginMillimetres = 5.0
    /// Screen edge pan: the same margin in points, where the device's size is not known:
    /// GNOME Shell's `EDGE_THRESHOLD` (20 logical pixels) and Android's `EDGE_SIZE` (20 dp).
    public static let screenEdgeMarginPoints = 20.0
    /// Screen edge pan: when the pan's threshold is passed, the least share of the movement
    /// that must point away from the edge (0.5: within 60° of straight inwards). A touch that
    /// slides along the edge is not an edge swipe.
    public static let screenEdgeMinimumInwardRatio = 0.5
}

/// The screen edge pan state machine (UIKit's `UIScreenEdgePanGestureRecognizer`): a pan
/// whose first touch must begin within a margin of one of `edges` of the screen and move
/// inwards. A first touch anywhere else fails it at once (a pan that requires it to fail is
/// not kept waiting); a pan that, at its threshold, moves along the edge or outwards fails.
/// Once begun it is a pan: `translation`, `velocity`.
///
/// The margin is physical where the device's scale is known (`pointsPerMillimetre`,
/// millimetres), in points otherwise.
public struct ScreenEdgePanStateMachine: GestureStateMachine {
    public static let kind = GestureRecognizer.Kind.continuous
    public static let namePrefix = "edgePan"

    public var edges: ScreenEdges = []
    /// The screen's bounds in points: the edges are these. `ScreenEdgePanGestureRecognizer`
    /// sets it from the root of its view's tree at each first touch.
    public var screen = Rect(x: 0, y: 0, width: 1000, height: 1000)
    /// Points per millimetre of the touch's device, when its physical size is known.
    /// `ScreenEdgePanGestureRecognizer` sets it from the engine at each first touch.
    public var pointsPerMillimetre: Double?
    /// The margin in millimetres, where the device's size is known.
    public var marginMillimetres = GestureDefaults.screenEdgeMarginMillimetres
    /// The margin in points, where it is not.
    public var marginPoints = GestureDefaults.screenEdgeMarginPoints
    /// See `GestureDefaults.screenEdgeMinimumInwardRatio`.
    public var minimumInwardRatio = GestureDefaults.screenEdgeMinimumInwardRatio

    var pan = PanStateMachine()
    /// The allowed edges the first touch began at.
    private(set) var startEdges: ScreenEdges = []
    /// The touches' centroid when the first touch began.
    private var start = Point.zero
    private var tracking = false
    /// The first touch: the only one it follows (UIKit: it "ignores any touches beyond the
    /// first touch"). Other fingers neither move it nor keep it alive.
    private var firstTouch: TouchID?

    public init() {}

    public var location: Point { pan.location }
    public var isActive: Bool { pan.isActive }
    public var values: GestureValues { pan.values }
    public var translation: Point { pan.translation }
    public var velocity: Point { pan.velocity }

    /// The edges (of `edges`) that `point` is within the margin of, and its distance from the
    /// nearest of `edges`, in the margin's unit.
    func edgesNear(_ point: Point) -> (edges: ScreenEdges, distance: Double, margin: Double) {
        let scale = pointsPerMillimetre.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let margin = scale == nil ? marginPoints : marginMillimetres
        let unit = scale ?? 1
        var near: ScreenEdges = []
        var nearest = Double.infinity
        func check(_ edge: ScreenEdges, _ points: Double) {
            guard edges.contains(edge) else { return }
            let d = max(points, 0) / unit
            nearest = min(nearest, d)
            if d <= margin { near.insert(edge) }
        }
        check(.left, point.x - screen.origin.x)
        check(.right, screen.origin.x + screen.size.width - point.x)
        check(.top, point.y - screen.origin.y)
        check(.bottom, screen.origin.y + screen.size.height - point.y)
        return (near, nearest, margin)
    }

    public mutating func touchesBegan(_ new: [Touch], at time: Instant) -> GestureDecision {
        if !tracking {
            tracking = true
            guard let first = new.min(by: { $0.id < $1.id }) else { return .none }
            firstTouch = first.id
            let at = first.location
            let (near, distance, margin) = edgesNear(at)
            if near.isEmpty {
                return .fail(.notAtScreenEdge(distance: distance, margin: margin, millimetres: pointsPerMillimetre != nil))
            }
            startEdges = near
            start = at
            return pan.touchesBegan([first], at: time)
        }
        return .none
    }

    /// The first touch among `touches`, as a one-element array (none if it is not there).
    private func onlyFirst(_ touches: [Touch]) -> [Touch] {
        touches.filter { $0.id == firstTouch }
    }

    public mutating func touchesMoved(_ moved: [Touch], at time: Instant) -> GestureDecision {
        let touches = onlyFirst(moved)
        guard !touches.isEmpty else { return .none }
        let decision = pan.touchesMoved(touches, at: time)
        guard case .begin = decision else { return decision }
        let delta = pan.location - start
        var inward = -Double.infinity
        if startEdges.contains(.left) { inward = max(inward, delta.x) }
        if startEdges.contains(.right) { inward = max(inward, -delta.x) }
        if startEdges.contains(.top) { inward = max(inward, delta.y) }
        if startEdges.contains(.bottom) { inward = max(inward, -delta.y) }
        let length = delta.distance(to: .zero)
        if inward < minimumInwardRatio * length {
            return .fail(.swipeWrongDirection(moved: SwipeDirection.dominant(of: delta)))
        }
        return decision
    }

    public mutating func touchesEnded(_ lifted: [Touch], at time: Instant) -> GestureDecision {
        let touches = onlyFirst(lifted)
        guard !touches.isEmpty else { return .none }
        return pan.touchesEnded(touches, at: time)
    }

    public mutating func touchesCancelled(_ cancelled: [Touch], at time: Instant) -> GestureDecision {
        let touches = onlyFirst(cancelled)
        guard !touches.isEmpty else { return .none }
        return pan.touchesCancelled(touches, at: time)
    }

    public mutating func reset() {
        pan.reset()
        tracking = false
        firstTouch = nil
        startEdges = []
    }
}

/// UIKit's `UIScreenEdgePanGestureRecognizer`: a pan that begins at one of `edges` of the
/// screen (the frame of the root of its view's tree), following its first touch only.
/// Direct touches only, as in UIKit.
/// See `ScreenEdgePanStateMachine`.
///
/// An app with a plain pan too gives edge touches to the edge pan with
/// `pan.require(toFail: edgePan)`: a touch that does not begin at an edge fails the edge pan
/// at touch-down, so the pan is not delayed.
open class ScreenEdgePanGestureRecognizer: StateMachineGestureRecognizer<ScreenEdgePanStateMachine> {
    public var edges: ScreenEdges {
        get { machine.edges }
        set { machine.edges = newValue }
    }
    /// The margin in millimetres, used where the engine knows the device's scale
    /// (`GestureEngine.pointsPerMillimetre`).
    public var marginMillimetres: Double {
        get { machine.marginMillimetres }
        set { machine.marginMillimetres = newValue }
    }
    /// The margin in points, used where it does not.
    public var marginPoints: Double {
        get { machine.marginPoints }
        set { machine.marginPoints = newValue }
    }
    public var minimumNumberOfTouches: Int {
        get { machine.pan.minimumTouches }
        set { machine.pan.minimumTouches = max(1, newValue) }
    }
    public var maximumNumberOfTouches: Int {
        get { machine.pan.maximumTouches }
        set { machine.pan.maximumTouches = max(1, newValue) }
    }
    /// How far the touches' centroid must move before the pan begins, in points.
    public var threshold: Double {
        get { machine.pan.threshold }
        set { machine.pan.threshold = newValue }
    }
    /// Points moved since the first touch came down (as a pan's).
    public var translation: Point { machine.translation }
    /// Points per second.
    public var velocity: Point { machine.velocity }
    /// UIKit's `translation(in:)` (inherited there from the pan), in `view`'s coordinates.
    public func translation(in view: View?) -> Point {
        view?.convertVectorFromScreen(machine.translation) ?? machine.translation
    }
    /// UIKit's `velocity(in:)`, in points per second of `view`'s coordinates.
    public func velocity(in view: View?) -> Point {
        view?.convertVectorFromScreen(machine.velocity) ?? machine.velocity
    }

    /// A screen edge pan of no edge yet, for direct touches only.
    public override init(name: String? = nil) {
        super.init(name: name)
        allowedTouchTypes = .direct
    }

    package override class var builtInClass: GestureRecognizer.Type { ScreenEdgePanGestureRecognizer.self }

    /// `edges` may be set later, as UIKit's `UIScreenEdgePanGestureRecognizer()` is made
    /// and then given its `edges`; with none it fails at every touch-down.
    public convenience init(edges: ScreenEdges = [], name: String? = nil, action: ((ScreenEdgePanGestureRecognizer) -> Void)? = nil) {
        self.init(name: name)
        machine.edges = edges
        if let action { addTarget(action) }
    }

    override func machineTouchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        // The machine reads these at its first touch only.
        if let first = touches.first {
            if var root = view {
                while let parent = root.superview { root = parent }
                machine.screen = root.frame
            }
            machine.pointsPerMillimetre = engine?.pointsPerMillimetre[first.device]
        }
        return super.machineTouchesBegan(touches, at: time)
    }
}
