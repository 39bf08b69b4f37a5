import Testing
import GestureKit
import GestureTestSupport

/// Every combination of cancelsTouchesInView, delaysTouchesBegan and delaysTouchesEnded, for a
/// double tap that is recognized (touch 1 from 0.0 to 0.1 s, touch 2 from 0.2 to 0.3 s) and
/// for one that fails (touch 1 from 0.0 to 0.1 s, no second tap: it fails at 0.4 s). Each case
/// gives the exact sequence of view callbacks.
@Suite("Delivery to views: cancelsTouchesInView × delaysTouchesBegan × delaysTouchesEnded")
struct DeliveryTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let cancels: Bool
        let delaysBegan: Bool
        let delaysEnded: Bool
        let recognized: [String]
        let failed: [String]
        var testDescription: String {
            "cancels \(cancels), delaysBegan \(delaysBegan), delaysEnded \(delaysEnded)"
        }
    }

    static let failedPlain = ["0.000 touchesBegan [1]", "0.100 touchesEnded [1]"]
    static let failedLateEnd = ["0.000 touchesBegan [1]", "0.400 touchesEnded [1]"]
    static let failedAllLate = ["0.400 touchesBegan [1]", "0.400 touchesEnded [1]"]

    static let cases: [Case] = [
        // Nothing delayed: touch 1 ends normally, touch 2 is cancelled at recognition.
        Case(cancels: true, delaysBegan: false, delaysEnded: false,
             recognized: ["0.000 touchesBegan [1]", "0.100 touchesEnded [1]", "0.200 touchesBegan [2]", "0.300 touchesCancelled [2]"],
             failed: failedPlain),
        // The default: touch 1's end is held while the double tap is possible, so it is cancelled instead.
        Case(cancels: true, delaysBegan: false, delaysEnded: true,
             recognized: ["0.000 touchesBegan [1]", "0.200 touchesBegan [2]", "0.300 touchesCancelled [1,2]"],
             failed: failedLateEnd),
        // Everything held, then dropped at recognition: the view never sees the touches.
        Case(cancels: true, delaysBegan: true, delaysEnded: false, recognized: [], failed: failedAllLate),
        Case(cancels: true, delaysBegan: true, delaysEnded: true, recognized: [], failed: failedAllLate),
        // Recognition stops nothing: the view sees every event (late where held).
        Case(cancels: false, delaysBegan: false, delaysEnded: false,
             recognized: ["0.000 touchesBegan [1]", "0.100 touchesEnded [1]", "0.200 touchesBegan [2]", "0.300 touchesEnded [2]"],
             failed: failedPlain),
        Case(cancels: false, delaysBegan: false, delaysEnded: true,
             recognized: ["0.000 touchesBegan [1]", "0.200 touchesBegan [2]", "0.300 touchesEnded [1,2]"],
             failed: failedLateEnd),
        Case(cancels: false, delaysBegan: true, delaysEnded: false,
             recognized: ["0.300 touchesBegan [1]", "0.300 touchesEnded [1]", "0.300 touchesBegan [2]", "0.300 touchesEnded [2]"],
             failed: failedAllLate),
        Case(cancels: false, delaysBegan: true, delaysEnded: true,
             recognized: ["0.300 touchesBegan [1]", "0.300 touchesEnded [1]", "0.300 touchesBegan [2]", "0.300 touchesEnded [2]"],
             failed: failedAllLate),
    ]

    func harness(_ c: Case) -> Harness {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        double.cancelsTouchesInView = c.cancels
        double.delaysTouchesBegan = c.delaysBegan
        double.delaysTouchesEnded = c.delaysEnded
        return h
    }

    func viewLines(_ h: Harness) -> [String] {
        h.lines("root").map { $0.replacingOccurrences(of: " root:", with: "") }
    }

    @Test("a recognized gesture", arguments: cases)
    func recognized(_ c: Case) {
        let h = harness(c)
        h.tap(at: 0, duration: 0.1)
        h.tap(at: 0.2, duration: 0.1)
        h.finish()
        #expect(h.lines("double") == ["0.300 double: possible→ended"])
        #expect(viewLines(h) == c.recognized, "the view's callbacks, in order")
    }

    @Test("a failed gesture", arguments: cases)
    func failed(_ c: Case) {
        let h = harness(c)
        h.tap(at: 0, duration: 0.1)
        h.finish()
        #expect(h.lines("double") == ["0.400 double: possible→failed"])
        #expect(viewLines(h) == c.failed, "the view's callbacks, in order")
    }

    @Test("moves held by delaysTouchesBegan are delivered late, in order, when the recognizer fails")
    func heldMoves() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        press.delaysTouchesBegan = true
        h.down(0, 500, 500, at: 0)
        h.move(0, 503, 500, at: 0.1)
        h.move(0, 506, 500, at: 0.2)
        h.up(0, 506, 500, at: 0.3)
        #expect(viewLines(h) == ["0.300 touchesBegan [1]", "0.300 touchesMoved [1]", "0.300 touchesMoved [1]", "0.300 touchesEnded [1]"])
    }

    @Test("a continuous recognizer that begins cancels the view's touches and stops their delivery")
    func beginCancels() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.down(0, 500, 500, at: 0)
        h.move(0, 505, 500, at: 0.1)
        h.move(0, 520, 500, at: 0.2)
        h.move(0, 540, 500, at: 0.3)
        h.up(0, 540, 500, at: 0.4)
        #expect(viewLines(h) == ["0.000 touchesBegan [1]", "0.100 touchesMoved [1]", "0.200 touchesCancelled [1]"])
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
