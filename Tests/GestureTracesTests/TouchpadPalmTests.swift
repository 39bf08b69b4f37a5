import GestureKit
import GestureTestSupport
import Testing
@testable import GestureTraces

/// The built-in decoder's palm detection (TouchpadPalm.swift), on synthetic recordings of the
/// Elantech pad (scripts/make-synthetic-touchpad-gestures.py): what libinput 1.22 decides on the
/// same recordings is what these expect (PointerAgreementTests replays them through both).
@Suite("The built-in touchpad decoder leaves palms out, as libinput")
struct TouchpadPalmTests {
    @Test("a palm pressing on the pad while a finger moves the pointer does not scroll or hold: the pointer follows the finger, as libinput's palm detection by pressure leaves the palm out")
    func pressingPalmIsLeftOut() throws {
        let d = try TouchpadDecoderTests.decode("synthetic-tp-elantech-palm-pressure-move-1f.evemu")
        #expect(d.gestures.isEmpty, "no gesture, not even a hold of the palm alone: \(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        #expect(!d.pointer.contains { $0.kind == .scroll }, "nothing scrolls")
        let moves = d.pointer.filter { $0.kind == .motion }
        let first = try #require(moves.first), last = try #require(moves.last)
        // 30 mm at 10 pt a millimetre, less the first two frames after the finger lands
        // (libinput resets the motion of every touch when the number of contacts changes).
        #expect(last.location.x - first.location.x > 250, "the finger moves the pointer about 300 pt right: \(last.location.x - first.location.x)")
        #expect(abs(last.location.y - first.location.y) < 5, "and not up or down")
    }

    @Test("the palm threshold is libinput's: 130 on a pad with ABS_MT_PRESSURE, 254 on the Cypress pad (its quirk), none on a pad without pressure or an external (USB) one",
          arguments: [("synthetic-tp-elantech-palm-pressure-move-1f.evemu", Int32?(130)), ("tp-synaptics-scroll-vertical-2f.evemu", 130),
                      ("tp-cypress-semimt-tap-2f.evemu", 254), ("tp-alps-glidepoint-tap-1f.evemu", nil),
                      ("tp-wacom-intuos5-scroll-2f.evemu", nil)])
    func thresholds(_ fixture: String, _ threshold: Int32?) throws {
        let reader = try TraceReader(path: Fixtures.path(fixture))
        let device = try #require(reader.devices.first)
        #expect(TouchpadPalm(device: device, padSize: Size(width: 100, height: 70)).pressureThreshold == threshold, "\(fixture): \(device.description?.name ?? "")")
    }

    @Test("a palm resting on the pad's left edge moves no pointer and holds nothing while it drifts within the edge, as libinput's palm edge zone leaves it out")
    func palmOnTheEdgeIsLeftOut() throws {
        let d = try TouchpadDecoderTests.decode("synthetic-tp-elantech-palm-edge-rest-1f.evemu")
        #expect(d.gestures.isEmpty, "no hold: \(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        #expect(!d.pointer.contains { $0.kind == .motion }, "the palm's drift moves no pointer")
    }

    @Test("libinput's palm edge zones: the outer 8 mm left and right of a pad 70 mm wide or more (8 % of its width, at most 8 mm), its top 5 % when it is taller than 55 mm; none on a narrower pad or an external one",
          arguments: [("synthetic-tp-elantech-palm-edge-rest-1f.evemu", true), ("tp-synaptics-scroll-vertical-2f.evemu", false),
                      ("tp-wacom-intuos5-scroll-2f.evemu", false)])
    func edgeZones(_ fixture: String, _ zones: Bool) throws {
        let reader = try TraceReader(path: Fixtures.path(fixture))
        let device = try #require(reader.devices.first)
        let size = device.physicalSize ?? GestureDefaults.touchpadAssumedSizeMillimetres
        let edges = TouchpadPalm(device: device, padSize: device.physicalSize).edges
        #expect((edges != nil) == zones, "\(fixture): \(size.width) × \(size.height) mm")
        if let edges {
            // The Elantech pad: 3260 × 2282 units at 32 a millimetre, 101.9 × 71.3 mm.
            #expect(edges.left == 8 && abs(edges.right - (size.width - 8)) < 1e-9, "8 mm each side: \(edges)")
            #expect(abs(edges.top - size.height * 0.05) < 1e-9, "the top 5 %: \(edges.top) mm")
        }
    }

    @Test("a thumb landing well below a finger that is moving the pointer does not stop the pointer, scroll or hold: the pointer goes on, as libinput's speed-based thumb detection leaves the thumb out")
    func thumbLandingWhileMovingIsLeftOut() throws {
        let fixture = "synthetic-tp-elantech-thumb-lands-while-moving-1f.evemu"
        let d = try TouchpadDecoderTests.decode(fixture)
        #expect(d.gestures.isEmpty, "no gesture: \(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        #expect(!d.pointer.contains { $0.kind == .scroll }, "nothing scrolls")
        // The pointer moves in every frame but the two after the thumb lands and the two after
        // it lifts (libinput resets every touch's motion when the number of contacts changes).
        let contacts = try Decoded(path: Fixtures.path(fixture), touchpads: .contacts)
        let thumbDown = try #require(contacts.frames.first { $0.changes.contains { $0.phase == .began } && $0.time.seconds > 0.1 }).time
        let thumbUp = try #require(contacts.frames.first { $0.changes.contains { $0.phase == .ended } }).time
        let moves = d.pointer.filter { $0.kind == .motion && $0.time > thumbDown && $0.time < thumbUp }
        #expect(moves.count >= 8, "the finger moves the pointer while the thumb rests (12 frames): \(moves.count) moves")
    }
}
