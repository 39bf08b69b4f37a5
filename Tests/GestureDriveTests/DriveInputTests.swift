import GestureDrive
import GestureDriveInput
import GestureKit
import GestureTestSupport
import GestureTesting
import GestureTraces
import Testing

/// What drive writes to a virtual touchscreen, read back from the evdev frames (no
/// compositor): gestures at the device's resolution and report rate, aimed at window points.
@Suite struct DriveInputTests {
    /// A 1280 × 800 output with a touchscreen the output's size at 96 points an inch.
    static let output = Size(width: 1280, height: 800)
    static let device = DriveSession.touchscreen(covering: output)

    /// Each frame's events, with its time in seconds from the first frame.
    static func frames(_ events: [EvdevEvent]) -> [(time: Double, events: [EvdevEvent])] {
        var frames: [(Double, [EvdevEvent])] = []
        var current: [EvdevEvent] = []
        for e in events {
            current.append(e)
            if e.type == .syn && e.code == .synReport {
                frames.append((Double(e.time.nanoseconds) / 1e9, current))
                current = []
            }
        }
        let t0 = frames.first?.0 ?? 0
        return frames.map { ($0.0 - t0, $0.1) }
    }

    /// Replays the multitouch frames: each slot's position (device units) after every frame.
    static func contacts(_ events: [EvdevEvent]) -> [[Int32: (x: Int32, y: Int32)]] {
        var slot: Int32 = 0
        var down: [Int32: (x: Int32, y: Int32)] = [:]
        var out: [[Int32: (x: Int32, y: Int32)]] = []
        for e in events {
            switch (e.type, e.code) {
            case (.abs, .absMTSlot): slot = e.value
            case (.abs, .absMTTrackingID): if e.value < 0 { down[slot] = nil } else { down[slot] = (0, 0) }
            case (.abs, .absMTPositionX): down[slot]?.x = e.value
            case (.abs, .absMTPositionY): down[slot]?.y = e.value
            case (.syn, .synReport): out.append(down)
            default: break
            }
        }
        return out
    }

    @Test("a made-up touchscreen covers the output at 96 points an inch, 20 units a millimetre, 120 Hz")
    func madeUpTouchscreen() throws {
        let size = try #require(Self.device.sizeMillimetres)
        #expect(abs(size.width - 1280 / (96 / 25.4)) < 0.1, "a 1280-point output is 338.7 mm wide at 96 points an inch; got \(size.width)")
        #expect(Self.device.description.absInfo[.absMTPositionX]?.resolution == 20)
        #expect(Self.device.reportRate == 120)
        #expect(Self.device.slots == 10)
    }

