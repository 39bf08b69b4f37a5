import GestureKit
import GestureTestSupport
import Testing
@testable import GestureTraces

/// The built-in decoder's touchpad decisions, on the synthetic recordings made from libinput
/// 1.22's gesture tests (scripts/make-synthetic-touchpad-gestures.py): what libinput decides on
/// the same recordings is what these expect (PointerAgreementTests replays them through both).
@Suite("The built-in touchpad decoder decides as libinput")
struct TouchpadDecoderTests {
    /// The touchpad gestures and pointer events the decoder makes of a fixture.
    static func decode(_ fixture: String) throws -> Decoded {
        try Decoded(path: Fixtures.path(fixture), touchpads: .pointer)
    }

    static func phases(_ d: Decoded, _ kind: TouchpadGestureEvent.Kind) -> [TouchpadGestureEvent.Phase] {
        d.gestures.filter { $0.kind == kind && $0.phase != .update }.map(\.phase)
    }

    /// The time of the frame in which the last of the pad's contacts but one lifted.
    static func lastButOneLift(_ fixture: String) throws -> Instant {
        let contacts = try Decoded(path: Fixtures.path(fixture), touchpads: .contacts)
        var down = 0
        var lift: Instant?
        for f in contacts.frames {
            let before = down
            for c in f.changes where c.phase == .began { down += 1 }
            for c in f.changes where c.phase == .ended || c.phase == .cancelled { down -= 1 }
            if before >= 2 && down == 1 { lift = f.time }
        }
        return try #require(lift, "\(fixture): some contact is left alone on the pad")
    }

    @Test("a pinch whose fingers lift 20 ms apart ends, as libinput ends it, instead of being cancelled")
    func pinchLiftedApartEnds() throws {
        let d = try Self.decode("synthetic-tp-elantech-pinch-out-lift-apart-2f.evemu")
        #expect(Self.phases(d, .pinch) == [.begin, .end], "one pinch, ended: \(Self.phases(d, .pinch))")
        let end = try #require(d.gestures.last { $0.kind == .pinch })
        #expect(end.fingers == 2, "the pinch ends with the two fingers it had")
        #expect(end.scale > 1.6, "the spread's scale is kept to the end: \(end.scale)")
    }

    @Test("three fingers on one horizontal line swipe, as libinput swipes them: one three-finger swipe to the right, ended")
    func threeFingersInALineSwipe() throws {
        let d = try Self.decode("synthetic-tp-elantech-swipe-right-line-3f.evemu")
        let swipe = d.gestures.filter { $0.kind == .swipe }
        #expect(Self.phases(d, .swipe) == [.begin, .end], "one swipe, ended: \(Self.phases(d, .swipe))")
        #expect(swipe.allSatisfy { $0.fingers == 3 }, "of three fingers: \(swipe.map(\.fingers))")
        let dx = swipe.map(\.delta.x).reduce(0, +), dy = swipe.map(\.delta.y).reduce(0, +)
        #expect(dx > 200 && abs(dy) < 5, "25 mm right is about 250 pt right: \(dx), \(dy)")
        #expect(!d.gestures.contains { $0.kind == .hold }, "no hold: the fingers move from the start")
    }

    @Test("four fingers on one horizontal line swipe up with four fingers")
    func fourFingersInALineSwipe() throws {
        let d = try Self.decode("synthetic-tp-elantech-swipe-up-line-4f.evemu")
        let swipe = d.gestures.filter { $0.kind == .swipe }
        #expect(Self.phases(d, .swipe) == [.begin, .end], "one swipe, ended: \(Self.phases(d, .swipe))")
        #expect(swipe.allSatisfy { $0.fingers == 4 }, "of four fingers: \(swipe.map(\.fingers))")
        #expect(swipe.map(\.delta.y).reduce(0, +) < -200, "25 mm up")
    }

    @Test("three fingers resting on one horizontal line hold, as libinput holds them: from 180 ms until they lift")
    func threeFingersInALineHold() throws {
        let d = try Self.decode("synthetic-tp-elantech-hold-line-3f.evemu")
        let hold = d.gestures.filter { $0.kind == .hold }
        #expect(hold.map(\.phase) == [.begin, .end], "one hold, ended when the fingers lift: \(hold.map(\.phase))")
        #expect(hold.allSatisfy { $0.fingers == 3 })
        let begin = try #require(hold.first).time.seconds - Self.firstFrame("synthetic-tp-elantech-hold-line-3f.evemu").seconds
        #expect(abs(begin - 0.18) < 0.013, "the hold of three fingers waits libinput's 180 ms (one 12.5 ms frame of slack): \(begin) s")
    }

    static func firstFrame(_ fixture: String) throws -> Instant {
        try #require(try Decoded(path: Fixtures.path(fixture), touchpads: .contacts).frames.first?.time)
    }

    @Test("after a two-finger scroll, the finger left on the pad moves the pointer only once libinput's 100 ms have passed: the scroll stops then, and no hold begins")
    func scrollThenPointerMotion() throws {
        let fixture = "synthetic-tp-elantech-scroll-then-move-1f.evemu"
        let d = try Self.decode(fixture)
        let lift = try Self.lastButOneLift(fixture)
        let stop = try #require(d.pointer.first { $0.kind == .scroll && $0.scrollStop })
        let waited = stop.time.seconds - lift.seconds
        #expect(waited >= 0.1 - 1e-6 && waited < 0.1 + 0.0125, "the scroll stops 100 ms after the lift (within a frame), not at it: \(waited) s")
        let firstMotion = try #require(d.pointer.first { $0.kind == .motion && $0.time > lift })
        #expect(firstMotion.time >= stop.time, "the pointer does not move while the count settles")
        #expect(!d.gestures.contains { $0.kind == .hold && $0.time > lift }, "no hold after the lift: the finger is moving")
        #expect(d.pointer.filter { $0.kind == .motion }.count > 10, "the finger then moves the pointer")
    }

