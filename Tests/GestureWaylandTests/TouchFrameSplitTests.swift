import GestureKit
@testable import GestureWayland
import Testing

/// A `wl_touch.frame` that merges several hardware frames, split back into one touch frame
/// per hardware frame (`TouchFrameSplit`), without a compositor.
@Suite struct TouchFrameSplitTests {
    let device = InputDeviceID(7)

    func ms(_ value: Int64) -> Instant { Instant(nanoseconds: value * 1_000_000) }
    func change(_ id: Int, _ phase: TouchPhase, _ x: Double) -> TouchChange {
        TouchChange(sourceID: id, phase: phase, location: Point(x: x, y: 50))
    }

    @Test("several motions of one touch in one frame become separate frames, each at its own motion's time")
    func motionsKeepTheirTimes() {
        var split = TouchFrameSplit()
        split.append(change(0, .moved, 10), at: ms(100))
        split.append(change(0, .moved, 20), at: ms(108))
        split.append(change(0, .moved, 30), at: ms(116))
        let frames = split.finish(device: device)
        #expect(frames.map(\.time) == [ms(100), ms(108), ms(116)], "one frame per motion, at its time: a velocity from each")
        #expect(frames.map { $0.changes.map(\.location.x) } == [[10], [20], [30]])
        #expect(frames.allSatisfy { $0.device == device && $0.deviceKind == .touchscreen })
        #expect(split.isEmpty && split.finish(device: device).isEmpty, "the split starts empty again")
    }

    @Test("two touches moving twice in one frame: two frames, each with both touches, in the order sent")
    func twoTouchesTwoHardwareFrames() {
        var split = TouchFrameSplit()
        split.append(change(1, .moved, 10), at: ms(200))
        split.append(change(2, .moved, 60), at: ms(200))
        split.append(change(1, .moved, 12), at: ms(208))
        split.append(change(2, .moved, 62), at: ms(208))
        let frames = split.finish(device: device)
        #expect(frames.map(\.time) == [ms(200), ms(208)])
        #expect(frames.map { $0.changes.map(\.sourceID) } == [[1, 2], [1, 2]])
        #expect(frames.map { $0.changes.map(\.location.x) } == [[10, 60], [12, 62]])
    }

    @Test("downs and ups keep their order: two touches down, one moved, both lifted in one frame: three frames")
    func downsAndUpsKeepTheirOrder() {
        var split = TouchFrameSplit()
        split.append(change(3, .began, 10), at: ms(300))
        split.append(change(4, .began, 40), at: ms(300))
        split.append(change(3, .moved, 11), at: ms(305))
        split.append(change(3, .ended, 11), at: ms(310))
        split.append(change(4, .ended, 40), at: ms(310))
        let frames = split.finish(device: device)
        let phases = frames.map { $0.changes.map { "\($0.sourceID) \($0.phase)" } }
        #expect(phases == [["3 began", "4 began"], ["3 moved"], ["3 ended", "4 ended"]],
                "a touch's second change starts the next frame; the order sent is kept")
        #expect(frames.map(\.time) == [ms(300), ms(305), ms(310)], "each frame at its own last event's time")
    }

    @Test("a frame with one event per touch stays one frame, at its last event's time")
    func oneEventPerTouchIsOneFrame() {
        var split = TouchFrameSplit()
        split.append(change(5, .began, 10), at: ms(400))
        split.append(change(6, .moved, 20), at: ms(401))
        split.append(change(7, .ended, 30), at: ms(402))
        let frames = split.finish(device: device)
        #expect(frames.count == 1)
        #expect(frames.first?.changes.map(\.sourceID) == [5, 6, 7])
        #expect(frames.first?.time == ms(402))
    }

    @Test("times never go backwards, even where the compositor's stamps do within a frame")
    func timesNeverGoBackwards() {
        var split = TouchFrameSplit()
        split.append(change(0, .moved, 10), at: ms(500))
        split.append(change(0, .moved, 20), at: ms(490))
        split.append(change(0, .moved, 30), at: ms(520))
        let frames = split.finish(device: device)
        #expect(frames.count == 3)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(frames.map(\.time))")
        #expect(frames.map(\.time) == [ms(500), ms(500), ms(520)], "a stamp earlier than the frame before it takes that frame's time")
    }

    @Test("a cancelled frame's changes are forgotten")
    func removeAllForgets() {
        var split = TouchFrameSplit()
        split.append(change(0, .began, 10), at: ms(600))
        split.removeAll()
        #expect(split.isEmpty)
        #expect(split.finish(device: device).isEmpty)
    }
}
