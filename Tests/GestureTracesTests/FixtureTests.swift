import Foundation
import GestureKit
import Testing
import GestureTraces
import GestureTestSupport

@Suite("Real recordings in Fixtures/")
struct FixtureTests {
    @Test("there are fixtures to test")
    func fixturesExist() {
        #expect(Fixtures.all.count >= 19, "expected the 19 recordings listed in Fixtures/SOURCES.md, found \(Fixtures.all.count) in \(Fixtures.directory.path)")
    }

    @Test("every touch fixture decodes with a sensible duration, kind and touch lifecycle", arguments: Fixtures.touch)
    func decodes(_ name: String) throws {
        let reader = try TraceReader(path: Fixtures.path(name))
        let expectedFormat: TraceFormat = name.hasSuffix(".evemu") ? .evemu : .debugEvents
        #expect(reader.format == expectedFormat, "\(name) should be detected as \(expectedFormat) from its content")
        let decoded = try Decoded(reader, touchpads: .contacts)
        let touchDevices = decoded.devices.filter { $0.kind != nil }
        #expect(touchDevices.count == 1, "\(name) should have exactly one touch device")
        let expectedKind: InputDeviceKind = name.hasPrefix("ts-") || name.hasPrefix("synthetic-ts-") ? .touchscreen : .touchpad
        #expect(touchDevices.first?.kind == expectedKind, "\(name) is a \(expectedKind), classified as \(String(describing: touchDevices.first?.kind))")
        #expect(!decoded.frames.isEmpty, "\(name) should produce touch frames")
        #expect(decoded.frames.first.map { $0.time.seconds >= 0 && $0.time.seconds < 0.001 } == true, "\(name): the first frame should be at time ~0 (times count from the first event)")
        let duration = decoded.frames.last?.time.seconds ?? 0
        #expect(duration > 0.01 && duration < 20, "\(name) lasts \(duration) s; expected between 0.01 s and 20 s")
        #expect(zip(decoded.frames, decoded.frames.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(name): frames should come in time order")
        let problems = decoded.lifecycleProblems()
        #expect(problems.isEmpty, "\(name): every touch should begin once, move/end only while down, and be lifted by the end: \(problems.prefix(5))")
        for frame in decoded.frames {
            #expect(!frame.changes.isEmpty, "\(name): frames without changes should not be delivered")
            for change in frame.changes where change.phase == .moved {
                _ = change
            }
        }
        // All positions land on the screen (1000×1000 points).
        let offScreen = decoded.changes.filter { !($0.location.x >= 0 && $0.location.x <= 1000 && $0.location.y >= 0 && $0.location.y <= 1000) }
        #expect(offScreen.isEmpty, "\(name): touches should map inside the 1000×1000 screen, \(offScreen.count) did not")
    }

    @Test("a mouse's recording decodes, with no touch device and no touch frames: a mouse has no contacts",
          arguments: Fixtures.mice)
    func miceHaveNoContacts(_ name: String) throws {
        let decoded = try Decoded(path: Fixtures.path(name))
        #expect(decoded.devices.allSatisfy { $0.kind == nil }, "\(name) is a mouse, yet a device of it was taken for a touch device")
        #expect(decoded.frames.isEmpty, "\(name) is a mouse, yet it produced \(decoded.frames.count) touch frames")
    }

    @Test("moved is only emitted when the position changed", arguments: Fixtures.all)
    func movedMeansMoved(_ name: String) throws {
        let decoded = try Decoded(path: Fixtures.path(name))
        var last: [Int: Point] = [:]
        for frame in decoded.frames {
            for c in frame.changes {
                if c.phase == .moved {
                    #expect(last[c.sourceID] != c.location, "\(name) at \(frame.time): touch \(c.sourceID) reported moved without moving")
                }
                last[c.sourceID] = c.location
            }
        }
    }

