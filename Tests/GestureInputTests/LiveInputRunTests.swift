import Foundation
import GestureInput
import GestureKit
import Testing

/// A source that never has anything to say (the sample of GestureInput's DocC page).
final class Silence: InputEventSource {
    let fileDescriptor: Int32 = -1      // poll ignores a negative fd
    func dispatch(into handler: (InputEvent) -> Void) throws {}
}

/// A source that hands out prepared events once, then nothing.
final class Prepared: InputEventSource {
    var events: [InputEvent]
    init(_ events: [InputEvent]) { self.events = events }
    let fileDescriptor: Int32 = -1
    func dispatch(into handler: (InputEvent) -> Void) throws {
        let batch = events
        events.removeAll()
        batch.forEach(handler)
    }
}

final class Recorder: LiveInputClient {
    var events: [InputEvent] = []
    var batches = 0
    var stopAfterBatches: Int?
    func handle(_ event: InputEvent) { events.append(event) }
    var nextDeadline: Instant? { nil }
    func advance(to now: Instant) {}
    func batchHandled(by run: LiveInputRun) {
        batches += 1
        if let stopAfterBatches, batches >= stopAfterBatches { run.stop() }
    }
}

@Suite(.serialized)
struct LiveInputRunTests {
    @Test func anEngineRunsOnASilentSourceUntilItsDuration() throws {
        let engine = GestureEngine()
        let run = LiveInputRun(source: Silence(), timeLimit: .milliseconds(100))
        let start = MonotonicClock.now()
        let reason = try run.run(engine)
        let elapsed = (MonotonicClock.now() - start).inSeconds
        #expect(reason == .duration, "a run with a duration ends by it")
        #expect(elapsed >= 0.1 && elapsed < 2, "the run lasted its 0.1 s (took \(elapsed) s)")
    }

    @Test func timesAreRebasedOnceFromTheFirstTimedEvent() throws {
        let base = Instant(seconds: 5_000)
        let device = InputDeviceID(3)
        let info = InputDeviceInfo(id: device, name: "pad", systemName: "event3", kind: .touchscreen,
                                   capabilities: [.touch], sizeMillimetres: nil)
        let source = Prepared([
            .deviceAdded(info),
            .touchFrame(TouchFrame(time: base + Duration(seconds: 0.25), device: device,
                                   changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 1, y: 2))])),
            .pointer(.motion(to: Point(x: 3, y: 4), at: base + Duration(seconds: 0.5), device: device)),
            .deviceRemoved(device, time: nil),
        ])
        let client = Recorder()
        client.stopAfterBatches = 1
        let run = LiveInputRun(source: source, timeLimit: .seconds(5))
        let reason = try run.run(client)
        #expect(reason == .stopped, "the client stopped the run after its first batch")
        #expect(run.origin == base + Duration(seconds: 0.25), "time zero is the first timed event's time")
        #expect(client.events.map(\.time) == [nil, .zero, Instant(seconds: 0.25), nil],
                "the client sees times from the first event; events without a time keep none")
        #expect(client.events.first == .deviceAdded(info), "a device added passes unchanged")
    }

    @Test func theCallerEndsTheRunAfterABatch() throws {
        let client = Recorder()
        var asked = 0
        let reason = try LiveInputRun(source: Silence(), timeLimit: .seconds(5), idleTick: .milliseconds(5))
            .run(client, endWhen: { asked += 1; return asked == 3 })
        #expect(reason == .stopped, "endWhen stopped the run")
        #expect(client.batches == 3, "the client heard of every batch before the run ended")
    }

    @Test("the deprecated Double duration still limits the run: it is timeLimit in seconds")
    @available(*, deprecated, message: "exercises the deprecated forms")
    func deprecatedDurationIsTimeLimit() throws {
        let run = LiveInputRun(source: Silence(), duration: 0.05)
        #expect(run.timeLimit == .milliseconds(50))
        #expect(run.duration == 0.05)
        run.duration = nil
        #expect(run.timeLimit == nil)
        run.duration = 0.05
        #expect(try run.run(GestureEngine()) == .duration)
    }
}
