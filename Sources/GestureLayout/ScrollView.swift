import GestureKit

/// What a scroll view tells about its scrolling (UIKit's `UIScrollViewDelegate`). Every
/// method does nothing by default.
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed (a drag, a deceleration frame, a bounce frame, or code).
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// A drag is about to move the content.
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The finger lifted: `velocity` is the content offset's, in points per millisecond (as
    /// UIKit's), and `targetContentOffset` where the content will come to rest. Change it to
    /// make the content come to rest elsewhere: the deceleration is solved again to end there.
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Point,
                                   targetContentOffset: inout Point)
    /// The drag ended; `decelerate` says whether the content keeps moving.
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// The content, moving on after a drag, came to rest.
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    /// An animation started by `setContentOffset(_:animated:)` ended.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    /// The view that zooming scales (its frame follows `zoomScale`); nil: the content size
    /// alone scales. Default nil.
    func viewForZooming(in scrollView: ScrollView) -> View?
    /// A pinch is about to zoom.
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?)
    /// `zoomScale` changed.
    func scrollViewDidZoom(_ scrollView: ScrollView)
    /// The zoom is over (after any bounce back into range), at `scale`.
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Point,
                                          targetContentOffset: inout Point) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {}
}

/// Where a scroll view's content is in its life: what the replay prints as a `scroll`
/// line's `phase`.
public enum ScrollPhase: String, Hashable, Sendable {
    /// A finger moves the content.
    case dragging
    /// The content keeps the release velocity and slows down (or eases to an offset set
    /// with animation).
    case decelerating
    /// The content ran past an edge (or was released there) and springs back.
    case bouncing
    /// The content is still.
    case rest
}

/// Velocity kept per millisecond of deceleration (UIKit's `UIScrollView.DecelerationRate`).
public struct DecelerationRate: Hashable, Sendable, RawRepresentable {
    public var rawValue: Double
    public init(rawValue: Double) { self.rawValue = rawValue }
    /// 0.998 per millisecond: UIKit's normal.
    public static let normal = DecelerationRate(rawValue: ScrollPhysics.normalRate)
    /// 0.99 per millisecond: UIKit's fast.
    public static let fast = DecelerationRate(rawValue: ScrollPhysics.fastRate)
}

