import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// Sends a pointer's scrolls through a `Harness`.
extension Harness {
    /// A touchpad's two-finger scroll at (x, y): the content dragged by `velocity` (points per
    /// second, the sign of dragging it) in 10 ms steps for `duration` seconds, then, `rest`
    /// seconds after the last step (the fingers resting), the scroll stop.
    func touchpadScroll(at x: Double, _ y: Double, velocity: Point, from t: Double = 0, duration: Double = 0.2,
                        rest: Double = 0.01) {
        let steps = Int((duration / 0.01).rounded())
        let at = Point(x: x, y: y)
        for k in 0..<steps {
            send(.pointer(.scroll(velocity * 0.01, .continuous, at: at, time: Instant(seconds: t + Double(k) * 0.01))))
        }
        let stop = t + Double(steps - 1) * 0.01 + rest
        send(.pointer(.scroll(.zero, .continuous, at: at, time: Instant(seconds: stop), stop: true)))
    }

    /// `detents` wheel detents at (x, y), `interval` seconds apart from `t` (positive: turned
    /// forward, which drags the content down, 15 pt a detent).
    func wheel(at x: Double, _ y: Double, detents: Int, from t: Double, interval: Double = 0.06) {
        let step = Point(x: 0, y: detents > 0 ? GestureDefaults.wheelPointsPerDetent : -GestureDefaults.wheelPointsPerDetent)
        for k in 0..<abs(detents) {
            send(.pointer(.scroll(step, .discrete, at: Point(x: x, y: y), time: Instant(seconds: t + Double(k) * interval))))
        }
    }
}

