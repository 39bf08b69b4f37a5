import GestureKit

/// Dragging: a pan moves the content with the finger.
///
/// Rule: while dragging, `contentOffset = offsetAtBegan − (translation − translationAtBegan)`
/// on each axis the content scrolls on (a pan's translation counts from where the touches
/// came down, so at `began` it already holds the threshold's movement: the content follows
/// the finger from where the pan began, without a jump; a scroll sequence's first delta is
/// its movement, not a threshold, and moves the content); past an edge the overshoot is shown through the rubber band (or clamped at the
/// edge when `bounces` is off); when the pan ends, the release velocity (the pan's recent
/// motion, reversed: the content moves against the finger's offset) starts the deceleration.
///
/// | pan | what the scroll view does |
/// |---|---|
/// | began | motion under way stops; `scrollViewWillBeginDragging`; phase dragging; with `isDirectionalLockEnabled`, the axis locked if the drag began near one |
/// | changed | the offset follows the finger (rubber band past the edges) |
/// | ended | `scrollViewWillEndDragging` (may change the target), `scrollViewDidEndDragging`; decelerating, bouncing or rest |
/// | cancelled | as ended, with no velocity |
///
/// Pointer scrolling (the pan's `scrollType`; REPLAY.md, "Pointer devices in traces"):
/// - A touchpad's two-finger scroll (`.continuous`) is a drag: the offset follows the
///   scroll's translation, rubber band included, and at the scroll stop (the fingers
///   lifted) the content decelerates from the scroll's velocity at the stop (its recent
///   motion: zero if the fingers had come to rest before lifting). libinput has no kinetic
///   scrolling of its own: it sends a scroll stop, where GTK 4's GtkScrolledWindow starts
///   its kinetic scrolling from the recent scroll history (GtkEventControllerScroll's
///   `decelerate` signal, emitted on the stop); UIKit on iPadOS does the same with a
///   trackpad.
/// - A wheel (`.discrete`) moves the content by its detents, within the edges (no rubber
///   band) and without a fling: its scroll ends `GestureDefaults.wheelScrollEndPause`
///   after the last detent, and the content stays where the detents put it. GTK 4 does
///   not decelerate a wheel either (a wheel sends no scroll stop, so no `decelerate`), nor
///   does it overshoot the edges for one; iPadOS animates each detent's step but carries
///   no momentum past the last.
/// - A touchpad hold (fingers resting on the pad) on moving content stops it, as GTK 4
///   stops its kinetic scrolling on a hold gesture (ScrollView+ContentTouches.swift).
extension ScrollView {
    /// Makes `pan` drive the scroll view as its own pan does (a scene's pan, in a replay): the
    /// scroll view becomes its delegate (it begins only in a direction the content scrolls
    /// in) and follows it. `pan` keeps its own view; attach it to this scroll view for the
    /// coordinates to be right.
    public func attachScrollingPan(_ pan: PanGestureRecognizer) {
        guard !scrollingPans.contains(where: { $0 === pan }) else { return }
        scrollingPans.append(pan)
        pan.delegate = self
        contentTouchRecognizer.recognizeSimultaneously(with: pan)
        pan.addTarget { [weak self] pan in self?.scrollingPanChanged(pan) }
    }

    /// Replaces the scroll view's own `panGestureRecognizer` by `pan` (attached to the scroll
    /// view if it is not on a view yet): the old one is removed.
    public func replaceScrollingPan(with pan: PanGestureRecognizer) {
        let old = panGestureRecognizer
        scrollingPans.removeAll { $0 === old }
        old.removeAllTargets()
        old.delegate = nil
        removeGestureRecognizer(old)
        panGestureRecognizer = pan
        attachScrollingPan(pan)
        if pan.view == nil { addGestureRecognizer(pan) }
        pan.isEnabled = isScrollEnabled
    }

    func scrollingPanChanged(_ pan: PanGestureRecognizer) {
        if wheelZoom(pan) { return }
        switch pan.state {
        case .began:
            dragIsDiscrete = pan.scrollType.contains(.discrete)
            beginDragging()
            lockedAxis = nil
            lockPending = isDirectionalLockEnabled
            if pan.scrollType.isEmpty {
                // offsetAtBegan − (translation − translationAtBegan): no jump at began.
                dragOrigin = dragOrigin + pan.translation
            }
            drag(to: pan.translation, velocity: pan.velocity)
        case .changed:
            guard isDragging else { return }
            drag(to: pan.translation, velocity: pan.velocity)
        case .ended:
            guard isDragging else { return }
            drag(to: pan.translation, velocity: pan.velocity)
            // A wheel's detents carry no momentum.
            endDragging(velocity: dragIsDiscrete ? .zero : Point(x: -pan.velocity.x, y: -pan.velocity.y))
        case .cancelled:
            guard isDragging else { return }
            endDragging(velocity: .zero)
        case .possible, .failed:
            break
        }
    }

