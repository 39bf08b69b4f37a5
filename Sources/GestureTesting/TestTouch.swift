import GestureKit

/// One finger on the tester's touchscreen, for gestures the helpers do not make: it went
/// down where `GestureTester.touchDown(at:)` put it and moves, lifts or is cancelled when
/// you say, each change one event on the tester's clock.
public final class TestTouch {
    /// The touch's id on the tester's touchscreen (each touch of a tester has its own).
    public let sourceID: Int
    /// Where it is, in screen points.
    public internal(set) var location: Point
    /// Whether it is still down.
    public internal(set) var isDown = true
    unowned let tester: GestureTester

    init(sourceID: Int, location: Point, tester: GestureTester) {
        self.sourceID = sourceID
        self.location = location
        self.tester = tester
    }

    /// Moves the finger to `point` in one event, one sample after the tester's `now`.
    public func move(to point: Point) {
        tester.move([(self, point)])
    }

    /// Moves the finger to `point` in a straight line at constant speed over `duration`, one
    /// event every sample.
    public func move(to point: Point, duration: Duration) {
        let start = location
        for fraction in tester.fractions(over: duration) {
            tester.move([(self, start + (point - start) * fraction)])
        }
    }

    /// Lifts the finger where it is.
    public func lift() { tester.lift([self]) }

    /// Cancels the touch (the system took it away: UIKit's `touchesCancelled`).
    public func cancel() {
        guard isDown else { return }
        tester.frame([TouchChange(sourceID: sourceID, phase: .cancelled, location: location)])
        isDown = false
    }
}

extension GestureTester {
    /// Puts a finger down at `point` (screen points) and returns it.
    @discardableResult
    public func touchDown(at point: Point) -> TestTouch {
        touchesDown(at: [point])[0]
    }

    /// Puts a finger down on `view`'s centre; throws if another view would get it.
    @discardableResult
    public func touchDown(on view: View) throws -> TestTouch {
        touchDown(at: try aim(at: view))
    }

    /// Puts fingers down at `points`, all in one event.
    @discardableResult
    public func touchesDown(at points: [Point]) -> [TestTouch] { touchesDown(at: points, time: nil) }

    func touchesDown(at points: [Point], time: Instant?) -> [TestTouch] {
        let touches = points.map { point -> TestTouch in
            defer { nextTouchID += 1 }
            return TestTouch(sourceID: nextTouchID, location: point, tester: self)
        }
        frame(touches.map { TouchChange(sourceID: $0.sourceID, phase: .began, location: $0.location) }, at: time)
        return touches
    }

    /// Moves fingers, each to its point, all in one event.
    public func move(_ moves: [(TestTouch, Point)]) { move(moves, at: nil) }

    func move(_ moves: [(TestTouch, Point)], at time: Instant?) {
        let live = moves.filter { $0.0.isDown }
        guard !live.isEmpty else { return }
        for (touch, point) in live { touch.location = point }
        frame(live.map { TouchChange(sourceID: $0.0.sourceID, phase: .moved, location: $0.1) }, at: time)
    }

    /// Lifts fingers where they are, all in one event.
    public func lift(_ touches: [TestTouch]) { lift(touches, at: nil) }

    func lift(_ touches: [TestTouch], at time: Instant?) {
        let live = touches.filter(\.isDown)
        guard !live.isEmpty else { return }
        for touch in live { touch.isDown = false }
        frame(live.map { TouchChange(sourceID: $0.sourceID, phase: .ended, location: $0.location) }, at: time)
    }

    /// One frame of the touchscreen, at `time` (one sample after `now` when nil).
    func frame(_ changes: [TouchChange], at time: Instant? = nil) {
        announce(.touchscreen)
        let t = time.map { stamp(at: $0) } ?? stamp()
        let frame = TouchFrame(time: t, device: TestDevice.touchscreen.id, changes: changes)
        noteInput(.touchFrame(frame))
        inputObserver?(.touchFrame(frame))
        engine.send(frame)
    }

    /// The fractions of a motion at each sample over `duration`: 1/n, 2/n … 1 (at least one
    /// sample).
    func fractions(over duration: Duration) -> [Double] {
        let n = samples(over: duration)
        return (1...n).map { Double($0) / Double(n) }
    }

    /// How many samples `duration` holds at the tester's rate (at least one).
    func samples(over duration: Duration) -> Int {
        let ratio = Double(duration.nanosecondCount) / Double(sampleInterval.nanosecondCount)
        return Swift.max(1, Int(ratio.rounded()))
    }
}
