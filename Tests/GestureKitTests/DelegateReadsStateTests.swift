import GestureKit
import Testing
import GestureTestSupport

/// Everyday UIKit code reads `state`, `numberOfTouches`, `location(in:)` and `view` of the
/// recognizers it is asked about, from the delegate and from the overridable methods, while
/// arbitration is deciding. These reads go to what the engine shows (`EngineStorage.shown`),
/// never to the arbiter arbitration holds, and they see what UIKit would show: the state of
/// the last transition carried out, the touches of the gesture, their centroid.
@Suite("Delegates read state during arbitration")
struct DelegateReadsStateTests {
    /// What one question saw of both recognizers.
    struct Seen: Equatable {
        var question: String
        var asked: String
        var other: String?
        var state: GestureRecognizer.State
        var touches: Int
        var location: Point
        var view: String?
    }

    /// A log the delegate, the recognizers' overrides and the view all write to.
    final class Log {
        var seen: [Seen] = []
        func note(_ question: String, _ r: GestureRecognizer, _ other: GestureRecognizer? = nil) {
            for (asked, about) in [(r, other)] + (other.map { [($0, r)] } ?? []) {
                seen.append(Seen(question: question, asked: asked.name, other: about?.name, state: asked.state,
                                 touches: asked.numberOfTouches, location: asked.location(in: asked.view),
                                 view: asked.view?.debugName))
            }
        }
    }

    final class Delegate: GestureRecognizerDelegate {
        let log: Log
        init(_ log: Log) { self.log = log }
        func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
            log.note("shouldBegin", recognizer)
            return true
        }
        func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
        func gestureRecognizer(_ recognizer: GestureRecognizer,
                               shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
            log.note("shouldRecognizeSimultaneouslyWith", recognizer, other)
            return recognizer is PinchGestureRecognizer && other is PanGestureRecognizer
                || recognizer is PanGestureRecognizer && other is PinchGestureRecognizer
        }
        func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
            log.note("shouldRequireFailureOf", recognizer, other)
            return false
        }
        func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
            log.note("shouldBeRequiredToFailBy", recognizer, other)
            return false
        }
    }

    /// A pinch whose overridable relationship methods read both recognizers, as a
    /// `UIGestureRecognizerSubclass` override may.
    final class ReadingPinch: PinchGestureRecognizer {
        var log: Log?
        override func canPrevent(_ preventedGestureRecognizer: GestureRecognizer) -> Bool {
            log?.note("canPrevent", self, preventedGestureRecognizer)
            return true
        }
        override func canBePrevented(by preventingGestureRecognizer: GestureRecognizer) -> Bool {
            log?.note("canBePrevented", self, preventingGestureRecognizer)
            return true
        }
        override func shouldRequireFailure(of otherGestureRecognizer: GestureRecognizer) -> Bool {
            log?.note("shouldRequireFailure", self, otherGestureRecognizer)
            return false
        }
        override func shouldBeRequiredToFail(by otherGestureRecognizer: GestureRecognizer) -> Bool {
            log?.note("shouldBeRequiredToFail", self, otherGestureRecognizer)
            return false
        }
    }

    /// A long press that reads both recognizers when the pinch would prevent it.
    final class ReadingLongPress: LongPressGestureRecognizer {
        var log: Log?
        override func canBePrevented(by preventingGestureRecognizer: GestureRecognizer) -> Bool {
            log?.note("canBePrevented", self, preventingGestureRecognizer)
            return true
        }
    }

    /// A recognizer of the app's own that watches the touches and decides nothing: its
    /// `location(in:)` is GestureRecognizer's default, the centroid of its touches.
    final class Watcher: GestureRecognizer {}

    /// A view that, as a control would, looks at a recognizer before letting it begin.
    final class ReadingView: View {
        var log: Log?
        override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
            log?.note("view.gestureRecognizerShouldBegin", gestureRecognizer)
            return true
        }
    }

    /// A pan, a pinch, a long press and a recognizer of the app's own on one view, every
    /// question answered by code that reads both recognizers; two fingers land 100 pt apart
    /// and spread about their middle.
    static func spread() -> (log: Log, transitions: [String]) {
        let log = Log()
        let h = Harness()
        let photo = ReadingView(id: "photo", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        photo.log = log
        h.root.addSubview(photo)
        let delegate = Delegate(log)
        let pan = PanGestureRecognizer(name: "pan")
        let pinch = ReadingPinch(name: "pinch")
        pinch.log = log
        let press = ReadingLongPress(name: "press")
        press.log = log
        let watcher = Watcher(name: "watcher")
        for r in [pan, pinch, press, watcher] as [GestureRecognizer] {
            r.delegate = delegate
            photo.addGestureRecognizer(r)
        }
        h.frame(0, [(1, .began, 150, 200), (2, .began, 250, 200)])
        for step in 1...10 {
            let d = Double(step) * 3
            h.frame(Double(step) * 0.016, [(1, .moved, 150 - d, 200), (2, .moved, 250 + d, 200)])
        }
        h.frame(0.2, [(1, .ended, 120, 200), (2, .ended, 280, 200)])
        h.finish()
        _ = delegate
        return (log, h.lines("pinch"))
    }

    @Test("each delegate question and each overridable method reads both recognizers' state, touches, location and view while arbitration decides")
    func everyQuestionReads() {
        let (log, _) = Self.spread()
        let questions = Set(log.seen.map(\.question))
        for question in ["shouldBegin", "shouldRecognizeSimultaneouslyWith", "shouldRequireFailureOf",
                         "shouldBeRequiredToFailBy", "canPrevent", "canBePrevented", "shouldRequireFailure",
                         "shouldBeRequiredToFail", "view.gestureRecognizerShouldBegin"] {
            #expect(questions.contains(question), "the engine should ask \(question) during the spread; asked: \(questions.sorted())")
        }
    }

    @Test("what they read is what UIKit shows: the pinch about to begin is possible, holds both fingers, sits at their middle, on its view")
    func theyReadWhatUIKitShows() {
        let (log, transitions) = Self.spread()
        let shouldBegin = log.seen.filter { $0.question == "shouldBegin" && $0.asked == "pinch" }
        let first = shouldBegin.first
        #expect(first == Seen(question: "shouldBegin", asked: "pinch", other: nil, state: .possible, touches: 2,
                              location: Point(x: 200, y: 200), view: "photo"),
                "the delegate should see the pinch possible, with 2 touches at their middle (200, 200) on photo; saw \(String(describing: first))")
        #expect(transitions.contains { $0.hasSuffix("pinch: possible→began") }, "and the pinch then begins: \(transitions)")
        for seen in log.seen {
            #expect(seen.view == "photo", "every recognizer read is on photo: \(seen)")
            #expect(seen.location == Point(x: 200, y: 200) || seen.touches == 0,
                    "a recognizer with touches is at their middle, which the spread keeps: \(seen)")
        }
        // Once the pinch began, what the pan and the long press were asked shows it began.
        let afterBegan = log.seen.filter { $0.asked == "pinch" && $0.state != .possible }
        let watched = log.seen.filter { $0.asked == "watcher" }
        #expect(!watched.isEmpty && watched.allSatisfy { $0.state == .possible && $0.touches == 2 && $0.location == Point(x: 200, y: 200) },
                "the app's own recognizer, read by default, is possible with both touches at their middle: \(watched)")
        #expect(afterBegan.allSatisfy { [.began, .changed].contains($0.state) && $0.touches == 2 },
                "read while it recognizes, the pinch is began or changed, with its 2 touches: \(afterBegan)")
    }
}