    @Test("a tap lands where it is aimed, in device units, goes down and up once, with BTN_TOUCH")
    func tap() throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let window = Rect(x: 0, y: 0, width: 1280, height: 800)
        let events = try writer.gestures(in: window) { try $0.tap(at: Point(x: 300, y: 200)) }
        let contacts = Self.contacts(events)
        #expect(contacts.first?.count == 1, "the tap's first frame has one finger down")
        #expect(contacts.last?.isEmpty == true, "the tap's last frame has every finger up")
        let mapping = try #require(AxisMapping(device: Self.device, output: Self.output, multitouch: true))
        let (x, y) = try #require(contacts.first?.values.first)
        let back = mapping.point(x: x, y: y)
        #expect(abs(back.x - 300) <= 0.5 && abs(back.y - 200) <= 0.5,
                "libinput puts the finger back within half a point of (300, 200); it reads (\(back.x), \(back.y))")
        let touch = events.filter { $0.type == .key && $0.code == .btnTouch }.map(\.value)
        #expect(touch == [1, 0], "BTN_TOUCH goes down once and up once")
    }

    @Test("a window's point is moved by the window's origin on the output")
    func windowOrigin() throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let events = try writer.gestures(in: Rect(x: 100, y: 50, width: 600, height: 400)) { try $0.tap(at: Point(x: 10, y: 20)) }
        let mapping = try #require(AxisMapping(device: Self.device, output: Self.output, multitouch: true))
        let (x, y) = try #require(Self.contacts(events).first?.values.first)
        let back = mapping.point(x: x, y: y)
        #expect(abs(back.x - 110) <= 0.5 && abs(back.y - 70) <= 0.5, "the window's (10, 20) is the output's (110, 70); got (\(back.x), \(back.y))")
    }

    @Test("a drag reports at the device's rate", arguments: [60, 120, 240])
    func dragRate(_ rate: Int) throws {
        let device = VirtualDevice.touchscreen(size: Self.device.sizeMillimetres!, reportRate: rate)
        let writer = DeviceInputWriter(device: device, output: Self.output)
        let events = try writer.gestures(in: Rect(x: 0, y: 0, width: 1280, height: 800)) {
            try $0.drag(from: Point(x: 100, y: 100), to: Point(x: 500, y: 100), duration: .milliseconds(500))
        }
        let times = Self.frames(events).map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        let moving = gaps.dropLast() // the lift may follow the last motion at once
        let interval = 1 / Double(rate)
        #expect(moving.allSatisfy { abs($0 - interval) < 0.0015 },
                "a finger moving on a \(rate) Hz panel reports every \(interval * 1000) ms; gaps were \(moving.map { ($0 * 1000).rounded() })")
        #expect(times.count >= Int(0.5 * Double(rate)), "half a second of motion at \(rate) Hz is at least \(Int(0.5 * Double(rate))) frames; got \(times.count)")
    }

    @Test("a pinch is two fingers in two slots, spreading to the scale asked")
    func pinch() throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let events = try writer.gestures(in: Rect(x: 0, y: 0, width: 1280, height: 800)) {
            try $0.pinch(at: Point(x: 640, y: 400), scale: 2)
        }
        let contacts = Self.contacts(events)
        let two = contacts.filter { $0.count == 2 }
        let first = try #require(two.first), last = try #require(two.last)
        func distance(_ c: [Int32: (x: Int32, y: Int32)]) -> Double {
            let p = Array(c.values)
            return ((Double(p[0].x - p[1].x)).squared + (Double(p[0].y - p[1].y)).squared).squareRoot()
        }
        let ratio = distance(last) / distance(first)
        #expect(abs(ratio - 2) < 0.05, "the fingers end twice as far apart as they landed; the ratio is \(ratio)")
        #expect(Set(events.filter { $0.code == .absMTSlot }.map(\.value)) == [0, 1], "the fingers take slots 0 and 1")
        #expect(contacts.last?.isEmpty == true, "both fingers lift at the end")
    }

    @Test("a fling lifts while still moving at its speed; an edge swipe lands 3 mm inside the window's edge, halfway along it, and moves inward")
    func flingAndEdgeSwipe() throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        let window = Rect(x: 0, y: 0, width: 1280, height: 800)
        let mapping = try #require(AxisMapping(device: Self.device, output: Self.output, multitouch: true))
        let fling = try #require(try DriveStep(parsing: "fling 300,400 400,0 2000").gesture { if case let .point(p) = $0 { p } else { .zero } })
        let events = try writer.gestures(in: window, fling)
        let frames = Self.frames(events), contacts = Self.contacts(events)
        let moving = zip(frames, contacts).compactMap { f, c in c.values.first.map { (time: f.time, x: mapping.point(x: $0.x, y: $0.y).x) } }
        let last = try #require(moving.last), before = moving[moving.count - 2]
        let speed = (last.x - before.x) / (last.time - before.time)
        #expect(abs(speed - 2000) < 200, "the finger is still moving at about 2000 points a second as it lifts; it moved at \(speed)")
        #expect(abs(last.x - 700) <= 1, "the finger lifts 400 points right of where it landed (700); it lifted at \(last.x)")
        #expect(contacts.last?.isEmpty == true, "the fling ends with the finger up")

        let edge = try #require(try DriveStep(parsing: "edge-swipe left 150").gesture { _ in .zero })
        let swipe = Self.contacts(try writer.gestures(in: window, edge)).compactMap(\.values.first).map { mapping.point(x: $0.x, y: $0.y) }
        let inset = 3 * DriveSession.defaultPointsPerMillimetre
        let start = try #require(swipe.first), end = try #require(swipe.last)
        #expect(abs(start.x - inset) <= 1 && abs(start.y - 400) <= 1,
                "the finger lands 3 mm (\(inset) points) inside the left edge, halfway down; it landed at (\(start.x), \(start.y))")
        #expect(abs(end.x - (inset + 150)) <= 1 && abs(end.y - 400) <= 1, "it moves 150 points inward; it ended at (\(end.x), \(end.y))")
    }

    @Test("a touchpad hold is fingers resting still on the pad for its time, then lifted")
    func touchpadHold() throws {
        let pad = VirtualDevice.touchpad()
        let frames = try #require(try DriveStep(parsing: "touchpad-hold 3 0.5").touchpadFrames(on: pad))
        let held = frames.dropLast()
        #expect(held.allSatisfy { $0.contacts.count == 3 && $0.contacts == held.first?.contacts }, "three fingers rest without moving")
        let seconds = try #require(held.last).time - .zero
        #expect(abs(seconds.inSeconds - 0.5) < 0.02, "they rest for half a second; they rested \(seconds)")
        #expect(frames.last?.contacts.isEmpty == true, "then every finger lifts")
    }

    @Test("a pen stroke on a touchscreen is refused, naming what it needs")
    func wrongDevice() throws {
        let writer = DeviceInputWriter(device: Self.device, output: Self.output)
        #expect(throws: DeviceInputWriter.Failure.self) {
            _ = try writer.gestures(in: Rect(x: 0, y: 0, width: 1280, height: 800)) {
                try $0.penStroke(along: [Point(x: 10, y: 10), Point(x: 100, y: 100)])
            }
        }
    }

    @Test("a recorded touchscreen keeps its description", arguments: ["ts-atmel-maxtouch-9-taps-1f.evemu"])
    func recorded(_ fixture: String) throws {
        let device = try VirtualDevice.recorded(in: Fixtures.path(fixture), kind: .touchscreen)
        #expect(device.kind == .touchscreen)
        #expect(device.description.absInfo[.absMTPositionX] != nil, "the recording's multitouch axes are the device's")
        #expect(throws: VirtualDevice.Failure.self) { try VirtualDevice.recorded(in: Fixtures.path(fixture), kind: .touchpad) }
    }
}

