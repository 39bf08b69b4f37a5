import GestureKit
import Testing
import GestureTraces

/// Synthetic event streams fed straight into `MultitouchDecoder`.
struct Stream {
    var decoder: MultitouchDecoder
    var frame = TouchFrame(time: .zero)
    var time = Instant.zero
    var outputs: [(MultitouchDecoder.Output, TouchFrame)] = []

    init(_ description: EvdevDeviceDescription, screen: Size = Size(width: 1000, height: 1000)) {
        decoder = MultitouchDecoder(description: description, screen: screen)
    }

    mutating func at(_ ms: Int) { time = Instant(nanoseconds: Int64(ms) * 1_000_000) }

    mutating func abs(_ code: EventCode, _ value: Int32) { feed(.abs, code, value) }
    mutating func key(_ code: EventCode, _ value: Int32) { feed(.key, code, value) }
    mutating func syn() { feed(.syn, .synReport, 0) }
    mutating func dropped() { feed(.syn, .synDropped, 0) }

    mutating func feed(_ type: EventType, _ code: EventCode, _ value: Int32) {
        let out = decoder.feed(EvdevEvent(time: time, type: type, code: code, value: value), into: &frame)
        if out != .none { outputs.append((out, frame)) }
    }

    /// The changes of the last output, as (id, phase).
    var last: [(Int, TouchPhase)] { outputs.last?.1.changes.map { ($0.sourceID, $0.phase) } ?? [] }
}

func touchscreen(slots: Int32 = 5, semiMT: Bool = false, tools: Bool = false) -> EvdevDeviceDescription {
    var keys: Set<EventCode> = [.btnTouch]
    if tools { keys.formUnion([.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap]) }
    var props: Set<InputProperty> = [.direct]
    if semiMT { props = [.pointer, .semiMT] }
    return EvdevDeviceDescription(
        name: "synthetic", properties: props,
        codes: [.syn: [.synReport, .synDropped], .key: keys,
                .abs: [.absX, .absY, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID]],
        absInfo: [.absX: AbsInfo(minimum: 0, maximum: 1000), .absY: AbsInfo(minimum: 0, maximum: 1000),
                  .absMTSlot: AbsInfo(minimum: 0, maximum: slots - 1),
                  .absMTPositionX: AbsInfo(minimum: 0, maximum: 1000), .absMTPositionY: AbsInfo(minimum: 0, maximum: 1000),
                  .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535)])
}