@Suite("ScrollView: touchpad scrolls, wheels and holds")
struct ScrollPointerTests {
    @Test("a touchpad's two-finger scroll moves the content with it, then decelerates from its release velocity to the projection",
          arguments: [600.0, 1500, 3000])
    func touchpadScrollFlings(speed: Double) throws {
        let (sv, script, rec) = scrollScene(height: 100_000)
        sv.contentOffset = Point(x: 0, y: 20_000)
        rec.lines.removeAll()
        // The fingers drag the content up (negative y): the offset grows.
        script.touchpadScroll(at: 200, 400, velocity: Point(x: 0, y: -speed))
        let releaseOffset = try #require(rec.releaseOffset, "the scroll stop ends the drag")
        let v = try #require(rec.releaseVelocity)
        #expect(abs(releaseOffset.y - (20_000 + speed * 0.2)) < 1e-6,
                "while scrolling, the offset follows the scroll's deltas exactly: \(releaseOffset.y)")
        #expect(abs(v.y - speed) < speed * 0.1, "the release velocity is the scroll's recent motion (\(v.y) for \(speed))")
        #expect(sv.isDecelerating, "the content keeps moving after the scroll stop")
        script.finish()
        let projection = ScrollPhysics(decelerationRate: DecelerationRate.normal.rawValue).projection(releaseOffset.y, velocity: v.y)
        let last = try #require(rec.lines.last)
        #expect(last.phase == .rest && abs(last.offset.y - projection) <= 1,
                "comes to rest within 1 pt of the projection \(projection), at \(last.offset.y)")
        #expect(rec.calls.suffix(2) == ["didEndDragging(true)", "didEndDecelerating"])
    }

    @Test("a touchpad scroll whose fingers rest before lifting does not fling: the stop finds no recent motion")
    func touchpadScrollRestedBeforeStop() throws {
        let (sv, script, rec) = scrollScene(height: 100_000)
        sv.contentOffset = Point(x: 0, y: 20_000)
        script.touchpadScroll(at: 200, 400, velocity: Point(x: 0, y: -2000), rest: 0.3)
        #expect(!sv.isDecelerating, "fingers that stopped 0.3 s before lifting leave the content still")
        #expect(rec.releaseVelocity == .zero, "release velocity \(String(describing: rec.releaseVelocity))")
        #expect(sv.contentOffset.y == 20_400)
        #expect(rec.calls.last == "didEndDragging(false)")
    }

    @Test("a wheel moves the content 15 pt a detent and stops there, without a fling")
    func wheelNoFling() throws {
        let (sv, script, rec) = scrollScene(height: 100_000)
        sv.contentOffset = Point(x: 0, y: 20_000)
        rec.lines.removeAll()
        script.wheel(at: 200, 400, detents: -4, from: 0, interval: 0.02)   // turned back: content up
        #expect(sv.contentOffset.y == 20_060, "4 detents move the content 60 pt at once")
        #expect(sv.isDragging, "the wheel's scroll lasts until its pause")
        script.finish()
        #expect(sv.contentOffset.y == 20_060, "the content stays where the detents put it: \(sv.contentOffset.y)")
        #expect(!rec.lines.contains { $0.phase == .decelerating || $0.phase == .bouncing },
                "a wheel never decelerates nor bounces: phases \(rec.phases)")
        #expect(rec.phases == [.dragging, .rest])
        #expect(rec.calls.last == "didEndDragging(false)")
    }

    @Test("a wheel against an edge does not pull the content past it, and turning back moves it at once")
    func wheelAtEdge() throws {
        let (sv, script, rec) = scrollScene(height: 10_000)
        script.wheel(at: 200, 400, detents: 3, from: 0)    // forward at the top: nothing to show
        #expect(sv.contentOffset.y == 0, "the wheel does not rubber-band past the top: \(sv.contentOffset.y)")
        script.wheel(at: 200, 400, detents: -1, from: 0.18)
        #expect(sv.contentOffset.y == 15, "one detent back moves 15 pt at once: \(sv.contentOffset.y)")
        script.finish()
        #expect(rec.lines.allSatisfy { $0.offset.y >= 0 }, "never past the top")
        #expect(sv.contentOffset.y == 15)
    }

    enum Hold: String, CaseIterable { case libinputHold, restingContacts }

    @Test("a touchpad hold while the content decelerates stops it where it is", arguments: Hold.allCases)
    func holdStopsDeceleration(_ hold: Hold) throws {
        let (sv, script, rec) = scrollScene(height: 100_000)
        sv.contentOffset = Point(x: 0, y: 20_000)
        script.touchpadScroll(at: 200, 400, velocity: Point(x: 0, y: -3000))
        script.advance(to: 0.5)
        #expect(sv.isDecelerating)
        let t = 0.5
        switch hold {
        case .libinputHold:
            script.engine.send(TouchpadGestureEvent(kind: .hold, phase: .begin, time: Instant(seconds: t), fingers: 2,
                                                    location: Point(x: 200, y: 400)))
        case .restingContacts:
            script.engine.send(TouchFrame(time: Instant(seconds: t), deviceKind: .touchpad,
                                          changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 180, y: 300)),
                                                    TouchChange(sourceID: 1, phase: .began, location: Point(x: 220, y: 300))]))
        }
        #expect(!sv.isDecelerating, "the hold stops the content")
        let stopped = sv.contentOffset
        script.advance(to: 0.9)
        switch hold {
        case .libinputHold:
            script.engine.send(TouchpadGestureEvent(kind: .hold, phase: .end, time: Instant(seconds: 0.9), fingers: 2,
                                                    location: Point(x: 200, y: 400)))
        case .restingContacts:
            script.engine.send(TouchFrame(time: Instant(seconds: 0.9), deviceKind: .touchpad,
                                          changes: [TouchChange(sourceID: 0, phase: .ended, location: Point(x: 180, y: 300)),
                                                    TouchChange(sourceID: 1, phase: .ended, location: Point(x: 220, y: 300))]))
        }
        script.finish()
        #expect(sv.contentOffset == stopped, "the content stays where the hold stopped it: \(stopped.y), now \(sv.contentOffset.y)")
        #expect(rec.lines.last?.phase == .rest)
    }

    @Test("a touchpad hold on still content does nothing to it")
    func holdOnStillContent() {
        let (sv, script, rec) = scrollScene(height: 100_000)
        script.engine.send(TouchpadGestureEvent(kind: .hold, phase: .begin, time: Instant(seconds: 0), fingers: 2,
                                                location: Point(x: 200, y: 400)))
        script.engine.send(TouchpadGestureEvent(kind: .hold, phase: .end, time: Instant(seconds: 0.3), fingers: 2,
                                                location: Point(x: 200, y: 400)))
        script.finish()
        #expect(sv.contentOffset == .zero && rec.lines.isEmpty)
    }

    @Test("one finger moving on a touchpad (the pointer) does not drag the scroll view, as on iPadOS")
    func touchpadContactIsNoDrag() {
        let (sv, script, rec) = scrollScene(height: 10_000)
        sv.contentOffset = Point(x: 0, y: 2000)
        rec.lines.removeAll()
        script.engine.send(TouchFrame(time: .zero, deviceKind: .touchpad,
                                      changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 200, y: 600))]))
        for k in 1...20 {
            script.engine.send(TouchFrame(time: Instant(seconds: Double(k) * 0.01), deviceKind: .touchpad,
                                          changes: [TouchChange(sourceID: 0, phase: .moved, location: Point(x: 200, y: 600 - Double(k) * 20))]))
        }
        script.engine.send(TouchFrame(time: Instant(seconds: 0.21), deviceKind: .touchpad,
                                      changes: [TouchChange(sourceID: 0, phase: .ended, location: Point(x: 200, y: 200))]))
        script.finish()
        #expect(sv.contentOffset.y == 2000 && rec.lines.isEmpty, "a touchpad contact moved the content to \(sv.contentOffset.y)")
    }

    @Test("a touchscreen drag still scrolls, and a pressed button's drag too")
    func directAndPointerDrag() {
        let (sv, script, _) = scrollScene(height: 10_000)
        sv.contentOffset = Point(x: 0, y: 2000)
        script.engine.send(.button(true, at: Point(x: 200, y: 600), time: .zero))
        for k in 1...10 {
            script.engine.send(.motion(to: Point(x: 200, y: 600 - Double(k) * 20), at: Instant(seconds: Double(k) * 0.02)))
        }
        script.engine.send(.button(false, at: Point(x: 200, y: 400), time: Instant(seconds: 0.5)))
        #expect(sv.contentOffset.y > 2000, "a click-drag up scrolls the content: \(sv.contentOffset.y)")
    }
}