extension Double {
    fileprivate var squared: Double { self * self }
}

/// `gesturekit drive --step`'s language.
@Suite struct DriveStepTests {
    @Test("steps read as written, and print as they read", arguments: [
        "tap 10,20", "tap center", "double-tap 5,5", "long-press 100,100", "long-press 100,100 1.5",
        "drag 1,2 300,400 0.3", "pinch center 2 0.5", "rotate 640,400 45", "swipe center left 2", "screenshot /tmp/a.png",
        "tap @7", "drag @Photo @Trash 0.5", "wait-for Save", "expect-text 42 3", "expect-gone Row3",
        "touchpad-pinch 2", "touchpad-scroll 0,-200 0.4", "touchpad-swipe left 4",
        "click 10,10", "click @Save right 2", "wheel center down 3", "pen-stroke 1,1 100,100 0.8",
        "fling center 300,0", "fling 10,20 0,-400 2500 2", "edge-swipe left", "edge-swipe bottom 120",
        "touchpad-hold", "touchpad-hold 3 0.6", "pen-stroke 1,1 100,100 0.8 30 -45",
        #"tap @"Zoom In""#, #"expect-text "7 × 6" 3"#, #"screenshot "my shots/a.png""#, #"wait-for "say \"hi\"""#,
    ])
    func roundTrip(_ text: String) throws {
        let step = try DriveStep(parsing: text)
        #expect(try DriveStep(parsing: step.description) == step, "'\(text)' reads back the same from '\(step)'")
    }

    @Test("double quotes keep a name, text or file with spaces as one word, exactly as written inside them")
    func quoted() throws {
        #expect(try DriveStep(parsing: #"tap @"Zoom In""#) == .tap(.element("Zoom In")))
        #expect(try DriveStep(parsing: #"expect-text "7  ×  6""#) == .expectText(text: "7  ×  6", seconds: 10))
        #expect(try DriveStep(parsing: #"wait-for "a \"b\"" 2"#) == .waitFor(name: #"a "b""#, seconds: 2))
        #expect(try DriveStep(parsing: #"screenshot "/tmp/my shots/a.png""#) == .screenshot(path: "/tmp/my shots/a.png"))
        #expect(try DriveStep(parsing: "tap @Save").description == "tap @Save", "a name without spaces prints without quotes")
    }

