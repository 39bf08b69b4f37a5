import Testing
@testable import GestureKit

/// Display links: frames are deadlines on the engine's clock.
@Suite struct DisplayLinkTests {
    @Test func framesFallOnTheDisplayGridWhenTimeIsAdvanced() {
        let engine = GestureEngine()
        var frames: [Int64] = []
        let link = engine.addDisplayLink(frameRate: 60) { frames.append($0.timestamp.nanoseconds) }
        #expect(engine.nextDeadline == nil, "a new link starts paused and asks for nothing")
        engine.advance(to: Instant(seconds: 0.010))
        link.isPaused = false
        #expect(link.nextFrame == Instant(nanoseconds: 16_666_666), "the first frame is the first 1/60 s point after 10 ms")
        engine.advance(to: Instant(seconds: 0.060))
        #expect(frames == [16_666_666, 33_333_333, 50_000_000], "every frame on the way fires at its own time")
        #expect(engine.now == Instant(seconds: 0.060))
        link.isPaused = true
        engine.advance(to: Instant(seconds: 1))
        #expect(frames.count == 3, "a paused link gets no frames")
    }

    @Test func framesFireBeforeLaterInputAndAfterATimerAtTheSameInstant() {
        let engine = GestureEngine()
        let root = View(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        engine.addRoot(root)
        var log: [String] = []
        let link = engine.addDisplayLink(frameRate: 10) { log.append("frame \($0.timestamp.seconds)") }
        root.onTouches = { _, phase, _ in log.append("touches \(phase.rawValue) at \(engine.now.seconds)") }
        link.isPaused = false
        engine.send(TouchFrame(time: Instant(seconds: 0.25), device: InputDeviceID(0),
                               changes: [TouchChange(sourceID: 1, phase: .began, location: Point(x: 5, y: 5))]))
        #expect(log == ["frame 0.1", "frame 0.2", "touches began at 0.25"],
                "frames before a touch fire before it, each at its own time")
    }

    @Test func finishRunsALinkUntilItPauses() {
        let engine = GestureEngine()
        var count = 0
        var link: DisplayLink!
        link = engine.addDisplayLink(frameRate: 60) { l in
            count += 1
            if count == 30 { l.isPaused = true }
        }
        link.isPaused = false
        engine.finish()
        #expect(count == 30, "finish runs the animation to its end, on virtual time")
        #expect(engine.now == Instant(nanoseconds: 500_000_000), "30 frames at 60 per second end at 0.5 s")
        link.invalidate()
        link.isPaused = false
        #expect(engine.nextDeadline == nil, "an invalidated link never runs again")
    }

    @Test(arguments: [1, 24, 60, 90, 120, 144, 1000])
    func gridPointsAreStrictlyIncreasingAndMatchTheRate(rate: Int) {
        var t = Instant(nanoseconds: 123_456_789)
        var points: [Instant] = []
        for _ in 0..<(rate * 2) {
            t = DisplayLink.gridPoint(after: t, rate: rate)
            points.append(t)
        }
        #expect(zip(points, points.dropFirst()).allSatisfy { $0 < $1 })
        let seconds = (points.last! - points.first!).inSeconds
        #expect(abs(seconds - Double(rate * 2 - 1) / Double(rate)) < 1e-6, "\(rate) frames take one second")
    }
}
