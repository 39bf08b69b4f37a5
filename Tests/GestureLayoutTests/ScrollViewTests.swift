import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// Records what a scroll view says: offsets, phases, delegate calls.
final class ScrollRecorder: ScrollViewDelegate {
    var lines: [(time: Instant, offset: Point, velocity: Point, phase: ScrollPhase)] = []
    var releaseOffset: Point?
    var releaseVelocity: Point?
    var proposedTarget: Point?
    var replaceTarget: ((Point) -> Point)?
    var calls: [String] = []

    init(_ scrollView: ScrollView, clock: @escaping () -> Instant) {
        scrollView.delegate = self
        scrollView.onScroll = { [weak self] s in
            self?.lines.append((clock(), s.contentOffset, s.scrollVelocity, s.scrollPhase))
        }
    }

    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { calls.append("willBeginDragging") }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point) {
        calls.append("willEndDragging")
        releaseOffset = scrollView.contentOffset
        releaseVelocity = velocity * 1000
        proposedTarget = targetContentOffset
        if let replaceTarget { targetContentOffset = replaceTarget(targetContentOffset) }
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        calls.append("didEndDragging(\(decelerate))")
    }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { calls.append("didEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { calls.append("didEndScrollingAnimation") }

    var phases: [ScrollPhase] {
        var result: [ScrollPhase] = []
        for l in lines where result.last != l.phase { result.append(l.phase) }
        return result
    }
}

/// A vertical scroll view 400×800 over content 400×`height`, in an engine.
func scrollScene(height: Double = 10_000, width: Double = 400) -> (ScrollView, Harness, ScrollRecorder) {
    let sv = ScrollView(id: "scroll", frame: Rect(x: 0, y: 0, width: 400, height: 800))
    sv.contentSize = Size(width: width, height: height)
    let script = Harness(root: sv)
    let recorder = ScrollRecorder(sv, clock: { [weak script] in script?.now ?? .zero })
    return (sv, script, recorder)
}

extension Harness {
    /// A finger that goes down at (x, y) at `t` and moves by `velocity` (points per second)
    /// in 10 ms steps for `duration` seconds, then lifts while still moving.
    func fling(from x: Double, _ y: Double, velocity: Point, at t: Double = 0, duration: Double = 0.2) {
        down(0, x, y, at: t)
        let steps = Int((duration / 0.01).rounded())
        for k in 1...steps {
            let dt = Double(k) * 0.01
            move(0, x + velocity.x * dt, y + velocity.y * dt, at: t + dt)
        }
        let dt = Double(steps + 1) * 0.01
        up(0, x + velocity.x * dt, y + velocity.y * dt, at: t + dt)
    }
}

@Suite("ScrollPhysics: the curves")
struct ScrollPhysicsTests {
    @Test("the projection is where per-millisecond deceleration ends: v/1000 × rate/(1 − rate)")
    func projection() {
        let p = ScrollPhysics(decelerationRate: 0.998)
        #expect(abs(p.projection(100, velocity: 1000) - (100 + 499)) < 1e-9, "1000 pt/s at 0.998 goes 499 pt")
        // Summing the per-millisecond steps gives the same place.
        var offset = 100.0, v = 1000.0
        for _ in 0..<20_000 { v *= 0.998; offset += v / 1000 }
        #expect(abs(offset - p.projection(100, velocity: 1000)) < 1e-6)
        #expect(abs(p.distance(1000, after: 20_000) - 499) < 1e-6)
        #expect(abs(p.velocity(toTravel: 499) - 1000) < 1e-9, "the inverse gives the velocity back")
    }

    @Test("the rubber band: (1 − 1/(x·c/d + 1))·d, less than the drag, never past d, and invertible")
    func rubberBand() {
        let d = 800.0
        #expect(abs(ScrollPhysics.rubberBand(100, dimension: d) - (1 - 1 / (100 * 0.55 / d + 1)) * d) < 1e-12)
        #expect(ScrollPhysics.rubberBand(100, dimension: d) < 100)
        #expect(ScrollPhysics.rubberBand(1e9, dimension: d) < d)
        for shown in [1.0, 50, 300, 700] {
            let drag = ScrollPhysics.unstretched(shown, dimension: d)
            #expect(abs(ScrollPhysics.rubberBand(drag, dimension: d) - shown) < 1e-6)
        }
    }

    @Test("the critically damped spring comes back without crossing the edge")
    func spring() {
        var x = 100.0, v = 0.0
        var crossed = false
        for _ in 0..<60 {
            (x, v) = ScrollPhysics.spring(x, velocity: v, after: 1.0 / 60)
            if x < 0 { crossed = true }
        }
        #expect(!crossed)
        #expect(abs(x) < 0.5, "a 100 pt overshoot is back within half a point in a second (\(x))")
    }
}

@Suite("ScrollView: drag, deceleration, bounce, paging")
struct ScrollViewTests {
    @Test("a generated fling comes to rest within 1 pt of the projection", arguments: [
        (300.0, DecelerationRate.normal), (1200, .normal), (2500, .normal), (1200, .fast), (4000, .fast),
    ])
    func flingRestsAtProjection(speed: Double, rate: DecelerationRate) throws {
        let (sv, script, rec) = scrollScene(height: 100_000)
        sv.decelerationRate = rate
        sv.contentOffset = Point(x: 0, y: 20_000)
        rec.lines.removeAll()
        script.fling(from: 200, 600, velocity: Point(x: 0, y: -speed))
        let releaseOffset = try #require(rec.releaseOffset)
        let v = try #require(rec.releaseVelocity)
        #expect(abs(v.y - speed) < speed * 0.1, "the release velocity is the finger's recent motion (\(v.y) for \(speed))")
        #expect(sv.isDecelerating)
        script.finish()
        let expected = releaseOffset.y + v.y / 1000 * rate.rawValue / (1 - rate.rawValue)
        #expect(abs(sv.contentOffset.y - expected) <= 1, "at rest at \(sv.contentOffset.y), projection \(expected)")
        #expect(rec.phases == [.dragging, .decelerating, .rest])
        #expect(rec.lines.filter { $0.phase == .rest }.count == 1, "rest is reported once")
        #expect(!sv.isDecelerating && sv.scrollPhase == .rest)
        #expect(rec.calls == ["willBeginDragging", "willEndDragging", "didEndDragging(true)", "didEndDecelerating"])
        // Every frame is on the 60 Hz grid and the content only slows down.
        let frames = rec.lines.filter { $0.phase == .decelerating }
        #expect(frames.allSatisfy { f in
            let k = (f.time.nanoseconds * 60 + 500_000_000) / 1_000_000_000
            return f.time.nanoseconds == k * 1_000_000_000 / 60
        })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { abs($1.velocity.y) <= abs($0.velocity.y) })
    }

    @Test("a fling toward the top runs past the edge, bounces, and comes to rest at the edge")
    func flingBouncesAtEdge() {
        let (sv, script, rec) = scrollScene()
        sv.contentOffset = Point(x: 0, y: 1000)
        script.fling(from: 200, 200, velocity: Point(x: 0, y: 2500))   // finger down: content up
        script.finish()
        #expect(sv.contentOffset == Point(x: 0, y: 0), "at rest at the top edge")
        #expect(rec.phases.suffix(3) == [.decelerating, .bouncing, .rest])
        let overshoot = rec.lines.map(\.offset.y).min() ?? 0
        #expect(overshoot < -1, "it ran past the edge (\(overshoot))")
        #expect(overshoot > -800, "never farther than the view's height")
    }

    @Test("a drag past the edge follows the finger less and less, and springs back when released")
    func rubberBandAndBounceBack() {
        let (sv, script, rec) = scrollScene()
        script.down(0, 200, 100, at: 0)
        script.move(0, 200, 120, at: 0.05)
        script.move(0, 200, 300, at: 0.2)
        let shown = -sv.contentOffset.y
        // The pan began at y = 120 (its translation counts from there): a 180 pt drag past the edge.
        #expect(shown > 0 && shown < 180, "rubber band: \(shown) pt shown for a 180 pt drag")
        #expect(abs(shown - ScrollPhysics.rubberBand(180, dimension: 800)) < 1e-6)
        script.up(0, 200, 300, at: 0.3)   // still for 100 ms: no velocity
        script.finish()
        #expect(sv.contentOffset == .zero)
        #expect(rec.phases == [.dragging, .bouncing, .rest])
    }

    @Test("without bounces the content stops at the edge")
    func noBounce() {
        let (sv, script, rec) = scrollScene()
        sv.bounces = false
        sv.contentOffset = Point(x: 0, y: 300)
        script.fling(from: 200, 200, velocity: Point(x: 0, y: 2500))
        script.finish()
        #expect(sv.contentOffset == .zero)
        #expect(rec.lines.allSatisfy { $0.offset.y >= 0 }, "never past the edge")
        #expect(!rec.phases.contains(.bouncing))
    }

    @Test("paging: a release comes to rest on a page", arguments: [-1500.0, -100, 100, 1500])
    func paging(speed: Double) {
        let (sv, script, _) = scrollScene()
        sv.isPagingEnabled = true
        sv.contentOffset = Point(x: 0, y: 1600)   // page 2
        script.fling(from: 200, 400, velocity: Point(x: 0, y: speed), duration: 0.1)
        script.finish()
        let page = sv.contentOffset.y / 800
        #expect(abs(page - page.rounded()) < 1e-9, "at rest on a page: \(sv.contentOffset.y)")
        if abs(speed) >= ScrollViewMetrics.pagingFlickVelocity {
            #expect(page == (speed < 0 ? 3 : 1), "a flick turns the page in its direction")
        } else {
            #expect(page == 2, "a slow release goes back to the nearest page")
        }
    }

    @Test("the delegate may change the target: the content comes to rest there")
    func delegateTarget() {
        let (sv, script, rec) = scrollScene()
        rec.replaceTarget = { t in Point(x: t.x, y: (t.y / 100).rounded() * 100 + 37) }
        sv.contentOffset = Point(x: 0, y: 2000)
        script.fling(from: 200, 600, velocity: Point(x: 0, y: -1500))
        script.finish()
        let wanted = ((rec.proposedTarget?.y ?? 0) / 100).rounded() * 100 + 37
        #expect(sv.contentOffset.y == wanted)
    }

    @Test("content that fits does not begin a drag in that direction, unless it always bounces")
    func shortContent() {
        let (sv, script, rec) = scrollScene(height: 500)
        script.fling(from: 200, 600, velocity: Point(x: 0, y: -1000), duration: 0.1)
        script.finish()
        #expect(script.lines("scroll.pan").last == "0.010 scroll.pan: possible→failed", "it would have begun at 10 pt, 10 ms in: it fails instead")
        #expect(rec.lines.isEmpty && sv.contentOffset == .zero)

        let (sv2, script2, rec2) = scrollScene(height: 500)
        sv2.alwaysBounceVertical = true
        script2.fling(from: 200, 600, velocity: Point(x: 0, y: -1000), duration: 0.1)
        script2.finish()
        #expect(rec2.phases == [.dragging, .bouncing, .rest], "always bounces: dragged, then back")
        #expect(sv2.contentOffset == .zero)
    }

    @Test("alwaysBounceVertical acts only while bounces is true, as UIScrollView's")
    func alwaysBounceNeedsBounces() {
        let (sv, script, rec) = scrollScene(height: 500)
        sv.alwaysBounceVertical = true
        sv.bounces = false
        script.fling(from: 200, 600, velocity: Point(x: 0, y: -1000), duration: 0.1)
        script.finish()
        #expect(script.lines("scroll.pan").last == "0.010 scroll.pan: possible→failed",
                "with bounces off, content that fits does not begin a drag: \(script.lines("scroll.pan"))")
        #expect(rec.lines.isEmpty && sv.contentOffset == .zero)
    }

    @Test("a touch on moving content stops it where it is")
    func touchStops() {
        let (sv, script, rec) = scrollScene()
        sv.contentOffset = Point(x: 0, y: 2000)
        rec.lines.removeAll()
        script.fling(from: 200, 600, velocity: Point(x: 0, y: -2000))
        script.advance(to: 0.5)
        #expect(sv.isDecelerating)
        let offset = sv.contentOffset
        script.down(1, 200, 400, at: 0.5)
        #expect(sv.scrollPhase == .rest && !sv.isDecelerating)
        #expect(sv.contentOffset == offset, "stopped where it was")
        script.up(1, 200, 400, at: 0.55)
        script.finish()
        #expect(sv.contentOffset == offset)
        #expect(rec.lines.filter { $0.phase == .rest }.count == 1)
    }

    @Test("setContentOffset animated eases there on the engine's clock; scrollRectToVisible scrolls the least")
    func animatedOffset() {
        let (sv, script, rec) = scrollScene()
        sv.setContentOffset(Point(x: 0, y: 500), animated: true)
        #expect(sv.contentOffset == .zero, "nothing moves before a frame")
        script.advance(to: 0.15)
        #expect(sv.contentOffset.y > 250 && sv.contentOffset.y < 500, "ease-out: more than half way at half time")
        script.advance(to: 0.4)
        #expect(sv.contentOffset == Point(x: 0, y: 500))
        #expect(rec.calls == ["didEndScrollingAnimation"])
        sv.scrollRectToVisible(Rect(x: 0, y: 1400, width: 10, height: 100), animated: false)
        #expect(sv.contentOffset == Point(x: 0, y: 700), "the rect's bottom at the view's bottom")
    }
}

