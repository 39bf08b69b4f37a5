import GestureInput
import GestureKit
import Testing

/// A touchpad gesture the system never ends (its device removed, its pointer gone from the
/// window) reaches the client as cancelled, once, through the live loop, whatever the source.
@Suite(.serialized)
struct UnfinishedGesturesTests {
    let pad = InputDeviceID(4)
    let mouse = InputDeviceID(5)

    func pinch(_ phase: TouchpadGestureEvent.Phase, at seconds: Double, scale: Double = 1,
               device: InputDeviceID? = nil) -> InputEvent {
        .touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: phase, time: Instant(seconds: 100 + seconds),
                                              device: device ?? pad, fingers: 2, location: Point(x: 40, y: 30),
                                              scale: scale))
    }

    /// The events a client hears from a live run over `events`, on its clock.
    func heard(_ events: [InputEvent]) throws -> [InputEvent] {
        let client = Recorder()
        client.stopAfterBatches = 1
        try LiveInputRun(source: Prepared(events), timeLimit: .seconds(5)).run(client)
        return client.events
    }

    func gestures(_ events: [InputEvent]) -> [(TouchpadGestureEvent.Phase, Double, Double)] {
        events.compactMap {
            guard case let .touchpadGesture(g) = $0 else { return nil }
            return (g.phase, g.time.seconds, g.scale)
        }
    }

    @Test func aTouchpadRemovedMidPinchCancelsThePinchBeforeItsRemoval() throws {
        let removal = Instant(seconds: 100.5)
        let events = try heard([pinch(.begin, at: 0), pinch(.update, at: 0.1, scale: 1.4),
                                .deviceRemoved(pad, time: removal)])
        #expect(events.count == 4, "begin, update, the cancel, the removal: \(events)")
        let phases = gestures(events).map(\.0)
        #expect(phases == [.begin, .update, .cancel], "the pinch is cancelled, not left under way")
        #expect(gestures(events).last?.1 == 0.5, "cancelled when the pad was removed, 0.5 s in")
        #expect(gestures(events).last?.2 == 1.4, "the cancel keeps the last scale")
        if case .deviceRemoved = events.last {} else {
            Issue.record("the removal comes after the cancel: \(events)")
        }
    }

    @Test func aRemovalWithoutATimeCancelsNoEarlierThanTheLastEvent() throws {
        let events = try heard([pinch(.begin, at: 0), pinch(.update, at: 0.2, scale: 0.8),
                                .deviceRemoved(pad, time: nil)])
        let cancel = try #require(gestures(events).last)
        #expect(cancel.0 == .cancel, "a removal with no time still cancels the pinch")
        #expect(cancel.1 >= 0.2, "not before the last update (it was at \(cancel.1) s)")
    }

    @Test func thePointerLeavingTheWindowCancelsItsGesture() throws {
        let events = try heard([pinch(.begin, at: 0),
                                .pointer(.leave(at: Point(x: 0, y: 30), time: Instant(seconds: 100.3), device: pad))])
        #expect(gestures(events).map(\.0) == [.begin, .cancel], "leaving the window ends the pinch")
        #expect(gestures(events).last?.1 == 0.3, "at the leave's time")
    }

    @Test func aGestureThatEndedOrAnotherDevicesRemovalCancelsNothing() throws {
        let events = try heard([pinch(.begin, at: 0), pinch(.end, at: 0.1),
                                pinch(.begin, at: 0.2, device: mouse),
                                .deviceRemoved(pad, time: Instant(seconds: 100.4))])
        #expect(gestures(events).map(\.0) == [.begin, .end, .begin],
                "an ended pinch is not cancelled, and a pad's removal leaves another device's gesture")
    }
}
