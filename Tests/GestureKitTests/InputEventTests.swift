import Testing
import GestureKit

/// The one input type, as the engine takes it from any source.
@Suite("Input events")
struct InputEventTests {
    @Test("a source's note and a kernel drop are reported at their own time; a removal without a time happens now")
    func notesDropsAndRemovals() {
        let r = FaultTests.Recorder()
        let pan = r.h.add(PanGestureRecognizer(name: "pan"))
        r.h.frame(0, [(0, .began, 300, 300)], device: 1)
        r.h.frame(0.05, [(0, .moved, 340, 300)], device: 1)
        r.h.frame(0.1, [(0, .moved, 380, 300)], device: 1)
        #expect(pan.state.isActive, "a drag of 80 pt began the pan")
        r.h.engine.send(.note(time: Instant(seconds: 0.11), device: InputDeviceID(1), "slot 12 out of range: ignored"))
        r.h.engine.send(.eventsDropped(time: Instant(seconds: 0.12), device: InputDeviceID(1)))
        r.h.engine.send(.deviceRemoved(InputDeviceID(1), time: nil))
        #expect(r.ignored == ["0.110 device 1: slot 12 out of range: ignored",
                              "0.120 device 1: SYN_DROPPED (the kernel's buffer overflowed): its touches are cancelled, events up to the next SYN_REPORT discarded",
                              "0.100 device 1 removed: cancelling 1 touch"],
                "the note and the drop at their times, the removal at the engine's time (its last frame's)")
        #expect(r.h.lines("pan").last == "0.100 pan: changed→cancelled", "the unplugged device's pan is cancelled")
        r.h.finish()
        #expect(pan.state == .possible)
    }

    @Test("an event moved to another clock keeps everything but its time")
    func rebasing() {
        let origin = Instant(seconds: 100)
        let frame = TouchFrame(time: Instant(seconds: 100.5), device: InputDeviceID(2),
                               changes: [TouchChange(sourceID: 4, phase: .began, location: Point(x: 1, y: 2))])
        var expected = frame
        expected.time = Instant(seconds: 0.5)
        #expect(InputEvent.touchFrame(frame).rebased(by: origin) == .touchFrame(expected))
        #expect(InputEvent.deviceRemoved(InputDeviceID(2), time: nil).rebased(by: origin) == .deviceRemoved(InputDeviceID(2), time: nil),
                "a removal without a time stays without one")
        #expect(InputEvent.note(time: Instant(seconds: 101), device: InputDeviceID(2), "x").rebased(by: origin).time == Instant(seconds: 1))
    }
}