@Suite("ScrollView: direction lock and momentum from code")
struct ScrollViewDirectionTests {
    @Test("with isDirectionalLockEnabled a drag that begins vertically moves only vertically; a diagonal one moves freely",
          arguments: [true, false])
    func directionalLock(enabled: Bool) {
        let (sv, script, _) = scrollScene(height: 10_000, width: 10_000)
        sv.isDirectionalLockEnabled = enabled
        sv.contentOffset = Point(x: 5000, y: 5000)
        script.down(0, 200, 600, at: 0)
        script.move(0, 202, 580, at: 0.02)    // the pan begins
        script.move(0, 203, 560, at: 0.04)    // its first movement is vertical
        script.move(0, 260, 500, at: 0.1)     // then it drifts sideways
        script.up(0, 260, 500, at: 0.3)
        script.finish()
        #expect(sv.contentOffset.y > 5000)
        if enabled {
            #expect(sv.contentOffset.x == 5000, "locked to the vertical axis")
        } else {
            #expect(sv.contentOffset.x < 5000, "free: the sideways drift moved it")
        }
        let (free, script2, _) = scrollScene(height: 10_000, width: 10_000)
        free.isDirectionalLockEnabled = true
        free.contentOffset = Point(x: 5000, y: 5000)
        script2.down(0, 200, 600, at: 0)
        script2.move(0, 210, 590, at: 0.02)   // the pan begins
        script2.move(0, 225, 575, at: 0.04)   // diagonal
        script2.move(0, 260, 540, at: 0.1)
        script2.up(0, 260, 540, at: 0.3)
        script2.finish()
        #expect(free.contentOffset.x < 5000 && free.contentOffset.y > 5000, "a diagonal drag is not locked")
    }

