import GestureKit

/// Both axes of a scroll view's content in motion: a `ScrollAxisMotion` each, moved by
/// `ScrollPhysics` (the curves and their sources are there).
public struct ScrollAnimation: Hashable, Sendable {
    public var x: ScrollAxisMotion
    public var y: ScrollAxisMotion
    public var physics: ScrollPhysics

    /// The content of `scrollView` where it is now, with its edges, `bounces` and
    /// `decelerationRate` (paging moves at `.fast`).
    public init(scrollView s: ScrollView) {
        let lo = s.minimumContentOffset, hi = s.maximumContentOffset, o = s.contentOffset
        x = ScrollAxisMotion(offset: o.x, minimum: lo.x, maximum: hi.x, bounces: s.bounces)
        y = ScrollAxisMotion(offset: o.y, minimum: lo.y, maximum: hi.y, bounces: s.bounces)
        physics = ScrollPhysics(decelerationRate: s.isPagingEnabled ? ScrollPhysics.fastRate : s.decelerationRate.rawValue)
    }

    public var offset: Point { Point(x: x.offset, y: y.offset) }
    public var velocity: Point { Point(x: x.velocity, y: y.velocity) }
    public var isAtRest: Bool { x.phase == .rest && y.phase == .rest }

    /// Bouncing if an axis bounces, else decelerating if one moves, else rest.
    public var phase: ScrollPhase {
        if x.phase == .bouncing || y.phase == .bouncing { return .bouncing }
        return isAtRest ? .rest : .decelerating
    }

    /// Where a release at `velocity` comes to rest: the projection, kept within the edges
    /// (UIKit's `targetContentOffset`).
    public func projectedTarget(velocity: Point) -> Point {
        Point(x: min(max(physics.projection(x.offset, velocity: velocity.x), x.minimum), x.maximum),
              y: min(max(physics.projection(y.offset, velocity: velocity.y), y.minimum), y.maximum))
    }

    /// Released with `velocity` (points per second); `target`, if given, is where to come
    /// to rest instead of the projection.
    public mutating func release(velocity: Point, target: Point?) {
        x.release(velocity: velocity.x, target: target?.x, physics: physics)
        y.release(velocity: velocity.y, target: target?.y, physics: physics)
    }

    /// Moves both axes `elapsed` on.
    public mutating func advance(by elapsed: Duration) {
        advance(ms: elapsed.inMilliseconds)
    }

    /// Moves both axes `ms` milliseconds on.
    @available(*, deprecated, message: "durations are Duration values: use advance(by: .milliseconds(ms))")
    public mutating func advance(milliseconds ms: Double) {
        advance(ms: ms)
    }

    /// Moves both axes `ms` milliseconds on (the scroll view's frames).
    mutating func advance(ms: Double) {
        x.advance(ms: ms, physics: physics)
        y.advance(ms: ms, physics: physics)
    }
}

/// Motion after a drag, and animated offsets, on the engine's clock.
///
/// Rule: the content moves only in display-link frames (`frameRate` a second, deadlines the
/// engine fires on its own time); each frame advances the motion by the time since the
/// previous one (or since the release), sets the offset, and at rest pauses the link and
/// reports the end once.
extension ScrollView {
    /// Starts `motion` (decelerating after a drag, or a scrolling animation).
    func start(_ motion: ScrollAnimation, kind: AnimationKind) {
        guard let engine = gestureEngine else {
            // No clock: the motion ends at once where it would come to rest.
            var m = motion
            var guardFrames = 0
            while !m.isAtRest && guardFrames < 100_000 {
                m.advance(ms: 1000 / Double(frameRate))
                guardFrames += 1
            }
            comeToRest(after: kind, at: m.offset)
            return
        }
        animation = motion
        animationKind = kind
        scrollPhase = kind == .deceleration ? motion.phase : .decelerating
        scrollVelocity = motion.velocity
        runDisplayLink(engine)
    }

