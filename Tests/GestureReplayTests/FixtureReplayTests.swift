import Foundation
import Testing
import GestureKit
import GestureTraces
import GestureReplay
import GestureTestSupport

/// Every real recording in Fixtures/ replayed through the default scene (and, where the
/// gesture needs it, a scene with the recognizer for it): what each contains.
@Suite("Replaying the fixtures")
struct FixtureReplayTests {
    @Test("every touch fixture replays, ends with every recognizer back in possible, and replays identically twice",
          arguments: Fixtures.touch)
    func replays(_ fixture: String) throws {
        let first = try Replayed(fixture)
        let second = try Replayed(fixture)
        #expect(first.jsonLines == second.jsonLines, "the same recording gives the same output")
        // A touchscreen's touches reach the default scene's views; a touchpad is a pointer
        // (its taps click nothing: tap-to-click is off, as libinput's default).
        if Fixtures.touchscreens.contains(fixture) {
            #expect(!first.records.isEmpty, "something happens in every touchscreen recording")
        }
        if Fixtures.touchpads.contains(fixture) {
            // Its clicks are touches (indirectPointer, at the pointer); its contacts are not.
            var presses = 0
            try TraceReader(path: Fixtures.path(fixture)).run { event in
                if case let .pointer(p) = event, p.kind == .button, p.pressed { presses += 1 }
            }
            var delivered = Set<Int>()
            for record in first.records { if case let .touches(_, _, _, ids, _) = record { delivered.formUnion(ids) } }
            #expect(delivered.count == presses, "a touchpad's contacts never reach a view: \(delivered.count) touches for \(presses) clicks")
        }
        // Each recognizer's transitions alternate possible-leaving and final states correctly.
        for id in ["single", "double", "longPress", "pinch"] {
            var state = GestureRecognizer.State.possible
            for s in first.states where s.recognizer == id {
                #expect(s.from == state, "\(id) goes from where it was: \(s.from) after \(state)")
                state = s.to.isFinal ? .possible : s.to
            }
            #expect(state == .possible, "\(id) ends the replay back in possible")
        }
        let times = first.records.map(\.time)
        #expect(times == times.sorted(), "records come in time order")
    }

