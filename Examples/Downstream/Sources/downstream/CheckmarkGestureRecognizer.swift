import GestureKit

/// A custom recognizer: a checkmark drawn with one finger, a stroke down and to the right
/// followed by a longer stroke up and to the right, as in Apple's "Implementing a custom
/// gesture recognizer". It subclasses `GestureRecognizer`, decides by returning a
/// `GestureDecision` from each touch method, and never reads a clock or another recognizer:
/// the engine arbitrates, delivers and traces for it.
final class CheckmarkGestureRecognizer: GestureRecognizer {
    /// The shortest stroke that counts, in points.
    static let minimumStroke = 20.0 /* pt */

    private enum Phase { case idle, goingDown, goingUp }
    private var phase = Phase.idle
    private var turn = Point.zero
    private var last = Point.zero
    private var start = Point.zero

    override class var defaultNamePrefix: String { "checkmark" }

    override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        guard phase == .idle, touches.count == 1 else {
            return .fail(.tooManyTouches(count: numberOfTouches, allowed: 1))
        }
        start = touches[0].location
        last = start
        phase = .goingDown
        return .none
    }

    override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        let p = touches[0].location
        defer { last = p }
        guard p.x >= last.x else { return .fail(.custom("moved left")) }
        switch phase {
        case .goingDown where p.y < last.y:
            // Turning upwards: the down stroke must have been long enough.
            guard last.y - start.y >= Self.minimumStroke else { return .fail(.custom("down stroke too short")) }
            turn = last
            phase = .goingUp
        case .goingUp where p.y > last.y:
            return .fail(.custom("turned down again"))
        default:
            break
        }
        return .none
    }

    override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        let up = turn.y - last.y, down = turn.y - start.y
        guard phase == .goingUp, up > down else { return .fail(.custom("no long stroke up")) }
        return .recognize(.custom("checkmark drawn"))
    }

    override func reset() {
        phase = .idle
    }
}