@Suite("MultitouchDecoder on synthetic event streams")
struct DecoderTests {
    @Test("SYN_DROPPED mid-frame cancels every touch, discards to the next SYN_REPORT, then resumes")
    func synDroppedMidFrame() {
        var s = Stream(touchscreen())
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 10); s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, 11); s.abs(.absMTPositionX, 200); s.abs(.absMTPositionY, 200)
        s.syn()
        #expect(s.last.map(\.1) == [.began, .began], "two touches begin")
        s.at(10)
        // Mid-frame: a move, a new finger, then the overflow.
        s.abs(.absMTSlot, 0); s.abs(.absMTPositionX, 150)
        s.abs(.absMTSlot, 2); s.abs(.absMTTrackingID, 12)
        s.dropped()
        #expect(s.outputs.last?.0 == .dropped, "SYN_DROPPED is reported")
        #expect(Set(s.last.map(\.0)) == [10, 11] && s.last.allSatisfy { $0.1 == .cancelled }, "both touches down are cancelled; the half-reported touch 12 never began: \(s.last)")
        #expect(s.outputs.last?.1.time == Instant(nanoseconds: 10_000_000), "the cancellation carries the SYN_DROPPED's time")
        let count = s.outputs.count
        // Events up to and including the next SYN_REPORT are discarded.
        s.abs(.absMTSlot, 3); s.abs(.absMTTrackingID, 13); s.abs(.absMTPositionX, 300); s.abs(.absMTPositionY, 300)
        s.syn()
        #expect(s.outputs.count == count, "events up to the next SYN_REPORT are discarded")
        #expect(s.decoder.activeContacts == 0, "no touch is down after the drop")
        // A finger still down only moves: its state is unknown, nothing is emitted.
        s.at(20)
        s.abs(.absMTSlot, 1); s.abs(.absMTPositionX, 210)
        s.syn()
        #expect(s.outputs.count == count, "a touch of unknown state is not resurrected by a move")
        // A new tracking id starts a new touch.
        s.at(30)
        s.abs(.absMTTrackingID, 14); s.abs(.absMTPositionY, 220)
        s.syn()
        #expect(s.last.map(\.0) == [14] && s.last.first?.1 == .began, "a new tracking id after the drop begins a touch")
        #expect(s.outputs.last?.1.changes.first?.location == Point(x: 210, y: 220), "positions after the drop are used")
    }

    @Test("tracking-id reuse: a new id without -1 ends the old touch and begins a new one")
    func trackingIDReuse() {
        var s = Stream(touchscreen())
        s.abs(.absMTTrackingID, 5); s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100)
        s.syn()
        s.at(10)
        s.abs(.absMTTrackingID, 6); s.abs(.absMTPositionX, 500)
        s.syn()
        #expect(s.last.map(\.0) == [5, 6] && s.last.map(\.1) == [.ended, .began], "old id ends, new id begins, in that order: \(s.last)")
        #expect(s.outputs.last?.1.changes.first?.location == Point(x: 100, y: 100), "the old touch ends where it was")
        #expect(s.outputs.last?.1.changes.last?.location == Point(x: 500, y: 100), "the new touch begins at the new position")
        // Lift and land with the same id inside one frame: also a new touch.
        s.at(20)
        s.abs(.absMTTrackingID, -1); s.abs(.absMTTrackingID, 6)
        s.syn()
        #expect(s.last.map(\.1) == [.ended, .began], "a lift and landing within one frame ends and begins")
        // A move only when the position changed.
        s.at(30)
        s.abs(.absMTPositionX, 500)
        s.syn()
        #expect(s.outputs.count == 3, "a position report that does not change the position emits nothing")
        s.at(40)
        s.abs(.absMTTrackingID, -1)
        s.syn()
        #expect(s.last.map(\.0) == [6] && s.last.first?.1 == .ended)
    }

    @Test("extra fingers from BTN_TOOL_TRIPLETAP on a 2-slot pad are synthesized at the centroid")
    func extraFingers() {
        var s = Stream(touchscreen(slots: 2, semiMT: true, tools: true))
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, 2); s.abs(.absMTPositionX, 300); s.abs(.absMTPositionY, 500)
        s.key(.btnTouch, 1); s.key(.btnToolTripleTap, 1)
        s.syn()
        #expect(s.last.count == 3 && s.last.allSatisfy { $0.1 == .began }, "three contacts begin")
        #expect(s.outputs.last?.1.changes.last?.location == Point(x: 200, y: 300), "the third is at the centroid of the two tracked")
        #expect(s.decoder.activeContacts == 3)
        s.at(10)
        s.key(.btnToolTripleTap, 0); s.key(.btnToolQuintTap, 1)
        s.syn()
        #expect(s.last.count == 2 && s.last.allSatisfy { $0.1 == .began }, "QUINTTAP: two more synthesized contacts")
        s.at(20)
        s.abs(.absMTSlot, 0); s.abs(.absMTPositionX, 300)
        s.syn()
        #expect(s.last.filter { $0.1 == .moved }.count == 4, "slot 0 moves and the 3 synthesized contacts follow the centroid: \(s.last)")
        s.at(30)
        s.key(.btnToolQuintTap, 0); s.key(.btnToolDoubleTap, 1)
        s.syn()
        #expect(s.last.count == 3 && s.last.allSatisfy { $0.1 == .ended }, "down to 2 fingers: the synthesized contacts end")
        #expect(s.last.allSatisfy { $0.0 >= MultitouchDecoder.syntheticIDBase }, "synthesized ids are above the tracking-id range")
    }

    @Test("single-touch device: BTN_TOUCH with ABS_X/ABS_Y, fresh id per touch")
    func singleTouch() {
        let d = EvdevDeviceDescription(name: "st", properties: [.direct],
                                       codes: [.key: [.btnTouch], .abs: [.absX, .absY]],
                                       absInfo: [.absX: AbsInfo(minimum: 0, maximum: 100), .absY: AbsInfo(minimum: 0, maximum: 200)])
        var s = Stream(d, screen: Size(width: 100, height: 100))
        s.key(.btnTouch, 1); s.abs(.absX, 50); s.abs(.absY, 50); s.syn()
        #expect(s.last.first?.1 == .began && s.outputs.last?.1.changes.first?.location == Point(x: 50, y: 25), "began at the mapped position")
        let first = s.last.first?.0
        s.at(5); s.abs(.absX, 60); s.syn()
        #expect(s.last.first?.1 == .moved)
        s.at(10); s.key(.btnTouch, 0); s.syn()
        #expect(s.last.first?.1 == .ended)
        s.at(20); s.key(.btnTouch, 1); s.syn()
        #expect(s.last.first?.1 == .began && s.last.first?.0 != first, "a new touch gets a new source id")
    }

    @Test("out-of-range slots and huge values never trap")
    func robustness() {
        var s = Stream(touchscreen(slots: 2))
        s.abs(.absMTSlot, 99); s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, .max)
        s.abs(.absMTSlot, -5); s.abs(.absMTTrackingID, .min)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, .max); s.abs(.absMTPositionX, .min); s.abs(.absMTPositionY, .max)
        s.syn()
        #expect(s.last.count == 1 && s.last.first?.0 == Int(Int32.max), "only the valid slot's touch begins")
        let degenerate = EvdevDeviceDescription(name: "flat", properties: [.direct], codes: [.key: [.btnTouch], .abs: [.absX, .absY]],
                                                absInfo: [.absX: AbsInfo(minimum: 5, maximum: 5), .absY: AbsInfo(minimum: 9, maximum: 0)])
        var t = Stream(degenerate)
        t.key(.btnTouch, 1); t.abs(.absX, 7); t.syn()
        #expect(t.outputs.last?.1.changes.first?.location.isFinite == true, "a degenerate axis maps to a finite point")
    }

    @Test("device classification from properties, udev and codes")
    func classification() {
        var d = touchscreen()
        #expect(d.touchKind == .touchscreen, "INPUT_PROP_DIRECT → touchscreen")
        d.properties = [.pointer]
        #expect(d.touchKind == .touchpad, "INPUT_PROP_POINTER → touchpad")
        d.properties = []
        d.codes[.key]?.insert(.btnToolFinger)
        #expect(d.touchKind == .touchpad, "BTN_TOOL_FINGER without DIRECT → touchpad")
        d.udevProperties["ID_INPUT_TOUCHSCREEN"] = "1"
        #expect(d.touchKind == .touchscreen, "ID_INPUT_TOUCHSCREEN=1 → touchscreen")
        let keyboard = EvdevDeviceDescription(name: "kbd", codes: [.key: [EventCode(rawValue: 30)]])
        #expect(keyboard.touchKind == nil, "a keyboard is no touch device")
    }
}

