import Foundation
import GestureKit
import GestureTraces
import Testing
import GestureTestSupport

/// The same mouse and touchpad recordings read by real libinput (under umockdev) and by the
/// built-in decoder: the same recognitions, the figures within the tolerances measured.
///
/// Serialized: one replay at a time. libinput's timers run on the replay's real clock, and a
/// frame read late lets one fire first: the move-then-pinch recording's finger passes
/// libinput's 0.5 mm hold-and-motion threshold at 37.5 ms, 2.5 ms before its 40 ms hold timer,
/// so a frame read 2.6 ms late began a one-finger hold (1 replay in 40 beside three busy
/// loops). The timing log (`MockDeviceTiming`) notes a frame read 2 ms late or more, and such
/// a reading is compared without the holds begun and cancelled at once
/// (`Decisions.withoutBriefHolds`).
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct PointerAgreementTests {
    typealias Line = LibinputRecognitionTests.Line

    static let scene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "right", "frame": [700, 0, 300, 1000], "parent": "root"} ],
      "recognizers": [
        {"id": "scrollPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"], "allowedTouchTypes": []},
        {"id": "wheelPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []},
        {"id": "pinch", "kind": "pinch", "view": "root"}, {"id": "rotate", "kind": "rotation", "view": "root"},
        {"id": "rightPinch", "kind": "pinch", "view": "right"},
        {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"], "maximumTapDuration": 10,
         "allowableMovement": 1000},
        {"id": "double", "kind": "tap", "view": "root", "taps": 2, "allowedTouchTypes": ["indirectPointer"]},
        {"id": "menu", "kind": "tap", "view": "root", "buttonMaskRequired": ["secondary"], "maximumTapDuration": 10,
         "allowableMovement": 1000} ],
      "simultaneous": [["pinch", "rotate"], ["scrollPan", "wheelPan"], ["click", "double"], ["rightPinch", "rotate"],
        ["click", "menu"], ["double", "menu"]] }
    """

    /// What one backend made of a recording: the recognitions, and the last value of each.
    struct Reading: CustomStringConvertible {
        let lines: [Line]
        var recognized: [String] { LibinputRecognitionTests.recognized(lines) }
        func count(_ recognizer: String, _ to: String) -> Int { lines.filter { $0.recognizer == recognizer && $0.to == to }.count }
        func ended(_ recognizer: String) -> [[String: Any]] {
            lines.filter { $0.recognizer == recognizer && $0.to == "ended" }.map(\.object)
        }
        func total(_ recognizer: String, _ key: String, _ index: Int) -> Double {
            ended(recognizer).compactMap { ($0[key] as? [NSNumber])?[index].doubleValue }.reduce(0, +)
        }
        func last(_ recognizer: String, _ key: String) -> Double? {
            (ended(recognizer).last?[key] as? NSNumber)?.doubleValue
        }
        var description: String { recognized.joined(separator: ", ") }
    }

    /// `gesturekit replay --json` of the recording at `trace` through `sceneJSON`, with `backend`.
    static func replay(_ trace: String, scene sceneJSON: String, backend: String, options: [String] = []) throws -> [Line] {
        try timedReplay(trace, scene: sceneJSON, backend: backend, options: options).lines
    }

    /// `replay`, with how far the input was off the recording's timing (`MockDeviceTiming`).
    static func timedReplay(_ trace: String, scene sceneJSON: String, backend: String, options: [String] = []) throws -> (lines: [Line], offBy: Double) {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-scene.json"
        try sceneJSON.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try LibinputRecognitionTests.gesturekit(["replay", trace, "--scene", path, "--json", "--backend", backend] + options)
        #expect(run.status == 0, "\(trace) through \(backend): \(run.err)")
        return (LibinputRecognitionTests.parse(run.out), run.offBy)
    }

    static func read(_ fixture: String, backend: String) throws -> Reading {
        Reading(lines: try replay(Fixtures.path(fixture), scene: scene, backend: backend))
    }

    /// Every kind of recognizer on one view, all simultaneous with the hover, for the
    /// recognitions of every touchpad recording.
    static let everyKindScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]} ],
      "recognizers": [
        {"id": "tap", "kind": "tap", "view": "root"}, {"id": "double", "kind": "tap", "view": "root", "taps": 2},
        {"id": "press", "kind": "longPress", "view": "root"}, {"id": "pan", "kind": "pan", "view": "root"},
        {"id": "scrollPan", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"], "allowedTouchTypes": []},
        {"id": "pinch", "kind": "pinch", "view": "root"}, {"id": "rotate", "kind": "rotation", "view": "root"},
        {"id": "swipe", "kind": "swipe", "view": "root"}, {"id": "hover", "kind": "hover", "view": "root"} ],
      "simultaneous": [["pinch", "rotate"], ["tap", "double"], ["pan", "pinch"], ["press", "pan"], ["hover", "tap"],
        ["hover", "press"], ["hover", "pan"], ["hover", "scrollPan"], ["hover", "pinch"], ["hover", "rotate"], ["scrollPan", "pan"]] }
    """

    /// A replay's recognitions: every transition but `changed` (how many changes there are
    /// depends on libinput's event rate and acceleration), in order, and which views
    /// received a click's touch began, ended or cancelled.
    static func recognitions(_ lines: [Line]) -> [String] {
        var out: [String] = []
        for line in lines {
            switch line.type {
            case "state" where line.recognizer == "press" && line.to == "failed":
                // A long press failing on a hold shorter than its 0.5 s is left out: libinput's
                // 40 ms hold timer runs on the real clock of the replay, and where the decoder
                // decides a scroll 2.5 ms before it (the flick-then-hold recording, at 37.5 ms)
                // a replay held up by load lets the hold begin first (seen once in two runs on
                // libinput 1.28). A hold long enough to begin the long press is still compared.
                break
            case "state" where line.to != "changed":
                // Began and changed are both under way: whether a change came between depends
                // on the event rate too.
                let from = line.object["from"] as? String ?? ""
                out.append("\(line.recognizer) \(from == "began" || from == "changed" ? "under way" : from)→\(line.to)")
            case "touches" where line.object["phase"] as? String != "moved":
                // A click's touch moves with the pointer, and that is a figure (how far a
                // finger unpinned by 1.5 mm moves it, with or without acceleration). Through
                // the Elantech click both hold the pointer still while the finger wobbles
                // 1–2 device units (libinput's tp_pin_fingers, which the decoder follows).
                out.append("view \(line.object["view"] as? String ?? "") \(line.object["phase"] as? String ?? "")")
            default: break
            }
        }
        return out
    }

    /// What the pad decided (`replay --touchpad-gestures`): each gesture's kind, fingers and
    /// phases in order, with its changes counted as one (how many there are depends on
    /// libinput's event rate), and the gesture's figures summed: scroll and swipe deltas, the
    /// last scale of a pinch.
    struct Decisions: Equatable, CustomStringConvertible {
        var steps: [String] = []
        var figures: [(kind: String, dx: Double, dy: Double, scale: Double)] = []
        /// How far the reading's input was off the recording's timing (seconds), through libinput.
        var offBy = 0.0
        static func == (a: Self, b: Self) -> Bool { a.steps == b.steps }
        var description: String { steps.joined(separator: ", ") }

        /// The steps without the holds that began and were cancelled with nothing between.
        /// libinput's hold timer runs on the clock: a reader that reads a frame late (by
        /// 2.5 ms, where a recording decides that long before the timer; the timing log notes
        /// 2 ms and more, `MockDeviceTiming` reads again from 30 ms) may handle the timer
        /// first and begin a hold that the late frame cancels at once.
        var withoutBriefHolds: [String] {
            var out: [String] = []
            for step in steps {
                if step.hasPrefix("hold "), step.hasSuffix(" cancelled"), let last = out.last,
                   last == step.replacingOccurrences(of: " cancelled", with: " began") {
                    out.removeLast()
                } else {
                    out.append(step)
                }
            }
            return out
        }
    }

    static func decisions(_ lines: [Line]) -> Decisions {
        var d = Decisions()
        for line in lines where line.type == "gesture" {
            let kind = line.object["kind"] as? String ?? "", fingers = (line.object["fingers"] as? NSNumber)?.intValue ?? 0
            let step = "\(kind) \(fingers) \(line.phase)"
            if line.phase != "changed" || d.steps.last != step { d.steps.append(step) }
            if line.phase == "began" { d.figures.append((kind, 0, 0, 1)) }
            guard !d.figures.isEmpty else { continue }
            if let delta = line.object["delta"] as? [NSNumber], delta.count == 2 {
                d.figures[d.figures.count - 1].dx += delta[0].doubleValue
                d.figures[d.figures.count - 1].dy += delta[1].doubleValue
            }
            if let scale = line.scale { d.figures[d.figures.count - 1].scale = scale }
        }
        return d
    }

    /// One replay of a touchpad recording through each backend, with what the pad decided
    /// (`--touchpad-gestures`) and what the recognizers made of it, both compared below.
    static func read(touchpad fixture: String, backend: String, options: [String] = []) throws -> (recognitions: [String], decisions: Decisions) {
        let (lines, offBy) = try timedReplay(Fixtures.path(fixture), scene: everyKindScene, backend: backend,
                                             options: ["--touchpad-gestures"] + options)
        var decided = decisions(lines)
        decided.offBy = offBy
        return (recognitions(lines), decided)
    }

    @Test("every touchpad recording, through libinput and the built-in decoder: the pad decides the same (the same gestures, fingers and phases in order, ended or cancelled alike; a pinch's last scale within 5 %, a scroll's or swipe's distance along its main axis within 40 %: libinput accelerates swipes and starts a scroll with the movement that decided it), and the recognizers make the same of it (every transition but changed, in order, and the views its clicks reach, not how far a click's touch moves); where a later libinput decides differently from 1.22 (ReleaseDifference), exactly that difference",
          arguments: Fixtures.touchpads)
    func sameDecisionsAndRecognitions(_ fixture: String) throws {
        let (libinputRecognitions, libinput) = try Self.read(touchpad: fixture, backend: "libinput")
        let (builtinRecognitions, builtin) = try Self.read(touchpad: fixture, backend: "builtin")
        #expect(!builtinRecognitions.contains { $0.hasPrefix("view ") } || fixture.contains("click"),
                "\(fixture): only a click reaches a view, never the pad's contacts")
        let (difference, why, stepsAgree) = Self.expectAgreement(
            fixture, libinput: (libinputRecognitions, libinput), builtin: (builtinRecognitions, builtin))
        guard stepsAgree else { return }
        // The figures of the gestures both made, paired in order by kind.
        var libinputFigures = libinput.figures
        for b in builtin.figures {
            guard let i = libinputFigures.firstIndex(where: { $0.kind == b.kind }) else { continue }
            let a = libinputFigures.remove(at: i)
            if a.kind == "pinch" {
                #expect(Self.close(a.scale, b.scale, within: 0.05), "\(fixture): pinch scale libinput \(a.scale), built-in \(b.scale)")
            } else if a.kind == "scroll" || a.kind == "swipe" {
                let (la, lb) = abs(a.dx) > abs(a.dy) ? (a.dx, b.dx) : (a.dy, b.dy)
                if let ratio = difference?.distanceRatio {
                    #expect(ratio.contains(la / lb), "\(fixture) (\(Self.release)): \(a.kind) distance libinput \(la) pt, built-in \(lb) pt, \(la / lb) times, expected \(ratio)\(why)")
                } else if abs(la) > 20 || abs(lb) > 20 {
                    #expect(Self.close(la, lb, within: 0.4), "\(fixture) (\(Self.release)): \(a.kind) distance libinput \(la) pt, built-in \(lb) pt")
                }
            }
        }
    }

    /// The running libinput, as the messages name it.
    static var release: String { "libinput \(InstalledLibinput.version?.description ?? "of unknown version")" }

    /// Expects libinput to make of the replay `key` (a recording, and the option it was replayed
    /// with) what the built-in decoder made, with the running release's difference from 1.22
    /// (`ReleaseDifference`) made: the same recognitions and the same gesture steps. Returns the
    /// difference, its explanation for messages, and whether the steps agreed.
    @discardableResult
    static func expectAgreement(_ key: String, libinput: (recognitions: [String], decisions: Decisions),
                                builtin: (recognitions: [String], decisions: Decisions))
        -> (difference: ReleaseDifference?, why: String, stepsAgree: Bool) {
        let difference = ReleaseDifference.expected(for: key)
        let (expectedSteps, expectedRecognitions) = ReleaseDifference.expected(
            difference, builtinSteps: builtin.decisions.steps, builtinRecognitions: builtin.recognitions,
            libinputSteps: libinput.decisions.steps)
        let why = difference.map { "\nexpected on \(release): \($0.note)" } ?? ""
        // A reading whose input never kept the recording's timing (`MockDeviceTiming`: off by
        // 30 ms or more in every reading) is not compared: libinput's timers decided on other
        // timing than the decoder's. It says so.
        guard libinput.decisions.offBy < MockDeviceTiming.tolerance else {
            print("*** \(key): libinput's input was \(Int((libinput.decisions.offBy * 1000).rounded())) ms off the recording's timing in every reading: not compared with the built-in decoder ***")
            return (difference, why, false)
        }
        #expect(libinput.recognitions == expectedRecognitions,
                "\(key) (\(release)):\nlibinput: \(libinput.recognitions.joined(separator: ", "))\nbuilt-in: \(builtin.recognitions.joined(separator: ", "))\(why)")
        // A reading whose input came late is compared without the holds that began and were
        // cancelled at once (`Decisions.withoutBriefHolds`), on both sides; one on time exactly.
        var agree = libinput.decisions.steps == expectedSteps
        if !agree && libinput.decisions.offBy > 0 {
            var expected = Decisions()
            expected.steps = expectedSteps
            agree = libinput.decisions.withoutBriefHolds == expected.withoutBriefHolds
            if agree {
                print("*** \(key): libinput's input was \(Int((libinput.decisions.offBy * 1000).rounded())) ms late; compared without the holds begun and cancelled at once: \(libinput.decisions) ***")
            }
        }
        #expect(agree,
                "\(key) (\(release)):\nlibinput: \(libinput.decisions)\nbuilt-in: \(builtin.decisions)\nfigures libinput \(libinput.decisions.figures), built-in \(builtin.decisions.figures)\(why); libinput's input was \(Int((libinput.decisions.offBy * 1000).rounded())) ms off the recording's timing")
        return (difference, why, agree)
    }

    /// The tap recordings, with tapping turned on (`--tap`) or off (`--no-tap`), and how many
    /// clicks the taps make: the real ALPS taps none (libinput 1.22 makes nothing of them: the
    /// finger slides 2 mm on that pad), the Cypress two- and three-finger taps a right and a
    /// middle click, the synthetic ones what their names say.
    static let taps: [(String, String, Int)] = [
        ("tp-alps-glidepoint-double-tap-1f.evemu", "--tap", 0), ("tp-alps-glidepoint-tap-1f.evemu", "--tap", 0),
        ("tp-cypress-semimt-tap-2f.evemu", "--tap", 1), ("tp-cypress-semimt-tap-3f.evemu", "--tap", 1),
        ("synthetic-tp-elantech-tap-1f.evemu", "--tap", 1), ("synthetic-tp-elantech-tap-2f.evemu", "--tap", 1),
        ("synthetic-tp-elantech-tap-3f.evemu", "--tap", 1), ("synthetic-tp-elantech-double-tap-1f.evemu", "--tap", 2),
        ("synthetic-tp-elantech-tap-drag-1f.evemu", "--tap", 1), ("synthetic-tp-elantech-tap-move-1f.evemu", "--tap", 0),
        ("synthetic-tp-elantech-tap-long-1f.evemu", "--tap", 0), ("tp-wacom-intuos5-scroll-2f.evemu", "--no-tap", 0),
        // Three fingers that may still be a tap hold at the tap timeout, not on their own timer,
        // and decide nothing before it, even where more fingers than slots would swipe at once.
        ("synthetic-tp-elantech-hold-line-3f.evemu", "--tap", 0), ("synthetic-tp-synaptics-swipe-right-3f.evemu", "--tap", 0),
    ]

    /// `GESTUREKIT_TAP_EVERY=1`: every touchpad recording with `--tap` instead (not counting
    /// clicks), 31 recordings, a minute more.
    @Test("tapping turned on or off on the command line (libinput_device_config_tap_set_enabled through libinput, the tap state machine in the built-in decoder): the pad decides the same and the recognizers make the same of it, and each tap is one click at the pointer",
          arguments: ProcessInfo.processInfo.environment["GESTUREKIT_TAP_EVERY"] == "1"
            ? Fixtures.touchpads.map { ($0, "--tap", -1) } : taps)
    func sameTaps(_ fixture: String, _ option: String, _ clicks: Int) throws {
        let (libinputRecognitions, libinput) = try Self.read(touchpad: fixture, backend: "libinput", options: [option])
        let (builtinRecognitions, builtin) = try Self.read(touchpad: fixture, backend: "builtin", options: [option])
        Self.expectAgreement("\(fixture) \(option)", libinput: (libinputRecognitions, libinput),
                             builtin: (builtinRecognitions, builtin))
        #expect(clicks < 0 || builtinRecognitions.filter { $0 == "view root began" }.count == clicks,
                "\(fixture) \(option): \(clicks) click(s) expected: \(builtinRecognitions.joined(separator: ", "))")
    }

    @Test("a touchpad move that pushes the pointer against the screen's right edge leaves it over the view there, through libinput and the built-in decoder: the scroll and pinch after it still land")
    func pointerAtTheEdge() throws {
        // 780 points wide: both backends' pointer would pass x = 780 in the recording's move
        // (libinput's, accelerated, to 1000 × 0.96 on a 1000-point screen), and stops on its last point, 779.
        let scene = Self.everyKindScene.replacingOccurrences(of: #"{"id": "root", "frame": [0, 0, 1000, 1000]}"#,
                                                        with: #"{"id": "root", "frame": [0, 0, 780, 1000]}"#)
            .replacingOccurrences(of: #"{ "views""#, with: #"{ "screen": [780, 1000], "views""#)
        #expect(scene.contains("780, 1000]}") && scene.contains(#""screen": [780, 1000]"#), "the scene is the narrow one")
        for backend in ["libinput", "builtin"] {
            let lines = try Self.replay(Fixtures.path("synthetic-tp-elantech-move-then-pinch-2f.evemu"), scene: scene, backend: backend)
            let hover = lines.filter { $0.recognizer == "hover" }
            #expect(hover.contains { ($0.object["location"] as? [NSNumber])?.first?.doubleValue ?? 0 >= 779 },
                    "\(backend): the pointer reaches the right edge")
            #expect(!hover.contains { $0.to == "ended" }, "\(backend): the hover never ends, the pointer never leaves the view: \(hover.map { $0.to })")
            #expect(lines.contains { $0.recognizer == "pinch" && $0.to == "ended" }, "\(backend): the pinch lands on the view at the edge")
        }
    }

    static func close(_ a: Double, _ b: Double, within fraction: Double) -> Bool {
        abs(a - b) <= fraction * max(abs(a), abs(b))
    }

    @Test("the mice: the same clicks, right clicks, double clicks and wheel scrolls (to the point) through libinput and the built-in decoder",
          arguments: ["synthetic-mouse-saitek-double-click.evemu", "synthetic-mouse-saitek-wheel.evemu",
                      "mouse-logitech-ultrathin-wheel.evemu", "mouse-saitek-rat5-move-click.evemu"])
    func mice(_ fixture: String) throws {
        let libinput = try Self.read(fixture, backend: "libinput"), builtin = try Self.read(fixture, backend: "builtin")
        #expect(libinput.count("menu", "ended") == builtin.count("menu", "ended"), "right clicks: libinput \(libinput), built-in \(builtin)")
        if fixture.contains("rat5") { #expect(builtin.count("menu", "ended") == 1, "the Saitek's right click is one menu tap") }
        #expect(libinput.count("click", "ended") == builtin.count("click", "ended"), "clicks: libinput \(libinput), built-in \(builtin)")
        #expect(libinput.count("double", "ended") == builtin.count("double", "ended"), "double clicks: libinput \(libinput), built-in \(builtin)")
        #expect(libinput.count("wheelPan", "began") == builtin.count("wheelPan", "began"), "wheel scrolls: libinput \(libinput), built-in \(builtin)")
        let a = libinput.total("wheelPan", "translation", 1), b = builtin.total("wheelPan", "translation", 1)
        #expect(a == b, "the wheel scrolls the same points: libinput \(a), built-in \(b)")
        if fixture.contains("double-click") { #expect(builtin.count("double", "ended") == 1, "the double click double-taps") }
    }

    /// How far libinput's rotation may be from the built-in decoder's. Up to libinput 1.27 the two
    /// agree within 2 % (1.22: 1.217 rad both). libinput 1.28 reports the same turn per frame
    /// (0.047 rad a 12.5 ms frame on the rotate recording) but about one frame less of it at the
    /// start of the pinch: its rotation recognizer begins one frame later (0.200 s, not 0.187 s)
    /// and ends 0.042 rad short (1.175 rad, 3.4 %). Its changelog's likeliest cause is "gestures:
    /// fix transformation of scroll to pinch" (1.28.0), which sends such a gesture through
    /// PINCH_START again. So on 1.28 and later: within 4 %.
    static var rotationTolerance: Double { InstalledLibinput.isAtLeast1_28 ? 0.04 : 0.02 }

    @Test("touchpad pinch and rotation: the same gesture, the final scale within 3 % and the rotation within 2 % of libinput's (4 % from libinput 1.28)",
          arguments: ["synthetic-tp-elantech-pinch-out-2f.evemu", "synthetic-tp-elantech-pinch-out-in-2f.evemu",
                      "synthetic-tp-elantech-rotate-cw-2f.evemu"])
    func pinches(_ fixture: String) throws {
        let libinput = try Self.read(fixture, backend: "libinput"), builtin = try Self.read(fixture, backend: "builtin")
        #expect(libinput.count("pinch", "began") == 1 && builtin.count("pinch", "began") == 1,
                "one pinch each: libinput \(libinput), built-in \(builtin)")
        let a = try #require(libinput.last("pinch", "scale")), b = try #require(builtin.last("pinch", "scale"))
        #expect(Self.close(a, b, within: 0.03), "final scale: libinput \(a), built-in \(b)")
        if fixture.contains("rotate") {
            let ra = try #require(libinput.last("rotate", "rotation")), rb = try #require(builtin.last("rotate", "rotation"))
            #expect(Self.close(ra, rb, within: Self.rotationTolerance),
                    "rotation within \(Self.rotationTolerance * 100) % (libinput \(InstalledLibinput.version?.description ?? "of unknown version")): libinput \(ra) rad, built-in \(rb) rad")
        }
    }

    @Test("a touchpad pinch lands on the view under the pointer through both: one finger moves the pointer onto the right view first")
    func pinchAtPointer() throws {
        let fixture = "synthetic-tp-elantech-move-then-pinch-2f.evemu"
        for backend in ["libinput", "builtin"] {
            let r = try Self.read(fixture, backend: backend)
            #expect(r.count("rightPinch", "began") == 1 && r.count("pinch", "began") == 0,
                    "\(backend): the pinch is on the right view, where the pointer is: \(r)")
        }
    }

    /// How far libinput's distance on the Synaptics recording (a PS/2 pad that reports no
    /// resolution) may be from the built-in decoder's 35.9 pt. libinput 1.22 scrolls it 47.0 pt
    /// (24 % off, within 35 %). libinput 1.28 starts the scroll 25 ms later and scrolls it 62.4 pt
    /// (43 % off); the other two recordings scroll the same on both releases. Not traced to one
    /// libinput commit. So on 1.28 and later: within 45 %.
    static var synapticsScrollTolerance: Double { InstalledLibinput.isAtLeast1_28 ? 0.45 : 0.35 }

    @Test("touchpad two-finger scrolls: the same direction; the synthetic one within 3 % of libinput's distance, the Wacom within 6 %, the Synaptics within 35 % (45 % from libinput 1.28)",
          arguments: [("synthetic-tp-elantech-scroll-down-2f.evemu", 0.03), ("tp-wacom-intuos5-scroll-2f.evemu", 0.06),
                      ("tp-synaptics-scroll-vertical-2f.evemu", synapticsScrollTolerance)])
    func scrolls(_ fixture: String, _ tolerance: Double) throws {
        let libinput = try Self.read(fixture, backend: "libinput"), builtin = try Self.read(fixture, backend: "builtin")
        #expect(libinput.count("scrollPan", "began") >= 1 && builtin.count("scrollPan", "began") >= 1,
                "both scroll: libinput \(libinput), built-in \(builtin)")
        let a = libinput.total("scrollPan", "translation", 1), b = builtin.total("scrollPan", "translation", 1)
        #expect((a > 0) == (b > 0), "the same direction: libinput \(a) pt, built-in \(b) pt")
        #expect(Self.close(a, b, within: tolerance),
                "scrolled within \(tolerance * 100) % (libinput \(InstalledLibinput.version?.description ?? "of unknown version")): libinput \(a) pt, built-in \(b) pt")
        #expect(builtin.count("pinch", "began") == 0 && libinput.count("pinch", "began") == 0, "a scroll is no pinch")
    }

    /// A click with one finger resting in a corner of the bottom of the Elantech clickpad, made
    /// from its description: 2 s, the finger landing at `x` (a fraction of the width) and
    /// 95 % of the height, clicking at 0.5 s for 0.1 s.
    static func cornerClick(x: Double) throws -> String {
        let fixture = try TraceReader(path: Fixtures.path("synthetic-tp-elantech-click-1f.evemu"))
        let description = try #require(fixture.devices.first?.description)
        let maxX = Double(description.absInfo[.absMTPositionX]?.maximum ?? 0), maxY = Double(description.absInfo[.absMTPositionY]?.maximum ?? 0)
        let px = Int32(maxX * x), py = Int32(maxY * 0.95)
        var events: [EvdevEvent] = []
        func add(_ ms: Int64, _ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(EvdevEvent(time: Instant(nanoseconds: ms * 1_000_000), type: type, code: code, value: value))
        }
        for frame in 0..<100 {
            let ms = Int64(frame) * 12
            if frame == 0 {
                add(ms, .abs, .absMTSlot, 0)
                add(ms, .abs, .absMTTrackingID, 7)
            }
            add(ms, .abs, .absMTPositionX, px + Int32(frame % 2))
            add(ms, .abs, .absMTPositionY, py)
            add(ms, .abs, .absMTPressure, 40)
            if frame == 0 { add(ms, .key, .btnToolFinger, 1); add(ms, .key, .btnTouch, 1) }
            if frame == 42 { add(ms, .key, .btnLeft, 1) }
            if frame == 50 { add(ms, .key, .btnLeft, 0) }
            add(ms, .abs, .absX, px + Int32(frame % 2))
            add(ms, .abs, .absY, py)
            add(ms, .abs, .absPressure, 40)
            add(ms, .syn, .synReport, 0)
        }
        add(1212, .abs, .absMTTrackingID, -1)
        add(1212, .key, .btnToolFinger, 0)
        add(1212, .key, .btnTouch, 0)
        add(1212, .syn, .synReport, 0)
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-corner-click.evemu"
        try TraceWriter.evemu(description: description, events: events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a clickpad's click is the button of the area it is made in, as libinput's button areas make it: right in the bottom-right corner, left in the bottom-left",
          arguments: [(0.9, 1), (0.1, 0)])
    func clickpadAreas(_ x: Double, _ menus: Int) throws {
        let path = try Self.cornerClick(x: x)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for backend in ["libinput", "builtin"] {
            let r = Reading(lines: try Self.replay(path, scene: Self.scene, backend: backend))
            #expect(r.count("menu", "ended") == menus && r.count("click", "ended") == 1 - menus,
                    "\(backend), finger at \(x) of the width: \(menus == 1 ? "a right click" : "a left click") expected: \(r)")
        }
    }

    @Test("a touchpad click is one click through both, and a one-finger tap none (libinput's tap-to-click is off by default)",
          arguments: [("synthetic-tp-elantech-click-1f.evemu", 1), ("synthetic-tp-elantech-tap-1f.evemu", 0)])
    func touchpadClick(_ fixture: String, _ clicks: Int) throws {
        for backend in ["libinput", "builtin"] {
            let r = try Self.read(fixture, backend: backend)
            #expect(r.count("click", "ended") == clicks, "\(backend): \(clicks) click(s) expected: \(r)")
        }
    }

    @Test("hover follows the Logitech mouse in and out of a view the same way through libinput (accelerated) and the built-in decoder")
    func hover() throws {
        let json = """
        { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "left", "frame": [0, 0, 450, 1000], "parent": "root"} ],
          "recognizers": [ {"id": "hover", "kind": "hover", "view": "left"} ] }
        """
        var sequences: [[String]] = []
        for backend in ["libinput", "builtin"] {
            let lines = try Self.replay(Fixtures.path("mouse-logitech-ultrathin-wheel.evemu"), scene: json, backend: backend)
            sequences.append(lines.filter { $0.recognizer == "hover" && $0.to != "changed" }.map(\.to))
        }
        #expect(sequences[0].filter { $0 == "began" }.count >= 2, "the pointer enters the view more than once: \(sequences[0])")
        #expect(sequences[0] == sequences[1], "libinput: \(sequences[0])\nbuilt-in: \(sequences[1])")
    }
}

