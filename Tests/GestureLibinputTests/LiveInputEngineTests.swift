import GestureInput
import GestureKit
import GestureLibinput
import Testing

/// An app's own engine (its views and recognizers, no scene) is a `LiveInputClient`:
/// `LiveInput` feeds it from libinput directly (`LiveSession` is for scenes). No device
/// here: libinput's path context with none, so the run ends by its time limit.
@Suite("An app's own engine, fed by LiveInput")
struct LiveInputEngineTests {
    @Test("LiveInput runs an app's engine until the listener's timeLimit, a Duration")
    func appEngineUntilTimeLimit() throws {
        let engine = GestureEngine()
        let photo = View(frame: Rect(x: 0, y: 0, width: 800, height: 480))
        engine.addRoot(photo)
        photo.addGestureRecognizer(TapGestureRecognizer())
        var listener = LibinputListener(source: .paths([]), screenSize: photo.frame.size, timeLimit: .milliseconds(50))
        listener.access = .direct
        let start = MonotonicClock.now()
        let reason = try LiveInput(listener).run(engine)
        let elapsed = MonotonicClock.now() - start
        #expect(reason == .duration, "the run ends by its time limit")
        #expect(elapsed >= .milliseconds(50) && elapsed < .seconds(5), "it lasted its 50 ms (took \(elapsed))")
    }

    @Test("the deprecated Double duration of a listener is its timeLimit in seconds")
    @available(*, deprecated, message: "exercises the deprecated forms")
    func deprecatedDuration() {
        var listener = LibinputListener(source: .paths([]), duration: 0.25)
        #expect(listener.timeLimit == .milliseconds(250))
        #expect(listener.duration == 0.25)
        listener.duration = nil
        #expect(listener.timeLimit == nil)
    }
}
