import Testing
import GestureKit
import GestureTestSupport

/// The examples of the DocC article "Arbitration: who may recognize", each with the reason the
/// article quotes: the article shows the rules of Arbiter.swift at work and must not drift.
@Suite("The arbitration article's examples")
struct ArbitrationArticleTests {
    /// One finger from (500, 500) to the right: five moves of `step` points 10 ms apart,
    /// lifted at 0.1 s.
    func drag(_ h: Harness, step: Double) {
        h.down(0, 500, 500, at: 0)
        for i in 1...5 { h.move(0, 500 + step * Double(i), 500, at: 0.01 * Double(i)) }
        h.up(0, 500 + 5 * step, 500, at: 0.1)
    }

    @Test("a single tap that requires a double tap waits for it to fail, and fails when it recognizes")
    func singleWaitsForDouble() throws {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let single = h.add(TapGestureRecognizer(name: "single"))
        single.require(toFail: double)
        var waiting: [String] = []
        let previous = h.engine.traceHandler
        h.engine.traceHandler = { event in
            previous?(event)
            if case let .waiting(_, r, reason) = event { waiting.append("\(r.name): \(reason)") }
        }
        h.tap(at: 0)
        #expect(h.lines("single").isEmpty, "the single tap does not fire at the first touch-up")
        #expect(waiting == ["single: waiting for double to fail"])
        h.advance(to: 1)
        #expect(h.lines("double") == ["0.350 double: possible→failed"], "the double tap's interval ran out")
        #expect(h.lines("single") == ["0.350 single: possible→ended"], "the single tap fires as the double tap fails")
        h.tap(at: 2)
        h.tap(at: 2.2)
        #expect(h.lines("double").last == "2.250 double: possible→ended", "a second tap makes the double tap recognize")
        #expect(h.reasons["single"]?.last == "double recognized first", "and the single tap fails")
    }

    @Test("a tap under a finger that drags fails when the pan on its view begins")
    func tapUnderDrag() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.add(TapGestureRecognizer(name: "tap"))
        drag(h, step: 4)
        #expect(h.reasons["tap"] == ["pan recognized and they are not simultaneous"])
    }

    @Test("a pinch and a rotation run together only when they are allowed to")
    func pinchWithRotation() {
        let together = Harness()
        let pinch = together.add(PinchGestureRecognizer(name: "pinch"))
        let rotation = together.add(RotationGestureRecognizer(name: "rotate"))
        pinch.recognizeSimultaneously(with: rotation)
        ArbitrationTests().pinchAndRotate(together)
        #expect(together.lines("pinch").last?.hasSuffix("ended") == true && together.lines("rotate").last?.hasSuffix("ended") == true,
                "both recognize on the same two fingers")
        let alone = Harness()
        alone.add(PinchGestureRecognizer(name: "pinch"))
        alone.add(RotationGestureRecognizer(name: "rotate"))
        ArbitrationTests().pinchAndRotate(alone)
        #expect(alone.reasons["rotate"] == ["pinch recognized and they are not simultaneous"], "the first to begin excludes the other")
    }

    /// A control that keeps its own touches from its ancestors' pans.
    final class Slider: View {
        override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
            !(gestureRecognizer is PanGestureRecognizer)
        }
    }

    @Test("a view that says no to a pan makes it fail, and so does a delegate")
    func viewAndDelegateDecline() {
        let h = Harness()
        let slider = Slider(id: "slider", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(slider)
        h.add(PanGestureRecognizer(name: "pan"), to: slider)
        drag(h, step: 10)
        #expect(h.reasons["pan"] == ["its view's gestureRecognizerShouldBegin said no"])

        let d = Harness()
        let delegate = Delegate()
        delegate.shouldBegin = false
        let pan = d.add(PanGestureRecognizer(name: "pan"))
        pan.delegate = delegate
        drag(d, step: 10)
        #expect(d.reasons["pan"] == ["delegate's shouldBegin said no"])
    }

    @Test("a recognizer whose touches lifted with nothing to wait for fails")
    func liftedWithoutGesture() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.tap(at: 0)
        #expect(h.reasons["pan"] == ["touches lifted without a gesture"])
    }
}
