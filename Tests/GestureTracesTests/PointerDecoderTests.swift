import GestureKit
import Testing
import GestureTraces

/// `PointerDecoder` fed synthetic mouse events: motion, buttons, wheels and their rules.
@Suite("Pointer decoder")
struct PointerDecoderTests {
    static func mouse(hiRes: Bool = false, buttons: Bool = true, relative: Bool = true) -> TraceDevice {
        var rel: Set<EventCode> = [EventCode(rawValue: 0x08), EventCode(rawValue: 0x06)]
        if relative { rel.formUnion([EventCode(rawValue: 0x00), EventCode(rawValue: 0x01)]) }
        if hiRes { rel.formUnion([EventCode(rawValue: 0x0b), EventCode(rawValue: 0x0c)]) }
        let keys: Set<EventCode> = buttons ? [.btnLeft, EventCode(rawValue: 0x111)] : [EventCode(rawValue: 0x73)]
        let d = EvdevDeviceDescription(name: "mouse", codes: [.syn: [.synReport], .rel: rel, .key: keys])
        return TraceDevice(id: InputDeviceID(3), description: d)
    }

    /// Feeds (type, code, value) frames, each closed by a SYN_REPORT 10 ms apart.
    static func run(_ device: TraceDevice, _ frames: [[(UInt16, UInt16, Int32)]]) -> ([PointerEvent], [String]) {
        var decoder = PointerDecoder(screen: Size(width: 1000, height: 1000))
        decoder.add(device)
        var out: [PointerEvent] = []
        var notes: [String] = []
        for (i, frame) in frames.enumerated() {
            let t = Instant(nanoseconds: Int64(i) * 10_000_000)
            for (type, code, value) in frame + [(0, 0, 0)] {
                decoder.feed(EvdevEvent(time: t, type: EventType(rawValue: type), code: EventCode(rawValue: code), value: value),
                             device: device.id) { out.append($0) }
            }
            notes += decoder.takeNotes()
        }
        return (out, notes)
    }

    @Test("motion adds up within a frame, a point per unit from the centre, kept on the screen: pushed past the right or bottom edge, the pointer stays just inside it, over the views there")
    func motion() {
        let (events, _) = Self.run(Self.mouse(), [[(2, 0, 3), (2, 1, -4), (2, 0, 2)], [(2, 0, 900)], [(2, 1, 900)],
                                                  [(2, 0, -2000), (2, 1, -2000)]])
        let inside = 1000 - Rect.closestPointEdgeInset
        #expect(events.map(\.location) == [Point(x: 505, y: 496), Point(x: inside, y: 496), Point(x: inside, y: inside),
                                            Point(x: 0, y: 0)],
                "5 right and 4 up from the centre, then stopped just inside the right edge, the bottom-right corner, and the top-left corner: \(events.map(\.location))")
        let rightmost = Rect(x: 900, y: 0, width: 100, height: 1000)
        #expect(events.dropFirst().allSatisfy { Rect(x: 0, y: 0, width: 1000, height: 1000).contains($0.location) },
                "every location is on the screen")
        #expect(rightmost.contains(events[1].location), "a view at the screen's right edge is under the pointer pushed against it")
    }

    @Test("a button's press and release are pointer events at the pointer; the kernel's autorepeat (value 2) is no new press")
    func buttons() {
        let (events, _) = Self.run(Self.mouse(), [[(1, 0x110, 1)], [(1, 0x110, 2)], [(1, 0x110, 0)]])
        #expect(events.map { "\($0.kind.rawValue) \($0.pressed)" } == ["button true", "button false"],
                "one press, one release: \(events.map { "\($0.kind) \($0.pressed)" })")
    }

    @Test("a wheel detent scrolls 15 pt, forward positive y, tilted right negative x; a hi-res wheel counts once")
    func wheels() {
        let (low, _) = Self.run(Self.mouse(), [[(2, 0x08, 2)], [(2, 0x06, 1)]])
        #expect(low.map(\.delta) == [Point(x: 0, y: 30), Point(x: -15, y: 0)], "low-res: \(low.map(\.delta))")
        // A hi-res mouse sends both: 60 hi-res units (half a detent) twice, then the detent.
        let (hi, _) = Self.run(Self.mouse(hiRes: true), [[(2, 0x0b, 60)], [(2, 0x0b, 60), (2, 0x08, 1)]])
        #expect(hi.map(\.delta) == [Point(x: 0, y: 7.5), Point(x: 0, y: 7.5)], "hi-res, the detent not counted twice: \(hi.map(\.delta))")
        #expect(hi.allSatisfy { $0.scrollType == .discrete }, "a wheel is a discrete scroll")
    }

    @Test("a wheel on a device with no pointer (no REL_X/REL_Y, no buttons) is ignored, and says so")
    func wheelWithoutPointer() {
        let (events, notes) = Self.run(Self.mouse(buttons: false, relative: false), [[(2, 0x08, 1)]])
        #expect(events.isEmpty, "no scroll from a knob: \(events)")
        #expect(notes.count == 1 && notes[0].contains("no pointer"), "the ignored turn is reported: \(notes)")
    }
}
