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
    ])
    func roundTrip(_ text: String) throws {
        let step = try DriveStep(parsing: text)
        #expect(try DriveStep(parsing: step.description) == step, "'\(text)' reads back the same from '\(step)'")
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

    @Test("a bad test file names its file and line, and why", arguments: [
        ("tap 1,2\napp eog", "t.drive:2:", "settings come before the first step"),
        ("app eog\noutput big", "t.drive:2:", "WIDTHxHEIGHT"),
        ("app eog\n\ntip 1,2", "t.drive:3:", "is not a step"),
        ("app\n", "t.drive:1:", "needs the app's command line"),
        ("app a\napp b", "t.drive:2:", "one app a test"),
        ("env NOEQUALS", "t.drive:1:", "NAME=VALUE"),
        ("touchpad yes", "t.drive:1:", "stands alone"), ("compositor mutter", "t.drive:1:", "sway, kwin"),
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
