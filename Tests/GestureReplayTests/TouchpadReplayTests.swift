import Foundation
import GestureKit
import Testing
import GestureReplay
import GestureTestSupport

/// The touchpads of Fixtures/ read by the built-in decoder the way libinput reads them: one
/// finger moves the pointer, the button clicks, two fingers scroll or pinch at the pointer.
@Suite("Replaying the touchpads")
struct TouchpadReplayTests {
    static let scrollScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "scrollPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"], "allowedTouchTypes": []},
        {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []} ],
      "simultaneous": [["scrollPan", "wheelPan"]] }
    """

    @Test("the synthetic two-finger scroll down scrolls a pan allowing touchpad scrolls by +300 pt (30 mm × 10 pt/mm, down), and leaves a wheel-only pan alone")
    func scrollDown() throws {
        let r = try Replayed("synthetic-tp-elantech-scroll-down-2f.evemu", scene: scene(Self.scrollScene))
        #expect(r.count("scrollPan", .began) == 1 && r.count("scrollPan", .ended) == 1, "one scroll, begun and stopped")
        let end = try #require(r.last("scrollPan", .ended))
        let y = end.values.translation?.y ?? 0
        #expect(abs(y - 300) < 2, "30 mm of finger travel down scrolls the content +300 pt (dragging it down), got \(y)")
        #expect(r.states.filter { $0.recognizer == "wheelPan" }.isEmpty, "a pan allowing only the wheel must not hear of a touchpad scroll")
    }

    @Test("the Synaptics and Wacom two-finger scrolls (real) scroll, in the direction the fingers moved",
          arguments: ["tp-synaptics-scroll-vertical-2f.evemu", "tp-wacom-intuos5-scroll-2f.evemu"])
    func realScroll(_ fixture: String) throws {
        let r = try Replayed(fixture, scene: scene(Self.scrollScene))
        #expect(r.count("scrollPan", .began) >= 1, "the recording's two-finger scroll scrolls")
        // The fingers' direction, from the raw ABS_Y of the recording: the first and last values.
        let text = try String(contentsOfFile: Fixtures.path(fixture), encoding: .utf8)
        let ys = text.split(separator: "\n").filter { $0.hasPrefix("E:") }.compactMap { line -> Int? in
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return f.count >= 5 && f[2] == "0003" && f[3] == "0001" ? Int(f[4]) : nil
        }
        let fingersDown = try #require(ys.last) > (try #require(ys.first))
        let total = r.states.filter { $0.recognizer == "scrollPan" && $0.to == .ended }.compactMap { $0.values.translation?.y }.reduce(0, +)
        #expect((total > 0) == fingersDown, "fingers moving \(fingersDown ? "down" : "up") scroll \(fingersDown ? "+" : "−"), got \(total) pt")
    }

    @Test("the synthetic click is a click at the pointer: a tap that takes only indirectPointer touches taps once")
    func click() throws {
        let json = """
        { "recognizers": [ {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]},
                           {"id": "contact", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirect"]} ],
          "simultaneous": [["click", "contact"]] }
        """
        let r = try Replayed("synthetic-tp-elantech-click-1f.evemu", scene: scene(json))
        #expect(r.count("click", .ended) == 1, "the pad's click taps the click tap once")
        let tap = try #require(r.last("click", .ended))
        #expect(tap.location.distance(to: Point(x: 500, y: 500)) < 2, "the click is at the pointer, which the resting finger moved less than 2 pt from the centre: \(tap.location)")
    }

    @Test("a touchpad pinch lands on the view under the pointer: one finger moves the pointer right, then the pinch is on the right view")
    func pinchAtPointer() throws {
        let json = """
        { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "left", "frame": [0, 0, 600, 1000], "parent": "root"},
                     {"id": "right", "frame": [600, 0, 400, 1000], "parent": "root"} ],
          "recognizers": [ {"id": "leftPinch", "kind": "pinch", "view": "left"}, {"id": "rightPinch", "kind": "pinch", "view": "right"} ] }
        """
        let r = try Replayed("synthetic-tp-elantech-move-then-pinch-2f.evemu", scene: scene(json))
        #expect(r.count("rightPinch", .began) == 1, "the pinch is on the view the pointer moved over")
        #expect(r.count("leftPinch", .began) == 0, "the view where the fingers are on the pad (mapped as a touchscreen) must not pinch")
    }

    @Test("the synthetic pinch-out (20 → 40 mm) begins within 2 mm of finger travel and ends above 1.6, the scale libinput reports (1.70)")
    func pinchKeepsScale() throws {
        let r = try Replayed("synthetic-tp-elantech-pinch-out-2f.evemu")
        let end = try #require(r.last("pinch", .ended))
        let scale = try #require(end.values.scale)
        #expect(scale > 1.6 && scale < 1.8, "a pinch that begins early keeps the scale: libinput gives 1.70, got \(scale)")
        let began = try #require(r.last("pinch", .began)).time.seconds
        #expect(began < 0.2, "the pinch begins in the first 0.2 s (libinput: 0.15 s), got \(began) s")
    }

    @Test("the synthetic rotation turns a rotation recognizer clockwise by about 90°, at the pointer")
    func rotation() throws {
        let json = """
        { "recognizers": [ {"id": "rotate", "kind": "rotation", "view": "root"} ] }
        """
        let r = try Replayed("synthetic-tp-elantech-rotate-cw-2f.evemu", scene: scene(json))
        let end = try #require(r.last("rotate", .ended))
        let radians = try #require(end.values.rotation)
        #expect(radians > 1.2 && radians < 1.6, "two fingers turned 90° clockwise (1.57 rad, less what turned before the decision), got \(radians) rad")
    }

    @Test("a finger resting on the touchpad for 0.6 s begins no long press: a resting finger is no press, as on an iPad's trackpad (the pad's hold is still there)")
    func restingFingerIsNoLongPress() throws {
        let json = """
        { "recognizers": [ {"id": "press", "kind": "longPress", "view": "root"},
                           {"id": "press3", "kind": "longPress", "view": "root", "touches": 3} ],
          "simultaneous": [["press", "press3"]] }
        """
        for fixture in ["synthetic-tp-elantech-hold-then-jitter-1f.evemu", "synthetic-tp-elantech-hold-line-3f.evemu"] {
            let r = try Replayed(fixture, scene: scene(json))
            #expect(r.states.isEmpty, "\(fixture): no long press hears of the hold: \(r.states.map { "\($0.recognizer) \($0.to)" })")
        }
    }

    static let tapScene = """
    { "input": {"touchpadTapping": TAPPING},
      "recognizers": [ {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]},
                       {"id": "double", "kind": "tap", "view": "root", "taps": 2, "allowedTouchTypes": ["indirectPointer"]},
                       {"id": "menu", "kind": "tap", "view": "root", "buttonMaskRequired": ["secondary"]} ],
      "simultaneous": [["click", "double"], ["click", "menu"], ["double", "menu"]] }
    """

    @Test("a scene that turns touchpad tapping on (input.touchpadTapping) makes the double tap a double click and the two-finger tap a right click; turned off, or left out on this pad with a left button (libinput's default), neither clicks")
    func tappingInTheScene() throws {
        for tapping in ["true", "false"] {
            let on = tapping == "true"
            let json = Self.tapScene.replacingOccurrences(of: "TAPPING", with: tapping)
            let double = try Replayed("synthetic-tp-elantech-double-tap-1f.evemu", scene: scene(json))
            #expect(double.count("double", .ended) == (on ? 1 : 0) && double.count("click", .ended) == (on ? 2 : 0),
                    "tapping \(tapping): \(double.states.map { "\($0.recognizer) \($0.to)" })")
            let right = try Replayed("synthetic-tp-elantech-tap-2f.evemu", scene: scene(json))
            #expect(right.count("menu", .ended) == (on ? 1 : 0) && right.count("click", .ended) == 0,
                    "tapping \(tapping), two fingers: \(right.states.map { "\($0.recognizer) \($0.to)" })")
        }
        let json = Self.tapScene.replacingOccurrences(of: #""input": {"touchpadTapping": TAPPING},"#, with: "")
        let left = try Replayed("synthetic-tp-elantech-double-tap-1f.evemu", scene: scene(json))
        #expect(left.states.isEmpty, "libinput's default on a pad with a left button is off: \(left.states.map { "\($0.recognizer) \($0.to)" })")
    }

    @Test("replay --tap and --no-tap turn tapping on and off over the scene's setting")
    func tappingOnTheCommandLine() throws {
        let fixture = Fixtures.path("synthetic-tp-elantech-tap-1f.evemu")
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-tap-scene.json"
        try Self.tapScene.replacingOccurrences(of: "TAPPING", with: "false").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        func clicks(_ options: [String]) throws -> Int {
            let run = try runTool(["replay", fixture, "--scene", path, "--json"] + options)
            #expect(run.status == 0, "\(run.err)")
            return JSONLine.parse(run.out).filter { $0.recognizer == "click" && $0.to == "ended" }.count
        }
        #expect(try clicks([]) == 0, "the scene turns tapping off")
        #expect(try clicks(["--tap"]) == 1, "--tap turns it on: the tap clicks")
        #expect(try clicks(["--no-tap"]) == 0, "--no-tap: off")
    }

    @Test("replay --touchpad-gestures prints what the pad decided before any recognizer: the pinch's gesture lines began, changed, ended, of two fingers, at the pointer, with its scale; without the flag none")
    func touchpadGestureLines() throws {
        let fixture = Fixtures.path("synthetic-tp-elantech-pinch-out-lift-apart-2f.evemu")
        let run = try runTool(["replay", fixture, "--touchpad-gestures", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let lines = JSONLine.parse(run.out).filter { $0.type == "gesture" }
        let pinch = lines.filter { $0.object["kind"] as? String == "pinch" }
        #expect(pinch.first?.phase == "began" && pinch.last?.phase == "ended" && pinch.dropFirst().dropLast().allSatisfy { $0.phase == "changed" },
                "began, changed…, ended: \(pinch.map(\.phase))")
        #expect(pinch.allSatisfy { ($0.object["fingers"] as? NSNumber)?.intValue == 2 }, "two fingers")
        #expect((pinch.last?.scale ?? 0) > 1.6, "the spread's scale: \(pinch.last?.scale ?? 0)")
        #expect(pinch.allSatisfy { ($0.object["location"] as? [NSNumber])?.map(\.doubleValue) == [500, 500] }, "at the pointer")
        let scroll = lines.filter { $0.object["kind"] as? String == "scroll" }
        #expect(scroll.first?.phase == "began" && scroll.last?.phase == "ended", "the scroll that came first (libinput's guess, corrected to a pinch) begins and ends: \(scroll.map(\.phase))")
        #expect(scroll.allSatisfy { ($0.object["delta"] is [NSNumber]) == ($0.phase != "ended") }, "a scroll's steps have their delta, its end none")
        if let first = lines.first, let began = JSONLine.parse(run.out).first(where: { $0.recognizer == "pinch" && $0.to == "began" }) {
            #expect(first.time <= began.time, "the pad decides before the recognizer sees it")
        }
        let plain = try runTool(["replay", fixture, "--json"])
        #expect(!JSONLine.parse(plain.out).contains { $0.type == "gesture" }, "no gesture line without --touchpad-gestures")
    }
}
