import GestureKit
import Testing

/// The sample of the article "Bad input and faults" (SetAsideInputSample.swift, word for word
/// in the article: DocumentationTests), run on input that makes no sense.
@Suite("Set-aside input sample")
struct SetAsideInputSampleTests {
    @Test("a require(toFail:) cycle, a move of a touch that is not down and a touch-down at a non-finite location are each logged with their reason, as the article shows; the tap still taps")
    func logs() {
        let engine = GestureEngine()
        let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
        engine.addRoot(photo)
        var taps = 0
        let tap = TapGestureRecognizer(name: "tap") { _ in taps += 1 }
        let double = TapGestureRecognizer(taps: 2, name: "double")
        photo.addGestureRecognizer(tap)
        photo.addGestureRecognizer(double)
        var lines: [String] = []
        logSetAsideInput(of: engine) { lines.append($0) }

        tap.require(toFail: double)
        double.require(toFail: tap)      // a cycle: refused
        func frame(_ seconds: Double, _ id: Int, _ phase: TouchPhase, _ x: Double) -> TouchFrame {
            TouchFrame(time: Instant(seconds: seconds), changes: [TouchChange(sourceID: id, phase: phase, location: Point(x: x, y: 100))])
        }
        engine.send(frame(0, 7, .moved, 100))          // never went down
        engine.send(frame(0.01, 8, .began, .nan))      // no location
        engine.send(frame(0.02, 1, .began, 100))
        engine.send(frame(0.07, 1, .ended, 100))
        engine.finish()

        #expect(lines == ["0.0s refused: double.require(toFail: tap) refused: requireToFail cycle: double → tap → double",
                          "0.0s ignored: touch 7 of device 0 moved but is not down",
                          "0.01s ignored: touch 8 of device 0 began at a non-finite location: the touch is ignored"],
                "expected the article's three lines, got \(lines)")
        #expect(taps == 1, "the real tap should still be recognized once the double tap fails")
    }
}