/// A headless `UIScrollView`: a view whose content (its subviews, in its own coordinates)
/// moves under a finger, keeps its momentum after the finger lifts, slows down, rubber-bands
/// past the edges and springs back, on the engine's clock.
///
/// - `contentOffset` is the view's `boundsOrigin`. The content may scroll from
///   `−contentInset.left/top` to `contentSize − bounds size + contentInset.right/bottom`.
/// - Its own one-finger `panGestureRecognizer` drags it (ScrollView+Dragging.swift); after
///   the finger lifts the content moves on frame by frame on a display link the engine runs
///   at `frameRate` (ScrollView+Deceleration.swift), along `ScrollPhysics`' curves.
/// - Touches on the content: a touch on moving content stops it and reaches nothing else;
///   `delaysContentTouches` and `canCancelContentTouches` as UIKit's
///   (ScrollView+ContentTouches.swift).
/// - Without an engine (not in a view tree added to one) there is no clock: motion that
///   would be animated ends at once where it would come to rest.
open class ScrollView: View, GestureRecognizerDelegate {
    /// The content point at the view's top left corner. Setting it stops no motion: use
    /// `setContentOffset(_:animated:)` for that.
    public var contentOffset: Point {
        get { boundsOrigin }
        set {
            guard newValue.isFinite, newValue != boundsOrigin else { return }
            boundsOrigin = newValue
            contentOffsetDidChange()
            delegate?.scrollViewDidScroll(self)
            onScroll?(self)
        }
    }
    /// The size of the content, points. Default zero.
    open var contentSize: Size {
        get { storedContentSize }
        set { storedContentSize = newValue }
    }
    /// Room around the content, points: the content may scroll this far past its edges and
    /// stay there.
    public var contentInset = EdgeInsets.zero
    /// Whether drags scroll. Default true. Turning it off stops no motion under way.
    public var isScrollEnabled = true {
        didSet { panGestureRecognizer.isEnabled = isScrollEnabled }
    }
    /// Whether the content rubber-bands past the edges and springs back. Default true.
    public var bounces = true
    /// Whether a vertical drag moves content that fits vertically (it then bounces back).
    /// Only while `bounces` is true, as UIKit's ("If this property is true and bounces is
    /// true"). Default false.
    public var alwaysBounceVertical = false
    /// Whether a horizontal drag moves content that fits horizontally; only while `bounces`
    /// is true. Default false.
    public var alwaysBounceHorizontal = false
    /// Whether a drag that begins mostly horizontally or mostly vertically (one component at
    /// least `ScrollViewMetrics.directionalLockRatio` times the other) moves the content on
    /// that axis only, until the finger lifts; a diagonal drag moves it freely. Default false.
    public var isDirectionalLockEnabled = false
    /// Whether a released drag comes to rest on a multiple of the view's size. Default false.
    public var isPagingEnabled = false
    /// How fast a released drag slows down. Default `.normal`.
    public var decelerationRate = DecelerationRate.normal
    /// Frames a second of the scroll view's animation. Default 60.
    public var frameRate = DisplayLink.defaultFrameRate {
        didSet { displayLink?.frameRate = frameRate }
    }
    /// Whether touches on the content wait (`ScrollViewMetrics.contentTouchDelay`) to see if
    /// they become a drag before the content gets them. Default true.
    public var delaysContentTouches = true {
        didSet { contentTouchRecognizer.delaysTouchesBegan = delaysContentTouches }
    }
    /// Whether a drag may begin once the content has the touch, taking it from the content
    /// (which gets `touchesCancelled`). Default true. False: once the content tracks the touch,
    /// the scroll view does not scroll, however far the finger moves (UIKit's rule).
    public var canCancelContentTouches = true
    /// The smallest zoom scale. Default 1. Zooming works when the largest is larger.
    public var minimumZoomScale = 1.0 {
        didSet { updateZooming() }
    }
    /// The largest zoom scale. Default 1.
    public var maximumZoomScale = 1.0 {
        didSet { updateZooming() }
    }
    /// How much the content is scaled (1: not at all). Setting it keeps it within
    /// `minimumZoomScale…maximumZoomScale`, about the view's centre, without animation.
    public var zoomScale: Double {
        get { storedZoomScale }
        set { setZoomScale(newValue, animated: false) }
    }
    /// Whether a pinch may take the scale past its range (rubber band) and springs back.
    /// Default true.
    public var bouncesZoom = true
    /// Whether a pinch is zooming.
    public internal(set) var isZooming = false
    /// Whether the scale springs back into its range after a pinch.
    public var isZoomBouncing: Bool { zoomAnimation != nil && zoomAnimation?.phase == .bouncing }
    /// The scroll view's own pinch (UIKit's `pinchGestureRecognizer`): there while the zoom
    /// range is more than one scale, nil otherwise.
    public internal(set) var pinchGestureRecognizer: PinchGestureRecognizer?
    /// Hears about scrolling (a collection view's `CollectionViewDelegate` is one, as in UIKit).
    public weak var delegate: (any ScrollViewDelegate)?
    /// Called after every change of `contentOffset` and when the content comes to rest
    /// (once), with `scrollPhase` and `scrollVelocity` up to date: what the replay prints as
    /// `scroll` lines.
    public var onScroll: ((ScrollView) -> Void)?

    /// The recognizer that drags the content: UIKit's `panGestureRecognizer`. One finger on
    /// a touchscreen, a pressed button's drag, a touchpad's two-finger scroll and a wheel
    /// (`allowedScrollTypes` `.all`, as on iPadOS); not touchpad contacts
    /// (`allowedTouchTypes` `[.direct, .indirectPointer]`). Pointer scrolling:
    /// ScrollView+Dragging.swift.
    public internal(set) var panGestureRecognizer: PanGestureRecognizer
    /// Whether a finger is moving the content.
    public internal(set) var isDragging = false
    /// Whether the content moves on after a drag (decelerating or bouncing back).
    public var isDecelerating: Bool { animation != nil && animationKind == .deceleration }
    /// What the content is doing now.
    public internal(set) var scrollPhase: ScrollPhase = .rest
    /// The content offset's velocity, points per second (zero at rest).
    public internal(set) var scrollVelocity: Point = .zero

    // MARK: State of the other files