    @Test("a fling, an edge swipe, a touchpad hold and a tilted pen read their numbers and defaults")
    func moreGestures() throws {
        #expect(try DriveStep(parsing: "fling center 300,0") == .fling(.centre, offset: Point(x: 300, y: 0), speed: 1000, fingers: 1))
        #expect(try DriveStep(parsing: "edge-swipe right") == .edgeSwipe(edge: .right, distance: 200))
        #expect(try DriveStep(parsing: "touchpad-hold") == .touchpadHold(fingers: 2, seconds: 0.3))
        #expect(try DriveStep(parsing: "pen-stroke 1,1 2,2") == .penStroke(from: .point(Point(x: 1, y: 1)), to: .point(Point(x: 2, y: 2)),
                                                                       force: 0.5, tilt: .upright))
        #expect(try DriveStep(parsing: "pen-stroke 1,1 2,2 0.3 45 90").description == "pen-stroke 1,1 2,2 0.3 45 90")
        #expect(try DriveStep(parsing: "fling @Photo 0,-300").needsAccessibility, "a fling aimed at an element needs the tree")
        #expect(try DriveStep(parsing: "edge-swipe top").device == .touchscreen && DriveStep(parsing: "touchpad-hold").device == .touchpad)
    }

    @Test("50,000 random steps, made of the language's own words, numbers, points, quotes and noise: each is refused with a ParseError naming it, or reads back the same from what it prints; a test file of them the same, by line")
    func randomSteps() throws {
        var random = SeededRandom(seed: 0x5eed_d417e)
        let verbs = ["tap", "double-tap", "long-press", "drag", "pinch", "rotate", "swipe", "fling", "edge-swipe", "screenshot",
                     "replay", "compare", "click", "wheel", "pen-stroke", "touchpad-pinch", "touchpad-scroll", "touchpad-swipe",
                     "touchpad-hold", "wait-for", "expect-text", "expect-gone", "app", "output", "env", "#", ""]
        let words = ["center", "@7", "@", "@\"Zoom In\"", "\"a b\"", "\"", "\\", "\"x\\\"y\"", "left", "right", "up", "down", "top",
                     "bottom", "middle", "1,2", "0,0", "-1,5", "1e309,2", "nan", "inf", "3", "0", "-2", "0.5", "2.5", "1,", ",", "1,2,3",
                     "a.png", "×", "\t", "  ", "800x600", "X=1"]
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var lines: [String] = []
        for _ in 0..<50_000 {
            var text = pick(verbs)
            for _ in 0..<Int(random.next() % 6) { text += (random.next() % 4 == 0 ? "" : " ") + pick(words) }
            lines.append(text)
            do {
                let step = try DriveStep(parsing: text)
                let again = try DriveStep(parsing: step.description)
                #expect(again == step, "'\(text)' reads as '\(step)', which reads back as '\(again)'")
                #expect(again.description == step.description)
            } catch let error as DriveStep.ParseError {
                #expect(error.step == text, "the error names the step as written: \(error)")
                #expect(!error.why.isEmpty)
            }
        }
        for chunk in stride(from: 0, to: 2_000, by: 20) {
            let file = lines[chunk..<chunk + 20].joined(separator: "\n")
            do {
                let script = try DriveScript(parsing: file, file: "r.drive")
                #expect(script.steps.allSatisfy { (1...20).contains($0.line) })
            } catch let error as DriveScript.ParseError {
                #expect(error.file == "r.drive" && (1...20).contains(error.line), "the error names the file and a line of it: \(error)")
            }
        }
    }

    @Test("steps that need the accessibility tree or a touchpad say so (drive then gives the session one)")
    func needs() throws {
        #expect(try DriveStep(parsing: "tap @7").needsAccessibility && DriveStep(parsing: "expect-text 42").needsAccessibility)
        #expect(try !DriveStep(parsing: "tap 1,2").needsAccessibility && !DriveStep(parsing: "touchpad-pinch 2").needsAccessibility)
        #expect(try DriveStep(parsing: "touchpad-scroll 0,10").needsTouchpad && !DriveStep(parsing: "pinch center 2").needsTouchpad)
        #expect(try DriveStep(parsing: "click 1,1").device == .mouse && DriveStep(parsing: "pen-stroke 1,1 2,2").device == .pen
                && DriveStep(parsing: "tap 1,1").device == .touchscreen && DriveStep(parsing: "screenshot a.png").device == nil)
    }

    @Test("a bad step says what is wrong with it", arguments: [
        ("tip 1,2", "is not a step"), ("tap", "needs a point"), ("tap 1;2", "is not a point"), ("tap -1,2", "is not a point"),
        ("pinch center 0", "scale above 0"), ("swipe center sideways", "is not a direction"), ("tap 1,2 3", "too many words"),
        ("long-press 1,1 0", "more than 0 seconds"), ("tap @", "needs an accessible element's name"),
        ("expect-text", "needs one text"), ("wait-for a b c", "needs one name"), ("touchpad-swipe left 2", "3 or 4 fingers"),
        ("touchpad-scroll 0,0", "not both 0"), ("touchpad-pinch -1", "scale above 0"),
        ("click 1,1 thumb", "is not a button"), ("wheel 1,1 sideways", "a direction"), ("pen-stroke 1,1 2,2 1.5", "at most 1"),
        ("fling center 0,0", "not both 0"), ("fling center 10", "DX,DY"), ("fling center 10,0 -5", "more than 0 points a second"),
        ("fling center 10,0 100 6", "1 to 5 fingers"), ("edge-swipe middle", "an edge of the window"), ("edge-swipe left 0", "more than 0 points"),
        ("touchpad-hold 5", "1 to 4 fingers"), ("touchpad-hold 2 0", "more than 0"), ("pen-stroke 1,1 2,2 0.5 0", "altitude"),
        ("pen-stroke 1,1 2,2 0.5 45 400", "azimuth"), (#"wait-for "Save"#, "not closed"), (#"tap @"Zoom"#, "not closed"),
    ])
    func bad(_ text: String, _ says: String) {
        do {
            _ = try DriveStep(parsing: text)
            Issue.record("'\(text)' is not a valid step")
        } catch {
            #expect("\(error)".contains(says), "the error for '\(text)' says '\(says)': \(error)")
        }
    }
}