@Suite("libinput debug-events")
struct DebugEventsTests {
    @Test("gesture lines become TouchpadGestureEvents; DEVICE_ADDED names the device")
    func gestures() throws {
        let text = """
        -event7   DEVICE_ADDED            SynPS/2 Synaptics TouchPad        seat0 default group5  cap:pg  size 100x56mm tap(dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on
        -event4   DEVICE_ADDED            NTRG0001:01 1B96:1B05             seat0 default group6  cap:t  size 253x167mm ntouches 10 calib
        -event7   GESTURE_PINCH_BEGIN     +1.000s\t2
         event7   GESTURE_PINCH_UPDATE    +1.010s\t2  1.50/-2.00 ( 1.60/-2.10 unaccelerated)  1.10 @ -3.50
         event7   GESTURE_PINCH_UPDATE    +1.020s\t2  0.00/ 0.00 ( 0.00/ 0.00 unaccelerated)  1.25 @  2.00
         event7   GESTURE_PINCH_END       +1.030s\t2
         event7   GESTURE_SWIPE_BEGIN     +2.000s\t3
         event7   GESTURE_SWIPE_UPDATE    +2.010s\t3 10.00/ 0.50 (10.00/ 0.50 unaccelerated)
         event7   GESTURE_SWIPE_END       +2.020s\t3 cancelled
         event7   GESTURE_HOLD_BEGIN      +3.000s\t1
         event7   GESTURE_HOLD_END        +3.500s\t1
        -event4   TOUCH_DOWN              +4.000s\t0 (0) 50.00/25.00 (126.50/41.75mm)
         event4   TOUCH_FRAME             +4.000s
         event4   TOUCH_CANCEL            +4.100s\t0 (0)
         event4   TOUCH_FRAME             +4.100s
        -event7   POINTER_MOTION          +5.000s\t  1.00/  0.00 ( 1.00/ 0.00)
        """
        let file = try TempFile(text, name: "debug.txt")
        defer { file.remove() }
        let reader = try TraceReader(path: file.path, screen: Size(width: 800, height: 600))
        #expect(reader.format == .debugEvents)
        #expect(reader.devices.map(\.name) == ["SynPS/2 Synaptics TouchPad", "NTRG0001:01 1B96:1B05"], "names from DEVICE_ADDED")
        #expect(reader.devices.map(\.kind) == [.touchpad, .touchscreen], "cap:pg is a touchpad, cap:t a touchscreen")
        #expect(reader.devices.first?.physicalSize == Size(width: 100, height: 56), "size from DEVICE_ADDED")
        let d = try Decoded(reader)
        let g = d.gestures
        #expect(g.map(\.kind) == [.pinch, .pinch, .pinch, .pinch, .swipe, .swipe, .swipe, .hold, .hold])
        #expect(g.map(\.phase) == [.begin, .update, .update, .end, .begin, .update, .cancel, .begin, .end], "a cancelled END is phase .cancel")
        #expect(g.map(\.time.seconds) == [0, 0.01, 0.02, 0.03, 1, 1.01, 1.02, 2, 2.5], "times count from the first event")
        #expect(g[1].scale == 1.1 && g[1].angleDelta == -3.5 && g[1].delta == Point(x: 1.5, y: -2), "pinch update: scale, angle delta, dx/dy")
        #expect(g[3].scale == 1.25, "pinch END repeats the last absolute scale")
        #expect(g[5].delta == Point(x: 10, y: 0.5) && g[5].fingers == 3, "swipe dx/dy and fingers")
        #expect(g.allSatisfy { $0.device == InputDeviceID(0) && $0.location == Point(x: 400, y: 300) }, "gestures come from event7, at the screen centre")
        #expect(d.changes.map(\.phase) == [.began, .cancelled], "TOUCH_CANCEL cancels")
        #expect(d.began.first?.location == Point(x: 400, y: 150), "50 % / 25 % of 800×600")
        #expect(d.frames.allSatisfy { $0.device == InputDeviceID(1) && $0.deviceKind == .touchscreen })
    }
}