    var storedContentSize = Size.zero
    var storedZoomScale = 1.0
    /// The zoom under way: the unscaled content point under the fingers, where they are (in
    /// the view's bounds, from its top left corner) and the scale when the pinch began.
    var zoomFocus = Point.zero
    var zoomAnchor = Point.zero
    var zoomScaleAtBegan = 1.0
    /// The scale's own motion (a bounce back into range, or an animated zoom).
    var zoomAnimation: ScrollAxisMotion?
    /// The drag: the offset it started from, with any rubber band undone.
    var dragOrigin = Point.zero
    /// Whether the drag under way is a wheel's (no rubber band, no fling).
    var dragIsDiscrete = false
    /// Whether a wheel turned with control held is zooming (`wheelZoom`).
    var isWheelZooming = false
    /// The axis a directionally locked drag moves on (nil: both).
    var lockedAxis: LockedAxis?
    /// Whether the lock waits for the drag's first movement.
    var lockPending = false
    enum LockedAxis { case horizontal, vertical }
    /// The motion under way after a drag, or to an animated offset.
    var animation: ScrollAnimation?
    var animationKind = AnimationKind.deceleration
    package var displayLink: DisplayLink?
    var lastFrameTime: Instant?
    lazy var contentTouchRecognizer = ScrollViewContentTouchRecognizer(scrollView: self)
    /// Whether the content has had the touches of the current sequence (the delay passed, or
    /// there was none).
    public internal(set) var contentIsTracking = false
    /// Touches that came down on moving content and stopped it (they select nothing).
    public internal(set) var touchesThatStoppedScrolling: Set<TouchID> = []

    enum AnimationKind { case deceleration, scrollingAnimation }

    public override init(id: String = "scroll", frame: Rect) {
        panGestureRecognizer = PanGestureRecognizer(minimumTouches: 1, maximumTouches: 1, name: "\(id).pan")
        // iPadOS's scroll view pan: a touchpad's two-finger scroll and a wheel drive it, and
        // touchpad contacts do not (the pad is a pointer; a finger on it is no drag).
        panGestureRecognizer.allowedScrollTypes = .all
        panGestureRecognizer.allowedTouchTypes = [.direct, .indirectPointer]
        super.init(id: id, frame: frame)
        attachScrollingPan(panGestureRecognizer)
        addGestureRecognizer(panGestureRecognizer)
        contentTouchRecognizer.delaysTouchesBegan = delaysContentTouches
        contentTouchRecognizer.recognizeSimultaneously(with: panGestureRecognizer)
        addGestureRecognizer(contentTouchRecognizer)
    }

    /// A scroll view released mid-fling takes its animation with it: its display link, which
    /// the engine keeps until it is invalidated and which holds the scroll view only weakly,
    /// would otherwise go on asking for a frame 60 times a second for nothing, forever.
    deinit {
        displayLink?.invalidate()
    }

    /// Called after every change of the content offset (UIKit's `layoutSubviews` after a
    /// scroll): a collection view brings in the cells that came into view.
    open func contentOffsetDidChange() {}

    // MARK: Geometry

