import Foundation
import GestureKit

/// Zooming: the scroll view's own pinch scales the content.
///
/// Rule: the content point under the fingers when the pinch began stays under them: with
/// `u` that point in unscaled content coordinates and `p` the fingers in the view,
/// `contentOffset = u × zoomScale − p` after every change; `contentSize` (and the delegate's
/// `viewForZooming` frame) scale with `zoomScale`. Past `minimumZoomScale…maximumZoomScale`
/// the scale follows the pinch less and less (the rubber band of `ScrollPhysics`, with the
/// range's end as the dimension), unless `bouncesZoom` is off (then it stops at the end); when
/// the pinch ends it springs back into range on the critically damped spring, on the display
/// link, and the content offset comes back within its edges after.
///
/// | pinch | what the scroll view does |
/// |---|---|
/// | began | `scrollViewWillBeginZooming`; scale and focus remembered |
/// | changed | `zoomScale = scaleAtBegan × scale` (rubber band past the range), focus kept under the fingers; `scrollViewDidZoom` |
/// | ended, cancelled | back into range (bouncing), then `scrollViewDidEndZooming` |
extension ScrollView {
    /// Creates or removes the pinch as the zoom range allows zooming or not.
    func updateZooming() {
        if maximumZoomScale > minimumZoomScale, pinchGestureRecognizer == nil {
            let pinch = PinchGestureRecognizer(name: "\(debugName).pinch")
            pinch.addTarget { [weak self] pinch in self?.zoomingPinchChanged(pinch) }
            pinch.recognizeSimultaneously(with: panGestureRecognizer)
            contentTouchRecognizer.recognizeSimultaneously(with: pinch)
            pinchGestureRecognizer = pinch
            addGestureRecognizer(pinch)
        } else if maximumZoomScale <= minimumZoomScale, let pinch = pinchGestureRecognizer {
            pinch.removeAllTargets()
            removeGestureRecognizer(pinch)
            pinchGestureRecognizer = nil
        }
    }

    func zoomingPinchChanged(_ pinch: PinchGestureRecognizer) {
        switch pinch.state {
        case .began:
            beginZooming(at: pinch.location(in: self))
        case .changed:
            guard isZooming, pinch.scale.isFinite, pinch.scale > 0 else { return }
            zoomAnchor = pinch.location(in: self) - contentOffset
            applyZoom(stretchedZoomScale(zoomScaleAtBegan * pinch.scale), focus: zoomFocus, anchor: zoomAnchor)
        case .ended, .cancelled:
            guard isZooming else { return }
            isZooming = false
            endZooming()
        case .possible, .failed:
            break
        }
    }

    /// A wheel turned with control held zooms, where zooming is enabled (the desktop's
    /// convention: browsers, image viewers): each detent forward multiplies the scale by
    /// `ScrollViewMetrics.wheelZoomFactorPerDetent`, each back divides it, within the zoom
    /// range (no rubber band: a wheel has no finger to let go of), about the pointer (the
    /// content point under it stays there). Called with the scrolling pan's transitions;
    /// returns whether the wheel is zooming (then it does not scroll).
    func wheelZoom(_ pan: PanGestureRecognizer) -> Bool {
        switch pan.state {
        case .began:
            guard pan.scrollType.contains(.discrete), pan.modifierFlags.contains(.control),
                  maximumZoomScale > minimumZoomScale else { return false }
            isWheelZooming = true
            beginZooming(at: pan.location(in: self))
            fallthrough
        case .changed:
            guard isWheelZooming else { return false }
            let detents = pan.translation.y / GestureDefaults.wheelPointsPerDetent
            let scale = zoomScaleAtBegan * pow(ScrollViewMetrics.wheelZoomFactorPerDetent, detents)
            applyZoom(min(max(scale, minimumZoomScale), maximumZoomScale), focus: zoomFocus, anchor: zoomAnchor)
            return true
        case .ended, .cancelled:
            guard isWheelZooming else { return false }
            isWheelZooming = false
            isZooming = false
            endZooming()
            return true
        case .possible, .failed:
            return false
        }
    }

