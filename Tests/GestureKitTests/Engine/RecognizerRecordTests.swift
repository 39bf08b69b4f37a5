import GestureKit
import Testing
import GestureTestSupport

/// What a recognizer shows its actions and the app (`state`, `numberOfTouches`) is its record
/// in the engine, as of the last transition the engine carried out.
@Suite struct RecognizerRecordTests {
    /// A continuous recognizer that recognizes when its touches lift, so the arbiter lets it
    /// begin and end at once.
    final class LiftRecognizer: GestureRecognizer {
        override var kind: Kind { .continuous }
        override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
            .recognize(.touchesEnded)
        }
    }

    @Test("a recognizer let go to begin and end at once shows began to its first action and ended to its second, with its touches counted")
    func beganThenEndedActionsReadTheirOwnState() {
        let h = Harness()
        let lift = h.add(LiftRecognizer(name: "lift"))
        var seen: [(GestureRecognizer.State, Int)] = []
        lift.addTarget { seen.append(($0.state, $0.numberOfTouches)) }
        h.frame(0, [(0, .began, 100, 100), (1, .began, 140, 100)])
        #expect(lift.numberOfTouches == 2, "two touches down: the recognizer counts both")
        h.frame(0.1, [(0, .ended, 100, 100), (1, .ended, 140, 100)])
        #expect(seen.map(\.0) == [.began, .ended], "its actions read began, then ended")
        #expect(seen.map(\.1) == [2, 2], "both actions see the gesture's two touches")
        #expect(lift.state == .possible && lift.numberOfTouches == 0,
                "after the sequence, the record is reset: possible, no touches")
    }

    @Test("a recognizer taken out of its engine shows possible and no touches")
    func detachedRecognizerShowsPossible() {
        let h = Harness()
        let lift = h.add(LiftRecognizer(name: "lift"))
        h.frame(0, [(0, .began, 100, 100)])
        #expect(lift.numberOfTouches == 1)
        lift.view?.removeGestureRecognizer(lift)
        #expect(lift.state == .possible && lift.numberOfTouches == 0,
                "outside an engine there is no record: possible, no touches")
    }
}