    @Test("the Wacom double tap is a double tap, and the single tap waiting on it fails")
    func wacomDoubleTap() throws {
        let r = try Replayed("ts-wacom-isdv4-e6-double-tap-1f.evemu")
        #expect(r.count("double", .ended) == 1, "one double tap")
        #expect(r.count("single", .ended) == 0, "no single tap")
        #expect(r.last("single", .failed)?.reason == "double recognized first")
        #expect(r.records.contains { if case let .waiting(_, id, reason) = $0 { id == "single" && reason == "waiting for double to fail" } else { false } },
                "the single tap says it waits for the double tap")
    }

    @Test("touchpad taps tap nothing: tap-to-click is off, as libinput's default, and the contacts never reach a view",
          arguments: ["tp-alps-glidepoint-tap-1f.evemu", "tp-alps-glidepoint-double-tap-1f.evemu", "tp-alps-glidepoint-tap-2f.evemu",
                      "tp-cypress-semimt-tap-2f.evemu", "tp-cypress-semimt-tap-3f.evemu", "synthetic-tp-elantech-tap-1f.evemu"])
    func touchpadTaps(_ fixture: String) throws {
        let r = try Replayed(fixture)
        #expect(r.count("single", .ended) == 0 && r.count("double", .ended) == 0, "no tap: \(r.states.map { "\($0.recognizer) \($0.to)" })")
        #expect(r.count("pinch", .began) == 0, "a touchpad tap's wobble does not begin a pinch")
        #expect(!r.records.contains { if case .touches = $0 { true } else { false } }, "no view receives the pad's contacts")
    }

    /// On these semi-MT pads the first slot becomes the bounding box's corner when the second
    /// finger lands and jumps by centimetres: libinput (which makes no pinch of a semi-MT
    /// pad) scrolls two fingers at once, and reads the jump as a scroll. So does the decoder.
    @Test("the semi-MT two-finger taps scroll, as libinput reads them: the bounding box's corner jump is two-finger motion",
          arguments: ["tp-alps-glidepoint-tap-2f.evemu", "tp-cypress-semimt-tap-2f.evemu"])
    func semiMTTwoFingerTapScrolls(_ fixture: String) throws {
        let s = try scene(#"{"recognizers": [{"id": "scroll", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"]}]}"#)
        let r = try Replayed(fixture, scene: s)
        #expect(r.count("scroll", .began) == 1 && r.count("scroll", .ended) == 1, "\(r.states.map { "\($0.recognizer) \($0.to) \($0.reason)" })")
    }

    @Test("the multi-finger taps of a touchscreen are taps with that many touches")
    func multiFingerTaps() throws {
        let s = try scene(#"{"recognizers": [{"id": "tap", "kind": "tap", "view": "root", "touches": 2}]}"#)
        let r = try Replayed("ts-wacom-isdv4-e6-tap-2f.evemu", scene: s)
        #expect(r.count("tap", .ended) == 1, "\(r.states.map { "\($0.recognizer) \($0.to) \($0.reason)" })")
    }

    @Test("a Wacom single tap is a single tap, 0.3 s after its touch-up, when the double tap gives up")
    func wacomSingleTap() throws {
        let r = try Replayed("ts-wacom-isdv4-e6-tap-1f.evemu")
        #expect(r.times("single", .ended) == [0.324011], "touch-up at 0.024011 s + the 0.3 s double-tap interval")
        #expect(r.count("double", .ended) == 0)
    }

    @Test("the Atmel nine fast taps read as four double taps and one single tap: the nine taps a person made")
    func atmelNineTaps() throws {
        // Nine taps of 82–110 ms, ~140 ms apart, all within ~35 px: each pair of taps is
        // within the 0.3 s interval and 45 pt of each other, so the double tap takes them two
        // by two (taps 1+2, 3+4, 5+6, 7+8); the ninth gets no partner within 0.3 s, so the
        // double tap fails and the single tap, which waited for that, fires. 4 × 2 + 1 = 9.
        let r = try Replayed("ts-atmel-maxtouch-9-taps-1f.evemu")
        #expect(r.count("double", .ended) == 4, "four double taps")
        #expect(r.count("single", .ended) == 1, "one single tap, the ninth")
        #expect(r.count("longPress", .began) == 0 && r.count("pinch", .began) == 0)
    }

    @Test("the two-finger pan is not a pinch")
    func panIsNotPinch() throws {
        let r = try Replayed("ts-ep0430m09-pan-down-2f.evemu")
        #expect(r.count("pinch", .began) == 0, "two fingers scrolling together never begin a pinch")
        #expect(r.count("single", .ended) == 0 && r.count("double", .ended) == 0)
    }

    @Test("the Dell Canvas five-finger pinch-in reads as a pinch with scale below 0.7")
    func dellPinch() throws {
        let r = try Replayed("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu")
        #expect(r.count("pinch", .began) == 1, "one pinch in the whole recording")
        let end = try #require(r.last("pinch", .ended))
        #expect(try #require(end.values.scale) < 0.7, "scale at the end \(end.values.scale ?? 0)")
        #expect(end.time.seconds > 12.5 && end.time.seconds < 13.2, "during the pinch sequence (12.5–13.1 s)")
    }

    @Test("the swipes are not taps", arguments: ["ts-pixel-tablet-nvt-swipe-1f.evemu", "ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu"])
    func swipesAreNotTaps(_ fixture: String) throws {
        let r = try Replayed(fixture)
        #expect(r.count("single", .ended) == 0 && r.count("double", .ended) == 0, "no tap recognized")
        #expect(r.count("longPress", .began) == 0, "no long press")
    }

    @Test("the Pixel tablet fling is a swipe, decided by its first 60 ms")
    func pixelSwipe() throws {
        // The finger first goes right (810 → 942 device units, 83 pt, in 59 ms), then turns
        // and flings up and to the left. A swipe recognizer decides as the finger moves, so
        // one that allows every direction recognizes the opening stroke to the right; one that
        // allows only up fails on it.
        let all = try Replayed("ts-pixel-tablet-nvt-swipe-1f.evemu", scene: try scene(
            #"{"recognizers": [{"id": "swipe", "kind": "swipe", "view": "root", "direction": ["left", "right", "up", "down"]}]}"#))
        let swipe = try #require(all.last("swipe", .ended))
        #expect(swipe.reason == "swiped 59.412 pt right" && swipe.time.seconds < 0.05)
        let up = try Replayed("ts-pixel-tablet-nvt-swipe-1f.evemu", scene: try scene(
            #"{"recognizers": [{"id": "swipe", "kind": "swipe", "view": "root", "direction": "up"}]}"#))
        #expect(up.last("swipe", .failed)?.reason == "moved right, not an allowed direction")
    }

    @Test("the Surface hold is a long press that begins at 0.5 s and ends when the finger lifts")
    func surfaceHold() throws {
        let r = try Replayed("ts-surface-pro3-hold-1f.debug-events.txt")
        #expect(r.times("longPress", .began) == [0.5])
        #expect(r.count("longPress", .ended) == 1)
        #expect(r.count("single", .ended) == 0)
    }

    @Test("the Surface pinches read as pinches in the right direction", arguments: [
        ("ts-surface-pro3-pinch-in-3f.debug-events.txt", false),
        ("ts-surface-pro3-pinch-out-3f.debug-events.txt", true),
    ])
    func surfacePinch(_ fixture: String, _ outwards: Bool) throws {
        let r = try Replayed(fixture)
        let end = try #require(r.last("pinch", .ended))
        let scale = try #require(end.values.scale)
        #expect(outwards ? scale > 1.4 : scale < 0.5, "scale at the end: \(scale)")
    }

    static let pinchAndRotation = #"""
    {"recognizers": [{"id": "pinch", "kind": "pinch", "view": "root"}, {"id": "rotate", "kind": "rotation", "view": "root"}],
     "simultaneous": [["pinch", "rotate"]]}
    """#

    @Test("the Surface rotations read as rotations in the right direction", arguments: [
        ("ts-surface-pro3-rotate-cw-2f.debug-events.txt", 1.0),
        ("ts-surface-pro3-rotate-ccw-2f.debug-events.txt", -1.0),
    ])
    func surfaceRotation(_ fixture: String, _ sign: Double) throws {
        let r = try Replayed(fixture, scene: try scene(FixtureReplayTests.pinchAndRotation))
        let end = try #require(r.last("rotate", .ended))
        let rotation = try #require(end.values.rotation)
        // 59° clockwise and 80° counter-clockwise in all; some of it passes before began.
        #expect(rotation * sign > 0.5, "rotation at the end: \(rotation) rad, clockwise positive")
    }

    @Test("the Surface three-finger tap is a three-finger tap")
    func surfaceThreeFingerTap() throws {
        let s = try scene(#"{"recognizers": [{"id": "tap3", "kind": "tap", "view": "root", "touches": 3}]}"#)
        let r = try Replayed("ts-surface-pro3-tap-3f.debug-events.txt", scene: s)
        #expect(r.count("tap3", .ended) == 1)
    }

    @Test("the same recording as evemu and as libinput record YAML replays to identical output",
          arguments: ["ts-wacom-isdv4-e6-double-tap-1f.evemu", "ts-atmel-maxtouch-9-taps-1f.evemu", "ts-ep0430m09-pan-down-2f.evemu"])
    func evemuAndYAMLAgree(_ fixture: String) throws {
        let reader = try TraceReader(path: Fixtures.path(fixture))
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: InputDeviceID(0)) { events.append($0) }
        let description = try #require(reader.devices.first?.description)
        let yaml = try TempFile(TraceWriter.libinputRecord(devices: [(description, events)]), name: "trace.yml")
        defer { yaml.remove() }
        let fromEvemu = try Replayed(fixture)
        let fromYAML = try Replayed(path: yaml.path)
        #expect(try TraceReader(path: yaml.path).format == .libinputRecord)
        #expect(fromEvemu.jsonLines == fromYAML.jsonLines)
    }
}