    /// A zoom begins at `location` (in the view): the motion stops, and the content point
    /// under it is the one kept there.
    func beginZooming(at location: Point) {
        stopMotion()
        zoomAnimation = nil
        isZooming = true
        zoomScaleAtBegan = zoomScale
        zoomAnchor = location - contentOffset
        zoomFocus = location / zoomScale
        delegate?.scrollViewWillBeginZooming(self, with: delegate?.viewForZooming(in: self))
    }

    /// `scale` shown through the rubber band past the zoom range (or clamped to it).
    func stretchedZoomScale(_ scale: Double) -> Double {
        let lo = minimumZoomScale, hi = maximumZoomScale
        if scale > hi { return bouncesZoom ? hi + ScrollPhysics.rubberBand(scale - hi, dimension: hi) : hi }
        if scale < lo { return bouncesZoom ? lo - ScrollPhysics.rubberBand(lo - scale, dimension: lo) : lo }
        return scale
    }

    /// Sets the scale, keeping unscaled content point `focus` at `anchor` in the view.
    func applyZoom(_ scale: Double, focus: Point, anchor: Point) {
        guard scale.isFinite, scale > 0 else { return }
        let k = scale / storedZoomScale
        storedZoomScale = scale
        if k != 1 {
            contentSize = contentSize * k
            if let view = delegate?.viewForZooming(in: self) {
                view.frame = Rect(origin: view.frame.origin * k, size: view.frame.size * k)
            }
        }
        contentOffset = Point(x: focus.x * scale - anchor.x, y: focus.y * scale - anchor.y)
        delegate?.scrollViewDidZoom(self)
    }

    /// The pinch is over: a scale out of range springs back (on the display link), then the
    /// offset comes back within its edges and the delegate hears the end.
    func endZooming() {
        var motion = ScrollAxisMotion(offset: zoomScale, minimum: minimumZoomScale, maximum: maximumZoomScale, bounces: true)
        motion.release(velocity: 0, target: nil, physics: ScrollPhysics())
        if motion.phase == .rest {
            finishZooming()
            return
        }
        startZoomAnimation(motion)
    }

    /// Zooms to `scale` (kept within the range) about the view's centre; animated, it eases
    /// there in `ScrollViewMetrics.scrollingAnimationDuration` on the engine's clock.
    public func setZoomScale(_ scale: Double, animated: Bool) {
        guard scale.isFinite, scale > 0 else { return }
        let target = min(max(scale, minimumZoomScale), maximumZoomScale)
        zoomAnchor = Point(x: frame.width / 2, y: frame.height / 2)
        zoomFocus = (contentOffset + zoomAnchor) / zoomScale
        guard animated, gestureEngine != nil else {
            zoomAnimation = nil
            applyZoom(target, focus: zoomFocus, anchor: zoomAnchor)
            return
        }
        var motion = ScrollAxisMotion(offset: zoomScale, minimum: minimumZoomScale, maximum: maximumZoomScale, bounces: true)
        motion.ease(to: target, duration: ScrollViewMetrics.scrollingAnimationDuration)
        startZoomAnimation(motion)
    }

    func startZoomAnimation(_ motion: ScrollAxisMotion) {
        guard let engine = gestureEngine else {
            var m = motion
            var frames = 0
            while m.phase != .rest && frames < 100_000 {
                m.advance(ms: 1000 / Double(frameRate), physics: ScrollPhysics())
                frames += 1
            }
            applyZoom(m.offset, focus: zoomFocus, anchor: zoomAnchor)
            finishZooming()
            return
        }
        zoomAnimation = motion
        runDisplayLink(engine)
    }

    /// One frame of the scale's motion, `ms` milliseconds after the previous one.
    func zoomFrame(milliseconds ms: Double) {
        guard var motion = zoomAnimation else { return }
        motion.advance(ms: ms, physics: ScrollPhysics())
        zoomAnimation = motion
        applyZoom(motion.offset, focus: zoomFocus, anchor: zoomAnchor)
        if motion.phase == .rest {
            zoomAnimation = nil
            finishZooming()
        }
    }

    func finishZooming() {
        delegate?.scrollViewDidEndZooming(self, with: delegate?.viewForZooming(in: self), atScale: zoomScale)
        bounceBackIfNeeded()
    }
}