    @Test("a one-finger hold survives one jittery frame right after the hold began: libinput ignores the first motion after a finger lands")
    func holdSurvivesJitter() throws {
        let d = try Self.decode("synthetic-tp-elantech-hold-then-jitter-1f.evemu")
        #expect(Self.phases(d, .hold) == [.begin, .end], "one hold, ended at the lift, not cancelled: \(Self.phases(d, .hold))")
        #expect(!d.pointer.contains { $0.kind == .motion }, "the jitter moves no pointer")
    }
}

extension TouchpadDecoderTests {
    @Test("a click on the clickpad holds the pointer still while the clicking finger wobbles, and the hold under way ends, as libinput pins the finger")
    func clickPinsTheFinger() throws {
        let d = try Self.decode("synthetic-tp-elantech-click-1f.evemu")
        let press = try #require(d.pointer.first { $0.kind == .button && $0.pressed })
        let release = try #require(d.pointer.first { $0.kind == .button && !$0.pressed })
        let moves = d.pointer.filter { $0.kind == .motion && $0.time >= press.time && $0.time <= release.time }
        #expect(moves.isEmpty, "the finger wobbles a unit or two (0.03 mm): the pointer stays: \(moves.map(\.location))")
        #expect(Self.phases(d, .hold) == [.begin, .end], "the resting finger's hold ends at the click (its finger pinned), not cancelled: \(Self.phases(d, .hold))")
    }

    @Test("a thumb resting in the clickpad's bottom button area is left out, as libinput leaves it: the two fingers above it scroll, and the thumb alone holds nothing")
    func thumbInTheButtonAreaIsLeftOut() throws {
        let d = try Self.decode("synthetic-tp-elantech-thumb-rest-scroll-up-2f.evemu")
        #expect(!d.gestures.contains { $0.fingers != 2 }, "only the two fingers make gestures: \(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        #expect(!d.gestures.contains { $0.kind == .swipe || $0.kind == .pinch }, "no swipe, no pinch")
        let scroll = d.pointer.filter { $0.kind == .scroll && !$0.scrollStop }
        #expect(scroll.map(\.delta.y).reduce(0, +) < -150, "20 mm up scrolls about −200 pt: \(scroll.map(\.delta.y).reduce(0, +))")
        #expect(d.pointer.contains { $0.kind == .scroll && $0.scrollStop }, "the scroll stops when the fingers lift")
        #expect(!d.pointer.contains { $0.kind == .motion }, "the thumb moves no pointer")
    }

    @Test("three fingers on a pad with two slots swipe with three fingers at once, as libinput swipes when it cannot see every finger: no hold first, however long they rest")
    func moreFingersThanSlotsSwipe() throws {
        let d = try Self.decode("synthetic-tp-synaptics-swipe-right-3f.evemu")
        #expect(d.devices.first?.slotCount == 2, "the Synaptics pad has two slots")
        #expect(!d.gestures.contains { $0.kind == .hold }, "no hold: \(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        let swipe = d.gestures.filter { $0.kind == .swipe }
        #expect(Self.phases(d, .swipe) == [.begin, .end] && swipe.allSatisfy { $0.fingers == 3 }, "one three-finger swipe")
        #expect(swipe.map(\.delta.x).reduce(0, +) > 100, "to the right")
    }

    /// One finger resting on the Cypress semi-MT pad of tp-cypress-semimt-tap-2f.evemu for
    /// `seconds`, a frame each 12.5 ms, as an evemu recording.
    static func semiMTRest(seconds: Double) throws -> TempFile {
        let reader = try TraceReader(path: Fixtures.path("tp-cypress-semimt-tap-2f.evemu"))
        let description = try #require(reader.devices.first?.description)
        var events: [EvdevEvent] = []
        func add(_ ms: Double, _ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(EvdevEvent(time: Instant(nanoseconds: Int64(ms * 1_000_000)), type: type, code: code, value: value))
        }
        let frames = Int(seconds / 0.0125)
        for i in 0...frames {
            let ms = Double(i) * 12.5
            add(ms, .abs, .absMTSlot, 0)
            if i == 0 { add(ms, .abs, .absMTTrackingID, 7) }
            add(ms, .abs, .absMTPositionX, 800); add(ms, .abs, .absMTPositionY, 450)
            if i == 0 { add(ms, .key, .btnTouch, 1); add(ms, .key, .btnToolFinger, 1) }
            add(ms, .abs, .absX, 800); add(ms, .abs, .absY, 450)
            add(ms, .syn, .synReport, 0)
        }
        let end = Double(frames + 1) * 12.5
        add(end, .abs, .absMTSlot, 0); add(end, .abs, .absMTTrackingID, -1)
        add(end, .key, .btnTouch, 0); add(end, .key, .btnToolFinger, 0); add(end, .syn, .synReport, 0)
        return try TempFile(TraceWriter.evemu(description: description, events: events), name: "semimt-rest.evemu")
    }

    @Test("a finger resting on a semi-MT pad holds nothing, as libinput makes no hold there (its gestures are off on such a pad)")
    func semiMTNoHold() throws {
        let file = try Self.semiMTRest(seconds: 0.4)
        defer { file.remove() }
        let d = try Decoded(path: file.path, touchpads: .pointer)
        #expect(d.devices.first?.isSemiMT == true, "the Cypress pad is semi-MT")
        #expect(!d.gestures.contains { $0.kind == .hold }, "no hold: \(d.gestures.map { "\($0.kind) \($0.phase)" })")
    }
}