/// REPLAY.md, "Keys": a keyboard's modifier keys through libinput's key events and through
/// the built-in decoder.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct KeysAgreementTests {
    static let fixture = "synthetic-mouse-logitech-k400-modifiers-wheel-click.evemu"
    static let scene = """
    { "recognizers": [
        {"id": "click", "kind": "tap", "view": "root", "allowedTouchTypes": ["indirectPointer"]},
        {"id": "wheel", "kind": "pan", "view": "root", "allowedScrollTypes": ["discrete"], "allowedTouchTypes": []} ] }
    """

    static func states(_ backend: String) throws -> [String] {
        try PointerAgreementTests.replay(Fixtures.path(fixture), scene: scene, backend: backend)
            .filter { $0.type == "state" }
            .map { line in
                let flags = (line.object["modifierFlags"] as? [String])?.joined(separator: "+") ?? "none"
                let t = (line.object["translation"] as? [NSNumber])?.map { String(format: "%.0f", $0.doubleValue) }.joined(separator: ",") ?? ""
                return "\(line.recognizer) \(line.to) [\(t)] \(flags)"
            }
    }

    @Test("the K400's keys: the same transitions with the same modifierFlags through libinput and the built-in decoder; shift turns the wheel sideways; ctrl, Caps Lock, and super with alt ride on the clicks")
    func sameModifiers() throws {
        let libinput = try Self.states("libinput")
        let builtin = try Self.states("builtin")
        #expect(libinput == builtin, "expected the same transitions and flags:\nlibinput \(libinput)\nbuilt-in \(builtin)")
        #expect(builtin.contains("wheel ended [-45,0] shift"), "three backward detents with shift held scroll 45 pt sideways: \(builtin)")
        #expect(builtin.contains("wheel ended [0,30] none"), "two forward detents without it, 30 pt down the content: \(builtin)")
        #expect(builtin.filter { $0.hasPrefix("click ended") } == ["click ended [] control", "click ended [] alphaShift",
                                                                  "click ended [] alternate+command"],
                "the three clicks and the keys held at each: \(builtin)")
    }
}