    /// Starts the display link (made on first use) if it is not running.
    func runDisplayLink(_ engine: GestureEngine) {
        let link = displayLink ?? engine.addDisplayLink(frameRate: frameRate) { [weak self] link in
            self?.displayFrame(link)
        }
        link.label = "scroll view \(debugName)'s animation"
        displayLink = link
        if link.isPaused {
            lastFrameTime = engine.now
            link.isPaused = false
        }
    }

    /// Pauses the display link when neither the offset nor the zoom is moving.
    func pauseDisplayLinkIfIdle() {
        guard animation == nil, zoomAnimation == nil else { return }
        displayLink?.isPaused = true
        lastFrameTime = nil
    }

    /// One frame of the display link.
    func displayFrame(_ link: DisplayLink) {
        let previous = lastFrameTime ?? link.timestamp
        lastFrameTime = link.timestamp
        let ms = (link.timestamp - previous).inSeconds * 1000
        if zoomAnimation != nil { zoomFrame(milliseconds: ms) }
        guard var motion = animation else {
            pauseDisplayLinkIfIdle()
            return
        }
        motion.advance(ms: ms)
        animation = motion
        scrollVelocity = motion.velocity
        if !motion.isAtRest {
            scrollPhase = animationKind == .deceleration ? motion.phase : .decelerating
            contentOffset = motion.offset
            return
        }
        comeToRest(after: animationKind, at: motion.offset)
    }

    /// The content is still (at `offset`, if given: the last step of its motion): the link
    /// pauses, the phase is rest (reported once, with that last step), and the delegate hears
    /// the end of what was moving it.
    func comeToRest(after kind: AnimationKind? = nil, at offset: Point? = nil) {
        let wasAnimating = animation != nil
        animation = nil
        pauseDisplayLinkIfIdle()
        scrollVelocity = .zero
        let wasMoving = scrollPhase != .rest
        scrollPhase = .rest
        if let offset, offset != contentOffset {
            contentOffset = offset   // reported, at rest
        } else if wasMoving {
            onScroll?(self)
        }
        guard wasMoving else { return }
        if wasAnimating, let kind {
            switch kind {
            case .deceleration: delegate?.scrollViewDidEndDecelerating(self)
            case .scrollingAnimation: delegate?.scrollViewDidEndScrollingAnimation(self)
            }
        }
    }

    /// Whether the content is moving on its own (decelerating, bouncing, animating).
    public var isMovingOnItsOwn: Bool { animation != nil }

    /// Stops any motion where the content is (a touch came down on it, a drag began, code
    /// set an offset). A content caught past an edge stays there until a drag ends.
    public func stopMotion() {
        guard animation != nil else { return }
        comeToRest()
    }

    /// Sets the content moving at `velocity` (points per second, the offset's) from where it
    /// is, as if a drag had just been released: it decelerates, and bounces at the edges (a
    /// scroll whose momentum the scroll view carries on, as for a touchpad's kinetic scroll).
    /// Stops any motion under way first; does nothing while dragging.
    public func startDecelerating(velocity: Point) {
        guard !isDragging, velocity.isFinite else { return }
        stopMotion()
        var motion = ScrollAnimation(scrollView: self)
        motion.release(velocity: Point(x: scrollsHorizontally ? velocity.x : 0, y: scrollsVertically ? velocity.y : 0),
                       target: nil)
        if motion.isAtRest { return }
        start(motion, kind: .deceleration)
    }

    /// Content left past an edge with nothing moving it (a touch stopped a bounce and
    /// lifted without dragging) springs back.
    func bounceBackIfNeeded() {
        guard !isDragging, !isZooming, zoomAnimation == nil, animation == nil, clampedContentOffset(contentOffset) != contentOffset else { return }
        var motion = ScrollAnimation(scrollView: self)
        motion.release(velocity: .zero, target: nil)
        if !motion.isAtRest { start(motion, kind: .deceleration) }
    }

    func startScrollingAnimation(to offset: Point) {
        var motion = ScrollAnimation(scrollView: self)
        motion.x.ease(to: offset.x, duration: ScrollViewMetrics.scrollingAnimationDuration)
        motion.y.ease(to: offset.y, duration: ScrollViewMetrics.scrollingAnimationDuration)
        start(motion, kind: .scrollingAnimation)
    }
}
