import GestureKit
import GestureTestSupport
import Testing
@testable import GestureTraces

/// The built-in decoder's thumb detection (TouchpadThumb.swift), on synthetic recordings of the
/// Elantech pad (scripts/make-synthetic-touchpad-gestures.py): what libinput 1.22 decides on the
/// same recordings is what these expect (PointerAgreementTests replays them through both).
@Suite("The built-in touchpad decoder leaves thumbs out, as libinput")
struct TouchpadThumbTests {
    /// The pointer motion of the frames after `after` seconds.
    static func moves(_ d: Decoded, after seconds: Double) -> [PointerEvent] {
        d.pointer.filter { $0.kind == .motion && $0.time.seconds > seconds }
    }

    @Test("a thumb resting alone at the bottom of the pad that creeps sideways, slowly, moves no pointer and holds nothing, even past the button area's 5 mm: libinput jails a touch landing in the lowest 15 % until it leaves it or moves fast")
    func thumbLandingAloneIsJailed() throws {
        let d = try TouchpadDecoderTests.decode("synthetic-tp-elantech-thumb-creeps-in-thumb-area-1f.evemu")
        #expect(d.gestures.isEmpty, "no hold: \(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        #expect(!d.pointer.contains { $0.kind == .motion }, "the thumb's 8 mm creep moves no pointer")
    }

    @Test("a thumb that lands at the bottom of the pad well below a resting finger, and is left alone when the finger lifts, moves no pointer as it creeps sideways: libinput's thumb landing 25 mm below another is revived jailed in the lowest 15 %")
    func thumbLeftAloneStaysJailed() throws {
        let fixture = "synthetic-tp-elantech-thumb-left-alone-creeps-1f.evemu"
        let d = try TouchpadDecoderTests.decode(fixture)
        // The finger's own hold, one finger, from its landing until it lifts; the thumb adds no
        // finger to it and makes none of its own.
        #expect(d.gestures.filter { $0.phase != .update }.map { "\($0.kind) \($0.fingers) \($0.phase)" } == ["hold 1 begin", "hold 1 end"],
                "\(d.gestures.map { "\($0.kind) \($0.fingers) \($0.phase)" })")
        let fingerUp = try TouchpadDecoderTests.lastButOneLift(fixture)
        #expect(Self.moves(d, after: fingerUp.seconds).isEmpty, "the thumb left alone moves no pointer")
    }

    @Test("libinput's thumb area on the Elantech pad (71.3 mm tall): the lowest 15 % from 60.6 mm, the lowest 8 % from 65.6 mm; none on a pad without a real size 50 mm tall",
          arguments: [("synthetic-tp-elantech-thumb-creeps-in-thumb-area-1f.evemu", true), ("tp-synaptics-scroll-vertical-2f.evemu", false)])
    func thumbArea(_ fixture: String, _ detects: Bool) throws {
        let reader = try TraceReader(path: Fixtures.path(fixture))
        let device = try #require(reader.devices.first)
        let thumb = TouchpadThumb(device: device, isClickpad: true)
        #expect((thumb.upperThumbLine != nil) == detects, "\(fixture)")
        if let upper = thumb.upperThumbLine, let size = device.physicalSize {
            #expect(abs(upper - size.height * 0.85) < 1e-9 && abs(thumb.lowerThumbLine - size.height * 0.92) < 1e-9,
                    "\(upper), \(thumb.lowerThumbLine) of \(size.height) mm")
        }
    }
}