    /// The smallest content offset on each axis: `−contentInset.left`, `−contentInset.top`.
    public var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }

    /// The largest content offset on each axis (never below the smallest).
    public var maximumContentOffset: Point {
        let size = contentSize
        return Point(x: max(-contentInset.left, size.width + contentInset.right - frame.width),
                     y: max(-contentInset.top, size.height + contentInset.bottom - frame.height))
    }

    /// Whether the content is longer than the view on that axis (so a drag may move it), or
    /// the view always bounces on it (and bounces at all).
    public var scrollsHorizontally: Bool {
        (alwaysBounceHorizontal && bounces) || contentSize.width + contentInset.left + contentInset.right > frame.width
    }
    public var scrollsVertically: Bool {
        (alwaysBounceVertical && bounces) || contentSize.height + contentInset.top + contentInset.bottom > frame.height
    }

    /// `offset` kept within the range of content offsets.
    public func clampedContentOffset(_ offset: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset
        return Point(x: min(max(offset.x, lo.x), hi.x), y: min(max(offset.y, lo.y), hi.y))
    }

    // MARK: Moving the content from code

    /// Moves the content to `offset`. Animated: it eases there in
    /// `ScrollViewMetrics.scrollingAnimationDuration` on the engine's clock (then
    /// `scrollViewDidEndScrollingAnimation`); otherwise it jumps there. Either way, motion
    /// under way stops first.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        guard offset.isFinite else { return }
        stopMotion()
        guard animated, gestureEngine != nil else {
            contentOffset = offset
            return
        }
        startScrollingAnimation(to: offset)
    }

    /// Scrolls the least that makes `rect` (content coordinates) visible, as far as the
    /// content range allows; nothing when it is already.
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        var target = contentOffset
        let size = frame.size
        if rect.maxX > target.x + size.width { target.x = rect.maxX - size.width }
        if rect.minX < target.x { target.x = rect.minX }
        if rect.maxY > target.y + size.height { target.y = rect.maxY - size.height }
        if rect.minY < target.y { target.y = rect.minY }
        target = clampedContentOffset(target)
        guard target != contentOffset else { return }
        setContentOffset(target, animated: animated)
    }

    // MARK: GestureRecognizerDelegate (the scrolling pan's)

    /// The scrolling pan begins only in a direction the content can scroll in (or always
    /// bounces in): a wiggle on a list that fits stays a tap, and of nested scroll views (a
    /// horizontal carousel in a vertical page, as UIKit nests them) the one whose content
    /// scrolls the way the drag began is the one that moves, for the whole drag (the other's
    /// pan fails, and the first to begin keeps the touch). Without `canCancelContentTouches`
    /// it does not begin once the content tracks the touch.
    ///
    /// The direction is the larger component of: the pan's translation when it is about to
    /// begin (a scroll's first delta); else the fingers' travel since they came down (the
    /// pan's location less the centroid of where its touches landed: a touch-driven pan
    /// begins with zero translation, and its velocity needs more than one movement); else
    /// the pan's velocity. A wheel turned with control held on a zoomable scroll view begins
    /// whatever its direction: it zooms.
    open override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard let pan = recognizer as? PanGestureRecognizer, scrollingPans.contains(where: { $0 === pan })
        else { return true }
        if !canCancelContentTouches && contentIsTracking { return false }
        // A wheel with control held zooms (`wheelZoom`), whichever way the content scrolls.
        if pan.scrollType.contains(.discrete), pan.modifierFlags.contains(.control),
           maximumZoomScale > minimumZoomScale { return true }
        var d = pan.translation
        if d == .zero, pan.scrollType.isEmpty, !panTouchStarts.isEmpty {
            var sum = Point.zero
            for (_, p) in panTouchStarts { sum = sum + p }
            d = pan.location(in: nil) - sum / Double(panTouchStarts.count)
        }
        if d == .zero { d = pan.velocity }
        // Mainly horizontal as a pan's allowedDirections judges it; a perfect diagonal counts as vertical.
        return PanDirections.main(of: d) == .horizontal ? scrollsHorizontally : scrollsVertically
    }

    /// A scrolling pan recognizes with any scroll view's content-touch recognizer (its own
    /// already does): a touch that stops an enclosing scroll view's moving content may still
    /// drag this one (a sideways drag on a carousel whose page was caught mid-fling), as the
    /// direction it begins in decides.
    open func gestureRecognizer(_ recognizer: GestureRecognizer,
                                shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        other is ScrollViewContentTouchRecognizer && scrollingPans.contains { $0 === recognizer }
    }

    /// Notes where each touch a scrolling pan receives came down (for the direction a drag
    /// begins in); every touch is received.
    open func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        if touch.sourceID >= 0 || touch.deviceKind != .pointer,
           let pan = recognizer as? PanGestureRecognizer, scrollingPans.contains(where: { $0 === pan }) {
            panTouchStarts[touch.id] = touch.initialLocation
        }
        return true
    }

    /// Where (screen points) the touches of the current sequence that the scrolling pans
    /// received came down; emptied when the sequence is over.
    var panTouchStarts: [TouchID: Point] = [:]

    /// Pans that drive this scroll view (its own, and any given to `attachScrollingPan`).
    var scrollingPans: [PanGestureRecognizer] = []
}

/// A scroll view's named constants.
public enum ScrollViewMetrics {
    /// How long a touch on the content waits to become a drag before the content gets it
    /// (`delaysContentTouches`). Our choice: Apple documents the delay but gives no figure.
    /// 150 ms lets a finger that means to drag cross the pan's 10 pt threshold first at any
    /// speed from 67 pt/s, and keeps a tap's highlight within nine 60 Hz frames.
    public static let contentTouchDelay = Duration(seconds: 0.150) /* s */
    /// How many times larger than the other a drag's first component must be for
    /// `isDirectionalLockEnabled` to lock the drag to its axis (about 27° either side of it).
    public static let directionalLockRatio = 2.0 /* unitless */
    /// How much one wheel detent with control held zooms: ×1.1 forward, ÷1.1 back (the
    /// browsers' 10 % zoom step; our choice of figure, GTK has no wheel zoom of its own).
    public static let wheelZoomFactorPerDetent = 1.1 /* unitless, per detent */
    /// How long `setContentOffset(_:animated:)` takes (a `Duration`; it was a `Double` of
    /// seconds up to 0.3.0).
    public static let scrollingAnimationDuration: Duration = .milliseconds(300)
    /// A release this fast or faster turns the page in its direction; slower ones come to
    /// rest on the nearest page.
    public static let pagingFlickVelocity = 300.0 /* pt per s */
}
