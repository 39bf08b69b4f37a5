import GestureKit

/// A recognizer written the UIKit way: it overrides the `touches…` methods, returns no
/// decision, and sets `state`. A "scratch" is two fingers rubbing side to side: it recognizes
/// once their centroid has turned back three times after strokes of 20 points or more, and
/// fails with a third finger or when a finger lifts first.
final class ScratchGestureRecognizer: GestureRecognizer {
    static let strokePoints = 20.0 /* pt */
    static let reversalsRequired = 3
    private var points: [TouchID: Point] = [:]
    private var lastX: Double?
    private var direction = 0.0
    private var stroke = 0.0
    private(set) var reversals = 0

    override class var defaultNamePrefix: String { "scratch" }

    private var centroidX: Double { points.values.map(\.x).reduce(0, +) / Double(max(points.count, 1)) }

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        for t in touches { points[t.id] = t.location }
        if numberOfTouches > 2 { state = .failed }
        lastX = points.count == 2 ? centroidX : nil
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesMoved(touches, with: event)
        for t in touches { points[t.id] = t.location }
        guard points.count == 2, let last = lastX else { return }
        let x = centroidX
        let dx = x - last
        lastX = x
        guard dx != 0 else { return }
        if direction != 0 && (dx > 0) != (direction > 0) {
            if stroke >= Self.strokePoints { reversals += 1 }
            stroke = 0
        }
        direction = dx
        stroke += abs(dx)
        if reversals >= Self.reversalsRequired { state = .ended }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        if state == .possible { state = .failed }
    }

    override func reset() {
        super.reset()
        points = [:]
        lastX = nil
        direction = 0
        stroke = 0
        reversals = 0
    }
}
