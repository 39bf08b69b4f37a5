import Foundation
import GestureKit
import Testing
import GestureReplay
import GestureTestSupport

/// The mice of Fixtures/ replayed with the built-in decoder: clicks are indirectPointer
/// touches, a wheel drives the pans that allow it, hover follows the pointer.
@Suite("Replaying the mice")
struct PointerReplayTests {
    /// Counts of raw evdev events in a fixture, read straight from its `E:` lines (the
    /// independent measure the replay is checked against).
    static func evdevCount(_ fixture: String, type: Int, code: Int, value: ((Int) -> Bool)? = nil) throws -> Int {
        let text = try String(contentsOfFile: Fixtures.path(fixture), encoding: .utf8)
        var n = 0
        for line in text.split(separator: "\n") where line.hasPrefix("E:") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard f.count >= 5, Int(f[2], radix: 16) == type, Int(f[3], radix: 16) == code, let v = Int(f[4]) else { continue }
            if value?(v) ?? true { n += 1 }
        }
        return n
    }

    static let clickScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "tap", "kind": "tap", "view": "root", "maximumTapDuration": 10, "allowableMovement": 1000},
        {"id": "directTap", "kind": "tap", "view": "root", "allowedTouchTypes": ["direct"], "maximumTapDuration": 10,
         "allowableMovement": 1000} ],
      "simultaneous": [["tap", "directTap"]] }
    """

    @Test("every click of a mouse recording is one indirectPointer touch (left, right or middle), the default tap taps the left ones, and a tap limited to direct touches never sees one",
          arguments: Fixtures.mice)
    func clicksAreTouches(_ fixture: String) throws {
        let presses = try Self.evdevCount(fixture, type: 1, code: 0x110) { $0 == 1 }
        let others = try Self.evdevCount(fixture, type: 1, code: 0x111) { $0 == 1 } + Self.evdevCount(fixture, type: 1, code: 0x112) { $0 == 1 }
        let r = try Replayed(fixture, scene: scene(Self.clickScene))
        let began = r.records.filter { if case let .touches(_, view, phase, _, _) = $0 { view == "root" && phase == .began } else { false } }
        #expect(began.count == presses + others, "\(fixture) has \(presses) left and \(others) other presses, the view saw \(began.count) touches begin")
        #expect(r.count("tap", .ended) == presses, "a tap that allows any movement and duration taps once per click: \(presses) clicks, \(r.count("tap", .ended)) taps")
        #expect(r.states.filter { $0.recognizer == "directTap" }.isEmpty, "\(fixture): a tap limited to direct touches must never hear of a click")
    }

    @Test("the synthetic double click double-taps, and the single tap waiting on it fails")
    func doubleClick() throws {
        let r = try Replayed("synthetic-mouse-saitek-double-click.evemu")
        #expect(r.count("double", .ended) == 1, "two clicks 120 ms apart are a double tap")
        #expect(r.count("single", .ended) == 0 && r.count("single", .failed) == 1, "the single tap fails when the double tap recognizes")
    }

    static let wheelScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "side", "frame": [900, 0, 100, 1000], "parent": "root"} ],
      "recognizers": [
        {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []},
        {"id": "touchpadPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"]},
        {"id": "plainPan", "kind": "pan", "view": "root"} ],
      "simultaneous": [["wheelPan", "touchpadPan"], ["wheelPan", "plainPan"]] }
    """

    @Test("the synthetic wheel: 4 detents forward then 2 back are two scrolls of +60 and −30 pt; pans that do not allow the wheel are left alone")
    func wheel() throws {
        let r = try Replayed("synthetic-mouse-saitek-wheel.evemu", scene: scene(Self.wheelScene))
        let ended = r.states.filter { $0.recognizer == "wheelPan" && $0.to == .ended }
        #expect(ended.map { $0.values.translation?.y } == [60, -30], "the wheel's two turns scroll +60 pt and −30 pt (15 pt a detent), got \(ended.map { $0.values.translation?.y })")
        #expect(r.count("wheelPan", .began) == 2, "each turn after a pause is a scroll of its own")
        let pause = GestureDefaults.wheelScrollEndPause.inSeconds
        let firstEnd = try #require(ended.first).time.seconds
        let lastDetent = try #require(r.times("wheelPan", .changed).filter { $0 < firstEnd }.max())
        #expect(abs(firstEnd - lastDetent - pause) < 1e-6, "the scroll ends \(pause) s after its last detent: detent at \(lastDetent) s, ended at \(firstEnd) s")
        #expect(r.states.filter { $0.recognizer == "touchpadPan" || $0.recognizer == "plainPan" }.isEmpty,
                "a pan allowing only touchpad scrolls, and one allowing none, must not hear of the wheel")
    }

    @Test("the Logitech wheel's detents all reach the pan: its translations add up to the recording's REL_WHEEL sum")
    func realWheel() throws {
        let fixture = "mouse-logitech-ultrathin-wheel.evemu"
        let text = try String(contentsOfFile: Fixtures.path(fixture), encoding: .utf8)
        var sum = 0
        for line in text.split(separator: "\n") where line.hasPrefix("E:") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if f.count >= 5, f[2] == "0002", f[3] == "0008", let v = Int(f[4]) { sum += v }
        }
        let r = try Replayed(fixture, scene: scene(Self.wheelScene))
        let total = r.states.filter { $0.recognizer == "wheelPan" && $0.to == .ended }.compactMap { $0.values.translation?.y }.reduce(0, +)
        #expect(r.count("wheelPan", .began) > 0, "the wheel scrolls")
        #expect(total == Double(sum) * GestureDefaults.wheelPointsPerDetent,
                "the scrolls add up to the wheel's \(sum) detents × 15 pt = \(Double(sum) * 15) pt, got \(total)")
    }

    @Test("hover begins when the pointer enters the cell, changes inside it, ends when it leaves")
    func hoverCrossesView() throws {
        let json = """
        { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "cell", "frame": [480, 0, 100, 1000], "parent": "root"} ],
          "recognizers": [ {"id": "hover", "kind": "hover", "view": "cell"} ] }
        """
        let r = try Replayed("mouse-logitech-ultrathin-wheel.evemu", scene: scene(json))
        let hover = r.states.filter { $0.recognizer == "hover" }
        #expect(r.count("hover", .began) >= 1, "the pointer crosses the cell at least once")
        #expect(r.count("hover", .ended) + r.count("hover", .cancelled) == r.count("hover", .began), "every hover that began ends")
        // Every began/changed is inside the cell, every ended outside it (cell coordinates).
        for s in hover where s.to == .began || s.to == .changed {
            #expect(s.location.x >= 0 && s.location.x <= 100, "hover \(s.to) at \(s.location): inside the cell")
        }
        for s in hover where s.to == .ended {
            #expect(s.location.x < 0 || s.location.x > 100 || s.reason == "a button was pressed", "hover ended at \(s.location): outside the cell, or pressed")
        }
    }

    @Test("the Saitek's right click is a touch with the secondary button: a menu tap that requires it recognizes it, and its touches lines say so")
    func rightClick() throws {
        let json = """
        { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
          "recognizers": [ {"id": "menu", "kind": "tap", "view": "root", "buttonMaskRequired": ["secondary"], "maximumTapDuration": 10,
                            "allowableMovement": 1000},
                           {"id": "tap", "kind": "tap", "view": "root", "maximumTapDuration": 10, "allowableMovement": 1000} ],
          "simultaneous": [["menu", "tap"]] }
        """
        let fixture = "mouse-saitek-rat5-move-click.evemu"
        let rights = try Self.evdevCount(fixture, type: 1, code: 0x111) { $0 == 1 }
        let lefts = try Self.evdevCount(fixture, type: 1, code: 0x110) { $0 == 1 }
        let r = try Replayed(fixture, scene: scene(json))
        #expect(rights == 1 && r.count("menu", .ended) == rights, "one right click, one menu tap: \(r.states.map { "\($0.recognizer) \($0.to)" })")
        #expect(r.count("tap", .ended) == lefts, "the left clicks tap the default tap")
        let lines = r.jsonLines.filter { $0.contains("\"type\":\"touches\"") }
        #expect(lines.filter { $0.contains("\"buttons\":[\"secondary\"]") }.count >= 2,
                "the right click's began and ended lines carry its button: \(lines)")
        #expect(!lines.contains { $0.contains("\"buttons\":[\"primary\"]") }, "a primary click's lines carry no buttons")
    }
}