    @Test("Wacom double tap: 2 touches about 140 ms apart")
    func wacomDoubleTap() throws {
        let d = try Decoded(path: Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu"))
        #expect(d.began.count == 2, "a double tap is two touches, got \(d.began.count)")
        let ends = d.frames.filter { $0.changes.contains { $0.phase == .ended } }.map(\.time.seconds)
        let begins = d.beganTimes
        if begins.count == 2, ends.count == 2 {
            let gap = begins[1] - ends[0]
            #expect(abs(gap - 0.140) < 0.005, "the pause between the taps should be ~140 ms, was \(gap * 1000) ms")
            #expect(abs((ends[0] - begins[0]) - 0.032) < 0.002, "the first tap should last ~32 ms")
        }
        // Single-touch-sized slots: tracking ids are the source ids.
        #expect(d.began.map(\.sourceID) == [1, 2], "the touches should carry their tracking ids 1 and 2")
    }

    @Test("Wacom 1- and 2-finger taps")
    func wacomTaps() throws {
        let one = try Decoded(path: Fixtures.path("ts-wacom-isdv4-e6-tap-1f.evemu"))
        #expect(one.began.count == 1, "a one-finger tap is one touch")
        let two = try Decoded(path: Fixtures.path("ts-wacom-isdv4-e6-tap-2f.evemu"))
        #expect(two.began.count == 2 && two.maxSimultaneous == 2, "a two-finger tap is two touches down together")
    }

    @Test("Atmel: 9 fast taps are 9 touches, never two at once")
    func atmelNineTaps() throws {
        let d = try Decoded(path: Fixtures.path("ts-atmel-maxtouch-9-taps-1f.evemu"))
        #expect(d.began.count == 9, "nine taps should be nine touches, got \(d.began.count)")
        #expect(d.maxSimultaneous == 1, "the taps are one finger at a time")
        let xs = d.began.map(\.location.x), ys = d.began.map(\.location.y)
        let spread = max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        // ~35 px on an 800 px wide screen = ~44 points of 1000.
        #expect(spread < 80, "all taps land within ~35 px of each other; spread was \(spread) points")
    }

    @Test("Atmel 4-finger drag: 4 touches move down together")
    func atmelDrag() throws {
        let d = try Decoded(path: Fixtures.path("ts-atmel-maxtouch-drag-down-4f.evemu"))
        #expect(d.began.count == 4 && d.maxSimultaneous == 4, "a 4-finger drag is 4 touches down together")
        var first: [Int: Point] = [:], last: [Int: Point] = [:]
        for c in d.changes { if first[c.sourceID] == nil { first[c.sourceID] = c.location }; last[c.sourceID] = c.location }
        for (id, p) in first {
            let dy = (last[id]?.y ?? p.y) - p.y
            #expect(dy > 200, "finger \(id) should move down by ~180 px of 480 (~375 points), moved \(dy)")
        }
    }

    @Test("Cypress semi-MT: 3-finger tap is 3 contacts (BTN_TOOL_TRIPLETAP), 2-finger tap is 2")
    func cypress() throws {
        let three = try Decoded(path: Fixtures.path("tp-cypress-semimt-tap-3f.evemu"))
        #expect(three.began.count == 3 && three.maxSimultaneous == 3, "3-finger tap: 2 slots + 1 synthesized contact, got \(three.began.count)")
        #expect(three.began.filter { $0.sourceID >= MultitouchDecoder.syntheticIDBase }.count == 1, "exactly one contact is synthesized for the third finger")
        let two = try Decoded(path: Fixtures.path("tp-cypress-semimt-tap-2f.evemu"))
        #expect(two.began.count == 2 && two.maxSimultaneous == 2, "2-finger tap is 2 contacts, got \(two.began.count)")
        #expect(two.devices.first?.isSemiMT == true, "the Cypress pad is semi-MT")
        let size = two.devices.first?.physicalSize
        #expect(size.map { abs($0.width - 100) < 0.5 && abs($0.height - 60) < 0.5 } == true, "1600/16 × 900/15 = 100×60 mm, got \(String(describing: size))")
    }

    @Test("ALPS semi-MT: 2-finger tap is 2 contacts; 1-finger taps are 1 and 2 touches")
    func alps() throws {
        let two = try Decoded(path: Fixtures.path("tp-alps-glidepoint-tap-2f.evemu"))
        #expect(two.began.count == 2 && two.maxSimultaneous == 2, "2-finger tap is 2 contacts, got \(two.began.count)")
        let one = try Decoded(path: Fixtures.path("tp-alps-glidepoint-tap-1f.evemu"))
        #expect(one.began.count == 1, "1-finger tap is 1 touch")
        let double = try Decoded(path: Fixtures.path("tp-alps-glidepoint-double-tap-1f.evemu"))
        #expect(double.began.count == 2 && double.maxSimultaneous == 1, "double tap is 2 touches one after the other")
        #expect(one.devices.first?.physicalSize == nil, "the ALPS axes have no resolution, so no size in mm")
    }

    @Test("Dell Canvas: 5 simultaneous touches, 595×334 mm, 4 sequences")
    func dell() throws {
        let d = try Decoded(path: Fixtures.path("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu"))
        #expect(d.maxSimultaneous == 5, "the pinch uses 5 fingers at once, max was \(d.maxSimultaneous)")
        #expect(d.began.count == 2 + 4 + 5 + 1, "2 + 4 + 5 + 1 fingers, got \(d.began.count)")
        let size = d.devices.first?.physicalSize
        #expect(size.map { abs($0.width - 595) < 1 && abs($0.height - 334) < 1 } == true, "the Dell Canvas is ≈595×334 mm, got \(String(describing: size))")
        #expect(d.devices.first?.slotCount == 5, "the Dell Canvas has 5 slots")
    }

    @Test("Pixel Tablet swipe: one touch travelling far")
    func pixel() throws {
        let d = try Decoded(path: Fixtures.path("ts-pixel-tablet-nvt-swipe-1f.evemu"))
        #expect(d.began.count == 1, "one finger")
        let points = d.changes.map(\.location)
        if let a = points.first, let b = points.last {
            #expect(a.distance(to: b) > 200, "a fling travels far, went \(a.distance(to: b)) points")
        }
        #expect(d.devices.first?.physicalSize != nil, "11 units/mm gives a size in mm")
    }

    @Test("EP0430M09 2-finger pan")
    func ep0430() throws {
        let d = try Decoded(path: Fixtures.path("ts-ep0430m09-pan-down-2f.evemu"))
        #expect(d.maxSimultaneous == 2, "two fingers pan together")
    }

    @Test("debug-events Surface 3-finger tap is 3 touches; pinch-in has a stray tap")
    func surface() throws {
        let tap = try Decoded(path: Fixtures.path("ts-surface-pro3-tap-3f.debug-events.txt"))
        #expect(tap.began.count == 3 && tap.maxSimultaneous == 3, "3-finger tap is 3 touches down together, got \(tap.began.count)")
        #expect(tap.frames.last.map { abs($0.time.seconds - 0.108) < 0.0005 } == true, "the last finger lifts at +0.108 s (no TOUCH_FRAME after it)")
        // 58.64 % of 1000 points.
        #expect(tap.began.first.map { abs($0.location.x - 586.4) < 0.01 && abs($0.location.y - 440.4) < 0.01 } == true, "percent maps onto the screen")
        let size = tap.devices.first?.physicalSize
        #expect(size.map { abs($0.width - 253) < 1.5 && abs($0.height - 167) < 1.5 } == true, "the Surface Pro 3 is ≈253×167 mm, got \(String(describing: size))")
        let pinch = try Decoded(path: Fixtures.path("ts-surface-pro3-pinch-in-3f.debug-events.txt"))
        #expect(pinch.began.count == 4, "3 pinching fingers plus one stray tap")
        #expect(pinch.maxSimultaneous == 3, "the pinch has 3 fingers down together")
        let hold = try Decoded(path: Fixtures.path("ts-surface-pro3-hold-1f.debug-events.txt"))
        #expect(hold.began.count == 1 && abs((hold.frames.last?.time.seconds ?? 0) - 2.9) < 0.05, "a 2.9 s one-finger hold")
    }

    @Test("TraceSummary of the Dell Canvas")
    func summary() throws {
        let s = try TraceSummary(path: Fixtures.path("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu"))
        let d = try #require(s.devices.first)
        #expect(d.evdevEventCount == 5363, "SOURCES.md counts 5363 evdev events, got \(d.evdevEventCount)")
        #expect(d.maxSimultaneousTouches == 5 && d.touchCount == 12, "5 at once, 12 touches in all")
        #expect(abs(s.duration - 13.9) < 0.1, "about 13.9 s long, got \(s.duration)")
        #expect(d.eventCountsByType.values.reduce(0, +) == d.evdevEventCount, "per-type counts add up")
        #expect(d.synReportCount == d.eventCountsByType[.syn], "every EV_SYN here is a SYN_REPORT")
        #expect(d.axes.contains { $0.code == .absMTPositionX && $0.maximum == 32767 && $0.resolution == 55 }, "axes list ABS_MT_POSITION_X 0..32767 at 55/mm")
        #expect(d.droppedCount == 0 && d.kind == .touchscreen)
        #expect(s.description.contains("595.7"), "the summary text shows the size in mm: \(s.description)")
    }

    @Test("TraceSummary of every touch fixture", arguments: Fixtures.touch)
    func summaries(_ name: String) throws {
        let s = try TraceSummary(path: Fixtures.path(name))
        #expect(s.duration > 0, "\(name) has a duration")
        #expect(s.devices.contains { $0.touchCount > 0 }, "\(name) has touches")
    }
}