/// The desktop's zoom: control with the wheel, and a touchpad's pinch, on a zoomable scroll view.
@Suite("ScrollView: zooming from the desktop")
struct DesktopZoomTests {
    @Test("a wheel turned with control held zooms about the pointer, ×1.1 a detent forward and back again, within the zoom range; without control it scrolls")
    func controlWheel() {
        let (sv, script, rec, _) = ScrollViewZoomTests.zoomScene(maximum: 3)
        script.engine.send(.modifiers(time: .zero, device: InputDeviceID(9), .control))
        script.wheel(at: 100, 200, detents: 3, from: 0.1, interval: 0.05)
        let expected = 1.1 * 1.1 * 1.1
        #expect(abs(sv.zoomScale - expected) < 1e-9, "three detents forward: ×1.331, got \(sv.zoomScale)")
        // The content point under the pointer stays there: (100, 200) of the unscaled content.
        #expect(abs(sv.contentOffset.x - (100 * expected - 100)) < 1e-9 && abs(sv.contentOffset.y - (200 * expected - 200)) < 1e-9,
                "zoomed about the pointer: offset \(sv.contentOffset)")
        script.advance(to: 1)
        #expect(rec.calls == ["willBeginZooming", "didEndZooming(\(sv.zoomScale))"], "the delegate hears the zoom: \(rec.calls)")
        script.wheel(at: 100, 200, detents: -20, from: 1.1, interval: 0.02)
        #expect(sv.zoomScale == 1, "twenty detents back stop at the minimum scale, no rubber band: \(sv.zoomScale)")
        script.advance(to: 2)
        script.engine.send(.modifiers(time: Instant(seconds: 2), device: InputDeviceID(9), []))
        script.wheel(at: 100, 200, detents: -2, from: 2.1)
        script.advance(to: 3)
        #expect(sv.zoomScale == 1, "without control the wheel does not zoom")
    }

    @Test("a touchpad's pinch at the pointer zooms the scroll view, as its own pinch does")
    func touchpadPinch() {
        let (sv, script, _, _) = ScrollViewZoomTests.zoomScene(maximum: 3)
        let at = Point(x: 200, y: 400)
        script.engine.send(.pointer(.motion(to: at, at: .zero)))
        var t = 0.01
        script.engine.send(TouchpadGestureEvent(kind: .pinch, phase: .begin, time: Instant(seconds: t), device: InputDeviceID(3),
                                                fingers: 2, location: at, scale: 1))
        for k in 1...10 {
            t += 0.01
            script.engine.send(TouchpadGestureEvent(kind: .pinch, phase: .update, time: Instant(seconds: t), device: InputDeviceID(3),
                                                    fingers: 2, location: at, scale: 1 + Double(k) * 0.1))
        }
        script.engine.send(TouchpadGestureEvent(kind: .pinch, phase: .end, time: Instant(seconds: t + 0.01), device: InputDeviceID(3),
                                                fingers: 2, location: at, scale: 2))
        script.finish()
        #expect(abs(sv.zoomScale - 2) < 1e-9, "the pad's fingers spread to twice their distance: scale 2, got \(sv.zoomScale)")
    }
}
