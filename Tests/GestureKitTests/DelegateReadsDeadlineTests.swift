import GestureKit
import Testing
import GestureTestSupport

/// A delegate that asks the engine when it next needs to be woken (`nextDeadline`, public)
/// before it lets a recognizer begin, as an app that schedules its own work around the
/// engine's timers may.
@Suite("A delegate reads the engine's next deadline while arbitration asks it")
struct DelegateReadsDeadlineTests {
    final class DeadlineReadingDelegate: GestureRecognizerDelegate {
        weak var engine: GestureEngine?
        var seen: [Instant?] = []
        func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
            seen.append(engine?.nextDeadline)
            return true
        }
    }

    @Test("a delegate reading engine.nextDeadline in gestureRecognizerShouldBegin sees the long press's pending deadline, and the pan still begins")
    func delegateReadsNextDeadline() {
        let h = Harness()
        let delegate = DeadlineReadingDelegate()
        delegate.engine = h.engine
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.delegate = delegate
        press.delegate = delegate
        pan.recognizeSimultaneously(with: press)
        h.down(1, 100, 100, at: 0)
        h.move(1, 140, 100, at: 0.05)
        h.up(1, 140, 100, at: 0.1)
        h.finish()
        #expect(h.lines("pan").first?.hasSuffix("pan: possible→began") == true, "the pan begins: \(h.lines("pan"))")
        #expect(delegate.seen.count == 1, "the delegate is asked once, for the pan: \(delegate.seen)")
        // The long press waits 0.5 s from its touch at 0 s; the pan begins at 0.05 s.
        #expect(delegate.seen.first == .some(Instant(seconds: 0.5)),
                "asked at 0.05 s, the next deadline is the long press's at 0.5 s; saw \(delegate.seen)")
    }
}