    @Test("startDecelerating carries momentum on from code: it rests at the projection")
    func startDecelerating() {
        let (sv, script, rec) = scrollScene()
        sv.contentOffset = Point(x: 0, y: 1000)
        sv.startDecelerating(velocity: Point(x: 300, y: 1500))
        #expect(sv.isDecelerating)
        script.finish()
        #expect(abs(sv.contentOffset.y - (1000 + 1.5 * 499)) <= 1)
        #expect(sv.contentOffset.x == 0, "content as wide as the view does not move sideways")
        #expect(rec.calls == ["didEndDecelerating"])
    }
}

/// Records the zoom delegate calls.
final class ZoomRecorder: ScrollViewDelegate {
    var calls: [String] = []
    var scales: [Double] = []
    let zoomed: View?
    init(zoomed: View?) { self.zoomed = zoomed }
    func viewForZooming(in scrollView: ScrollView) -> View? { zoomed }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) { calls.append("willBeginZooming") }
    func scrollViewDidZoom(_ scrollView: ScrollView) { scales.append(scrollView.zoomScale) }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {
        calls.append("didEndZooming(\(scale))")
    }
}

@Suite("ScrollView: zooming with its own pinch")
struct ScrollViewZoomTests {
    /// A 400×800 scroll view over 400×800 content (an image view), zoomable 1…`maximum`.
    static func zoomScene(maximum: Double = 3, bounces: Bool = true) -> (ScrollView, Harness, ZoomRecorder, View) {
        let sv = ScrollView(id: "scroll", frame: Rect(x: 0, y: 0, width: 400, height: 800))
        let image = View(id: "image", frame: Rect(x: 0, y: 0, width: 400, height: 800))
        sv.addSubview(image)
        sv.contentSize = Size(width: 400, height: 800)
        sv.maximumZoomScale = maximum
        sv.bouncesZoom = bounces
        let recorder = ZoomRecorder(zoomed: image)
        sv.delegate = recorder
        return (sv, Harness(root: sv), recorder, image)
    }