    func beginDragging() {
        stopMotion()
        isDragging = true
        // Content caught past an edge starts from the drag that shows it there (no jump).
        let offset = contentOffset, lo = minimumContentOffset, hi = maximumContentOffset
        dragOrigin = Point(x: unstretched(offset.x, lo.x, hi.x, frame.width),
                           y: unstretched(offset.y, lo.y, hi.y, frame.height))
        delegate?.scrollViewWillBeginDragging(self)
    }

    /// The offset for a finger `translation` from where the drag began.
    func drag(to translation: Point, velocity: Point) {
        if lockPending {
            // The direction the drag began in: its first movement (or, before any, the
            // finger's recent motion).
            let d = translation == .zero ? velocity : translation
            if d != .zero {
                lockedAxis = Self.lockedAxis(d)
                lockPending = false
            }
        }
        let lo = minimumContentOffset, hi = maximumContentOffset
        var offset = contentOffset
        if movesHorizontally {
            offset.x = stretched(dragOrigin.x - translation.x, lo.x, hi.x, frame.width)
        }
        if movesVertically {
            offset.y = stretched(dragOrigin.y - translation.y, lo.y, hi.y, frame.height)
        }
        if dragIsDiscrete {
            // A wheel's detents move from where the content is: those against an edge are
            // lost, not owed (turning back moves at once).
            dragOrigin = Point(x: offset.x + translation.x, y: offset.y + translation.y)
        }
        scrollVelocity = Point(x: movesHorizontally ? -velocity.x : 0, y: movesVertically ? -velocity.y : 0)
        scrollPhase = .dragging
        contentOffset = offset
    }

    /// The finger lifted with the content moving at `velocity` (points per second).
    func endDragging(velocity v: Point) {
        isDragging = false
        let velocity = Point(x: movesHorizontally ? v.x : 0, y: movesVertically ? v.y : 0)
        lockedAxis = nil
        lockPending = false
        var motion = ScrollAnimation(scrollView: self)
        var target = motion.projectedTarget(velocity: velocity)
        if isPagingEnabled { target = pageTarget(velocity: velocity) }
        let proposed = target
        delegate?.scrollViewWillEndDragging(self, withVelocity: velocity / 1000, targetContentOffset: &target)
        let chosen: Point? = target == proposed && !isPagingEnabled ? nil : target
        motion.release(velocity: velocity, target: chosen)
        let moves = !motion.isAtRest
        delegate?.scrollViewDidEndDragging(self, willDecelerate: moves)
        if moves {
            start(motion, kind: .deceleration)
        } else {
            comeToRest(at: motion.offset)
        }
    }

    /// Paging: the page (a multiple of the view's size) the content comes to rest on, the
    /// next one in the direction of a fast release, the nearest one otherwise.
    func pageTarget(velocity: Point) -> Point {
        func page(_ offset: Double, _ v: Double, _ size: Double, _ lo: Double, _ hi: Double) -> Double {
            guard size > 0 else { return offset }
            var index = (offset / size).rounded()
            if abs(v) >= ScrollViewMetrics.pagingFlickVelocity {
                index = v > 0 ? (offset / size).rounded(.up) : (offset / size).rounded(.down)
            }
            return min(max(index * size, lo), hi)
        }
        let lo = minimumContentOffset, hi = maximumContentOffset, o = contentOffset
        return Point(x: page(o.x, velocity.x, frame.width, lo.x, hi.x),
                     y: page(o.y, velocity.y, frame.height, lo.y, hi.y))
    }

    /// Whether the drag under way moves the content on that axis: it scrolls on it, and the
    /// drag is not locked to the other.
    var movesHorizontally: Bool { scrollsHorizontally && lockedAxis != .vertical }
    var movesVertically: Bool { scrollsVertically && lockedAxis != .horizontal }

    /// The axis a drag beginning in direction `d` locks to, if it is near enough to one.
    static func lockedAxis(_ d: Point) -> LockedAxis? {
        let r = ScrollViewMetrics.directionalLockRatio
        if abs(d.x) >= r * abs(d.y) && d.x != 0 { return .horizontal }
        if abs(d.y) >= r * abs(d.x) && d.y != 0 { return .vertical }
        return nil
    }

    /// `raw` past an edge shown through the rubber band, or clamped at it (`bounces` off,
    /// or a wheel's drag).
    private func stretched(_ raw: Double, _ lo: Double, _ hi: Double, _ d: Double) -> Double {
        let band = bounces && !dragIsDiscrete
        if raw < lo { return band ? lo - ScrollPhysics.rubberBand(lo - raw, dimension: d) : lo }
        if raw > hi { return band ? hi + ScrollPhysics.rubberBand(raw - hi, dimension: d) : hi }
        return raw
    }

    private func unstretched(_ shown: Double, _ lo: Double, _ hi: Double, _ d: Double) -> Double {
        if shown < lo { return lo - ScrollPhysics.unstretched(lo - shown, dimension: d) }
        if shown > hi { return hi + ScrollPhysics.unstretched(shown - hi, dimension: d) }
        return shown
    }
}