/// `gesturekit drive --file`'s test files.
@Suite struct DriveScriptTests {
    @Test("a test file's settings and steps, with their lines; comments and blank lines skipped")
    func reads() throws {
        let script = try DriveScript(parsing: """
        # a comment
        app eog --new-instance /tmp/a.png
        output 800x600
        env GDK_SCALE=1
        touchpad

        tap center
          touchpad-pinch 2
        expect-text 200%
        """, file: "t.drive")
        #expect(script.app == ["eog", "--new-instance", "/tmp/a.png"] && script.output == Size(width: 800, height: 600))
        #expect(script.environment == ["GDK_SCALE": "1"] && script.touchpad && !script.accessibility)
        #expect(script.steps.map(\.line) == [7, 8, 9], "steps keep their lines")
        #expect(try script.steps.map(\.step) == ["tap center", "touchpad-pinch 2", "expect-text 200%"].map(DriveStep.init(parsing:)))
    }

    @Test("double quotes keep an app's argument and a step's name with spaces whole")
    func quoted() throws {
        let script = try DriveScript(parsing: """
        app eog "/tmp/My Pictures/a.png"
        env TITLE="a b"
        wait-for "Zoom In"
        """, file: "t.drive")
        #expect(script.app == ["eog", "/tmp/My Pictures/a.png"] && script.environment == ["TITLE": "a b"])
        #expect(script.steps.map(\.step) == [.waitFor(name: "Zoom In", seconds: 10)])
    }

    @Test("a bad test file names its file and line, and why", arguments: [
        ("tap 1,2\napp eog", "t.drive:2:", "settings come before the first step"),
        ("app eog\noutput big", "t.drive:2:", "WIDTHxHEIGHT"),
        ("app eog\n\ntip 1,2", "t.drive:3:", "is not a step"),
        ("app\n", "t.drive:1:", "needs the app's command line"),
        ("app a\napp b", "t.drive:2:", "one app a test"),
        ("env NOEQUALS", "t.drive:1:", "NAME=VALUE"),
        ("touchpad yes", "t.drive:1:", "stands alone"), ("compositor mutter", "t.drive:1:", "sway, kwin"),
        ("app eog \"My Pictures/a.png", "t.drive:1:", "not closed"),
    ])
    func bad(_ text: String, _ at: String, _ says: String) {
        do {
            _ = try DriveScript(parsing: text, file: "t.drive")
            Issue.record("'\(text)' is not a valid test file")
        } catch {
            #expect("\(error)".hasPrefix(at) && "\(error)".contains(says), "the error for '\(text)' is at \(at) and says '\(says)': \(error)")
        }
    }
}

/// Screenshots as grim writes them (PPM).
@Suite struct ScreenshotTests {
    @Test("a PPM reads back pixel for pixel; a bad one is an error naming the format")
    func ppm() throws {
        var rgb = [UInt8](repeating: 255, count: 4 * 3 * 3)
        rgb[(1 * 4 + 2) * 3] = 200; rgb[(1 * 4 + 2) * 3 + 1] = 0; rgb[(1 * 4 + 2) * 3 + 2] = 0
        let shot = Screenshot(width: 4, height: 3, rgb: rgb)
        let back = try Screenshot(ppm: shot.ppm)
        #expect(back == shot)
        let red = Screenshot.Color(red: 210, green: 10, blue: 10)
        #expect(back.count(of: red, tolerance: 10) == 1)
        #expect(back.bounds(of: red, tolerance: 10) == Rect(x: 2, y: 1, width: 1, height: 1))
        #expect(back.difference(from: Screenshot(width: 4, height: 3, rgb: [UInt8](repeating: 255, count: 36))) == 1.0 / 12)
        #expect(throws: DriveError.self) { try Screenshot(ppm: Array("P3\n1 1\n255\n0 0 0".utf8)) }
        #expect(throws: DriveError.self) { try Screenshot(ppm: Array("P6\n2 2\n255\n".utf8) + [1, 2, 3]) }
    }
}