    /// Two fingers about (200, 400), 100 pt apart, spread to `factor` times that in 0.3 s.
    static func pinch(_ script: Harness, factor: Double, center: Point = Point(x: 200, y: 400)) {
        script.frame(0, [(0, .began, center.x - 50, center.y), (1, .began, center.x + 50, center.y)])
        for k in 1...30 {
            let half = 50 * (1 + (factor - 1) * Double(k) / 30)
            script.frame(Double(k) * 0.01, [(0, .moved, center.x - half, center.y), (1, .moved, center.x + half, center.y)])
        }
        let half = 50 * factor
        script.frame(0.4, [(0, .ended, center.x - half, center.y), (1, .ended, center.x + half, center.y)])
    }

    @Test("a pinch zooms about the fingers: the content point under them stays under them")
    func pinchZooms() throws {
        let (sv, script, rec, image) = Self.zoomScene()
        let pinch = try #require(sv.pinchGestureRecognizer)
        var ratios: [Double] = []
        var last = 0.0
        pinch.addTarget { p in
            if p.state == .changed { ratios.append(sv.zoomScale / p.scale); last = p.scale }
        }
        Self.pinch(script, factor: 2, center: Point(x: 100, y: 200))
        script.finish()
        #expect(ratios.count > 10 && ratios.allSatisfy { abs($0 - 1) < 1e-9 }, "zoomScale = scale at began (1) × the pinch's scale")
        // The pinch's scale counts from its span when it began (past its threshold), so a 2×
        // spread from touch-down is a smaller scale.
        #expect(sv.zoomScale == last && last > 1.5 && last < 2, "zoomed by the pinch's scale: \(sv.zoomScale)")
        #expect(abs(sv.contentSize.width - 400 * sv.zoomScale) < 1e-9 && abs(image.frame.width - 400 * sv.zoomScale) < 1e-9,
                "content and the zoomed view scale with it")
        // The point (100, 200) stayed under the fingers' centroid: offset = 100·s − 100, 200·s − 200.
        let s = sv.zoomScale
        #expect(abs(sv.contentOffset.x - (100 * s - 100)) < 1e-6 && abs(sv.contentOffset.y - (200 * s - 200)) < 1e-6)
        #expect(rec.calls.first == "willBeginZooming" && rec.calls.last?.hasPrefix("didEndZooming") == true)
    }

    @Test("past the maximum the scale rubber-bands, then springs back to it")
    func bouncesBackToMaximum() {
        let (sv, script, rec, _) = Self.zoomScene(maximum: 2)
        var last = 0.0
        sv.pinchGestureRecognizer!.addTarget { p in if p.state == .changed { last = p.scale } }
        Self.pinch(script, factor: 3)
        let peak = rec.scales.max() ?? 0
        #expect(last > 2 && peak > 2 && peak < last, "the rubber band shows more than 2, less than the pinch's \(last): \(peak)")
        #expect(abs(peak - (2 + ScrollPhysics.rubberBand(last - 2, dimension: 2))) < 1e-9)
        #expect(sv.isZoomBouncing)
        script.finish()
        #expect(sv.zoomScale == 2, "back to the maximum")
        #expect(rec.calls.last == "didEndZooming(2.0)")
        #expect(sv.contentOffset == sv.clampedContentOffset(sv.contentOffset), "and the offset within its edges")
    }

    @Test("below the minimum it springs back up; without bouncesZoom it stops at the range's end")
    func minimumAndNoBounce() {
        let (sv, script, _, _) = Self.zoomScene()
        Self.pinch(script, factor: 0.5)
        script.finish()
        #expect(sv.zoomScale == 1)
        #expect(sv.contentSize == Size(width: 400, height: 800))
        let (sv2, script2, rec2, _) = Self.zoomScene(maximum: 2, bounces: false)
        Self.pinch(script2, factor: 3)
        #expect(rec2.scales.allSatisfy { $0 <= 2 }, "never past the maximum")
        script2.finish()
        #expect(sv2.zoomScale == 2)
    }

    @Test("no zoom range, no pinch; setZoomScale animated eases there")
    func rangeAndAnimation() {
        let (sv, script, rec, _) = Self.zoomScene(maximum: 1)
        #expect(sv.pinchGestureRecognizer == nil)
        sv.maximumZoomScale = 4
        #expect(sv.pinchGestureRecognizer != nil)
        sv.setZoomScale(3, animated: true)
        script.advance(to: 0.15)
        #expect(sv.zoomScale > 2 && sv.zoomScale < 3)
        script.advance(to: 0.5)
        #expect(sv.zoomScale == 3)
        #expect(rec.calls == ["didEndZooming(3.0)"])
        sv.zoomScale = 10
        #expect(sv.zoomScale == 4, "kept within the range")
    }
}

