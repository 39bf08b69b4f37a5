import GestureKit

/// A custom recognizer: a checkmark drawn with one finger, a stroke down and to the right
/// followed by a longer stroke up and to the right, as in Apple's "Implementing a discrete
/// gesture recognizer". Written the UIKit way: it overrides `touchesBegan(_:with:)` and its
/// siblings, calls `super`, keeps the touch it began with and compares later touches to it,
/// and decides by setting `state` (with a reason, so the trace says why it failed). It
/// never reads a clock or another recognizer: the engine arbitrates, delivers and traces.
final class CheckmarkGestureRecognizer: GestureRecognizer {
    /// The shortest stroke that counts, in points.
    static let minimumStroke = 20.0 /* pt */

    private enum Phase { case notStarted, goingDown, goingUp }
    private var phase = Phase.notStarted
    private var trackedTouch: Touch?
    private var start = Point.zero
    private var turn = Point.zero
    private var last = Point.zero

    override class var defaultNamePrefix: String { "checkmark" }

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        guard touches.count == 1, trackedTouch == nil, let first = touches.first else {
            setState(.failed, reason: "more than one finger")
            return
        }
        trackedTouch = first
        start = first.location(in: view)
        last = start
        phase = .goingDown
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesMoved(touches, with: event)
        guard let touch = touches.first, touch == trackedTouch else {
            setState(.failed, reason: "another finger moved")
            return
        }
        let p = touch.location(in: view)
        defer { last = p }
        guard p.x >= last.x else { return setState(.failed, reason: "moved left") }
        switch phase {
        case .goingDown where p.y < last.y:
            // Turning upwards: the down stroke must have been long enough.
            let down = last.y - start.y
            guard down >= Self.minimumStroke else {
                // The trace then says "down stroke 12 pt < minimum 20 pt".
                return setState(.failed, because: .measured(.init("down stroke", down, exceeded: false,
                                                                  "minimum", Self.minimumStroke, unit: "pt")))
            }
            turn = last
            phase = .goingUp
        case .goingUp where p.y > last.y:
            setState(.failed, reason: "turned down again")
        default:
            break
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        let up = turn.y - last.y, down = turn.y - start.y
        if phase == .goingUp && up > down {
            setState(.ended, reason: "checkmark drawn")
        } else {
            setState(.failed, reason: "no long stroke up")
        }
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesCancelled(touches, with: event)
        state = .failed
    }

    override func reset() {
        super.reset()
        phase = .notStarted
        trackedTouch = nil
    }
}