@Suite("ScrollView: caught mid-bounce, and without a clock")
struct ScrollViewEdgeCaseTests {
    @Test("a touch that catches the content past the edge holds it there; lifting it springs back")
    func caughtMidBounce() {
        let (sv, script, rec) = scrollScene()
        script.down(0, 200, 100, at: 0)
        script.move(0, 200, 120, at: 0.05)
        script.move(0, 200, 400, at: 0.2)
        script.up(0, 200, 400, at: 0.3)       // still: no velocity, it bounces back
        script.advance(to: 0.35)
        #expect(sv.scrollPhase == .bouncing && sv.contentOffset.y < 0)
        let held = sv.contentOffset
        script.down(1, 200, 300, at: 0.35)
        #expect(sv.scrollPhase == .rest && sv.contentOffset == held, "held where it was, past the edge")
        script.advance(to: 1)
        #expect(sv.contentOffset == held, "still held while the finger is down")
        script.up(1, 200, 300, at: 1)
        script.finish()
        #expect(sv.contentOffset == .zero, "back at the edge once the finger lifted")
        #expect(rec.phases.suffix(3) == [.rest, .bouncing, .rest])
    }

    @Test("without an engine there is no clock: motion ends at once where it would rest")
    func noEngine() {
        let sv = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 800))
        sv.contentSize = Size(width: 400, height: 10_000)
        sv.setContentOffset(Point(x: 0, y: 500), animated: true)
        #expect(sv.contentOffset == Point(x: 0, y: 500))
        sv.startDecelerating(velocity: Point(x: 0, y: 1000))
        #expect(abs(sv.contentOffset.y - 999) <= 1 && sv.scrollPhase == .rest && !sv.isDecelerating)
    }
}
