import Foundation
import GestureDrive
import GestureDriveInput
import GestureKit
import GestureTestSupport
import Testing

/// `DriveSession` on apps nobody here wrote: eog 43 (GTK 3, Debian 12's image viewer) under a
/// headless sway, touched through a virtual touchscreen, observed in screenshots.
///
/// The picture: 400 × 300 white with a 50 × 50 red square in its middle; eog shows it at 100 %
/// in the middle of its view. What each test asserts is read from the screen, with tolerances
/// stated where the app rounds or animates.
@Suite(.serialized, .enabled(if: CompositorUser.unavailableReason == nil, "\(CompositorUser.unavailableReason ?? "")"))
struct DriveSessionTests {
    static let red = Screenshot.Color(red: 220, green: 20, blue: 20)
    /// Per channel: eog's scaling blends the square's edges.
    static let tolerance: UInt8 = 40

    /// A directory the session's user can read, holding the picture.
    static func picture() throws -> String {
        let dir = NSTemporaryDirectory() + "gesturekit-drive-picture-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        let (w, h) = (400, 300)
        var rgb = [UInt8](repeating: 255, count: w * h * 3)
        for y in 125..<175 {
            for x in 175..<225 {
                let o = (y * w + x) * 3
                rgb[o] = red.red; rgb[o + 1] = red.green; rgb[o + 2] = red.blue
            }
        }
        let path = dir + "/square.ppm"
        try Data(Screenshot(width: w, height: h, rgb: rgb).ppm).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        return path
    }

    /// Stops the test, naming what to install, unless `app` and the programs a session runs are
    /// on the PATH.
    static func requirePrograms(_ app: String) throws {
        let missing = [app, "sway", "grim", "umockdev-run"].filter { name in
            !(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs them)")
    }

    /// Runs `body` on a session of eog showing the picture (with a touchpad, or a mouse and a
    /// pen tablet, beside the touchscreen), then stops the session and removes the picture.
    static func withEog(touchpad: Bool = false, mouseAndPen: Bool = false, _ body: (DriveSession) throws -> Void) throws {
        try requirePrograms("eog")
        let picture = try picture()
        defer { try? FileManager.default.removeItem(atPath: (picture as NSString).deletingLastPathComponent) }
        // eog's own settings (its side pane) stay out of the way of the picture.
        let output = Size(width: 1280, height: 800)
        let mm = DriveSession.defaultPointsPerMillimetre
        let devices = [DriveSession.touchscreen(covering: output)] + (touchpad ? [VirtualDevice.touchpad()] : [])
            + (mouseAndPen ? [VirtualDevice.mouse(), .penTablet(size: Size(width: output.width / mm, height: output.height / mm))] : [])
        let session = try DriveSession.start(.init(app: ["eog", "--new-instance", picture], output: output, devices: devices,
                                                   user: CompositorUser.name))
        defer { session.stop() }
        try body(session)
    }

    /// The red square's bounds once eog shows the picture.
    static func square(_ session: DriveSession) throws -> Rect {
        let shot = try session.waitForScreen("the picture's red square", timeout: 20) {
            $0.count(of: red, tolerance: tolerance) >= 2000
        }
        return try #require(shot.bounds(of: red, tolerance: tolerance), "the picture's red square is on the screen")
    }

    /// Waits for the red square to be half again as wide as `before` after `what`, then for
    /// eog to finish (the screen settled); how many times wider it is then.
    static func zoomRatio(_ session: DriveSession, from before: Rect, after what: String) throws -> (ratio: Double, square: Rect) {
        _ = try session.waitForScreen("the square zoomed in by \(what)", timeout: 10) {
            ($0.bounds(of: red, tolerance: tolerance)?.width ?? 0) >= before.width * 1.5
        }
        let after = try settledSquare(session)
        return (after.width / before.width, after)
    }

    /// The red square once the screen has settled: on a loaded machine eog is still working
    /// through a gesture's events when the first change shows (a pinch read at 1.6 and a pan
    /// at 129 of 200 points, in 2 of 280 runs beside two busy loops, from the first screenshot
    /// that changed).
    static func settledSquare(_ session: DriveSession) throws -> Rect {
        let settled = try session.waitForSettledScreen()
        let shot = try session.screenshot()
        return try #require(shot.bounds(of: red, tolerance: tolerance), "the red square is on the screen (settled: \(settled))")
    }

    @Test("eog: a two-finger pinch on the picture zooms it in, by the pinch's scale")
    func eogPinch() throws {
        try Self.withEog { session in
            let before = try Self.square(session)
            #expect(abs(before.width - 50) <= 2, "eog shows the picture at 100 %: the square is 50 points wide; it is \(before.width)")
            let window = try #require(session.window)
            let centre = Point(x: before.midX - window.frame.minX, y: before.midY - window.frame.minY)
            try session.perform { try $0.pinch(at: centre, scale: 2, duration: .milliseconds(600)) }
            // GTK's zoom gesture scales by the fingers' distance over their distance at the
            // gesture's start; eog multiplies its zoom by it: the square ends about twice as wide.
            let (ratio, after) = try Self.zoomRatio(session, from: before, after: "the pinch")
            #expect(ratio > 1.6 && ratio < 2.4,
                    "a pinch spreading the fingers to twice their distance zooms eog's picture about twice (±20 %: GTK starts the gesture after some movement); it zoomed \(ratio)×")
            #expect(abs(after.midX - before.midX) < 60 && abs(after.midY - before.midY) < 60,
                    "the picture zooms around the fingers: the square stays near \(before.midX), \(before.midY); it is at \(after.midX), \(after.midY)")

            // The session ends everything it started: the app and the session's files are gone.
            let app = window.pid, directory = session.directory
            session.stop()
            #expect(kill(pid_t(app), 0) != 0 || (try? String(contentsOfFile: "/proc/\(app)/stat", encoding: .utf8))?.contains(") Z ") == true,
                    "eog (pid \(app)) has ended once the session stopped")
            #expect(!FileManager.default.fileExists(atPath: directory), "the session's directory \(directory) is removed once it stopped")
        }
    }

    @Test("eog: a two-finger pinch on a touchpad (through sway's libinput and the pointer gestures protocol) zooms the picture in about twice")
    func eogTouchpadPinch() throws {
        try Self.withEog(touchpad: true) { session in
            let before = try Self.square(session)
            try session.perform(DriveStep(parsing: "touchpad-pinch 2 0.6"))
            let (ratio, _) = try Self.zoomRatio(session, from: before, after: "the touchpad's pinch")
            #expect(ratio > 1.5 && ratio < 2.5,
                    "fingers spreading to twice their distance on the pad zoom eog's picture about twice (libinput's scale, GTK's zoom gesture); it zoomed \(ratio)×")
        }
    }

    @Test("eog with a mouse and a pen tablet: a click on the zoom-in button, the wheel turned up over the picture, and a pen's touch on the zoom-in button each zoom the picture in")
    func eogMouseAndPen() throws {
        try Self.withEog(mouseAndPen: true) { session in
            var width = try Self.square(session).width
            // eog 43's zoom-in button is at (157, 23) (eogTap); its wheel zooms (scroll-wheel-zoom).
            for step in ["click 157,23", "wheel 640,420 up 2", "pen-stroke 157,23 157,23 0.6"] {
                try session.perform(DriveStep(parsing: step))
                let before = width
                let shot = try session.waitForScreen("the square zoomed in by '\(step)'", timeout: 10) {
                    ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.width ?? 0) > before * 1.1
                }
                width = try #require(shot.bounds(of: Self.red, tolerance: Self.tolerance)).width
                #expect(width > before * 1.1, "'\(step)' zoomed eog's picture in: the square grew from \(before) to \(width)")
            }
        }
    }

    @Test("eog: a one-finger drag pans a zoomed picture with the finger")
    func eogDrag() throws {
        try Self.withEog { session in
            let before = try Self.square(session)
            let window = try #require(session.window)
            let centre = Point(x: before.midX - window.frame.minX, y: before.midY - window.frame.minY)
            // Four times as large, the picture (1600 × 1200) overflows eog's view, which can then pan
            // (about 150 points either way from the middle, across: a longer drag is held at the edge
            // once eog settles, so the one below stays inside).
            try session.perform { try $0.pinch(at: centre, scale: 4, duration: .milliseconds(600)) }
            _ = try session.waitForScreen("the square zoomed in four times", timeout: 10) {
                ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.width ?? 0) >= before.width * 3
            }
            let zoomed = try Self.settledSquare(session)
            try session.perform {
                try $0.drag(from: Point(x: zoomed.midX, y: zoomed.midY), to: Point(x: zoomed.midX - 100, y: zoomed.midY),
                            duration: .milliseconds(400))
            }
            _ = try session.waitForScreen("the square moved left", timeout: 10) {
                ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.midX ?? zoomed.midX) < zoomed.midX - 40
            }
            let after = try Self.settledSquare(session)
            // eog carries the picture on a little past the finger (124 to 128 points, settled, idle).
            #expect((80...160).contains(zoomed.midX - after.midX),
                    "the picture follows the finger: a 100-point drag to the left moves the square left by about as much, once eog settles (80 to 160 points: GTK's drag threshold below, eog's own carry above); it moved \(zoomed.midX - after.midX)")
            #expect(abs(after.midY - zoomed.midY) <= 5, "a level drag does not move the picture up or down; it moved \(after.midY - zoomed.midY)")
        }
    }

    @Test("eog: a tap on the zoom-in button zooms the picture in")
    func eogTap() throws {
        try Self.withEog { session in
            let before = try Self.square(session)
            // eog 43's header bar: the zoom-out button, the zoom level, the zoom-in button, from
            // the left, 46 points high (seen in its screenshot at 1280 × 800).
            try session.perform { try $0.tap(at: Point(x: 157, y: 23)) }
            let shot = try session.waitForScreen("the square zoomed in by the zoom-in button", timeout: 10) {
                ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.width ?? 0) > before.width * 1.1
            }
            let after = try #require(shot.bounds(of: Self.red, tolerance: Self.tolerance))
            #expect(after.width > before.width * 1.1, "the tap pressed eog's zoom-in button: the square grew from \(before.width) to \(after.width)")
        }
    }

    /// gnome-calculator 43 (GTK 4, libadwaita), its buttons found and its display read over
    /// AT-SPI.
    static func calculator() throws -> DriveSession {
        try requirePrograms("gnome-calculator")
        return try DriveSession.start(.init(app: ["gnome-calculator"], output: Size(width: 1000, height: 1000),
                                            user: CompositorUser.name, accessibility: true))
    }

    @Test("gnome-calculator (GTK 4): taps aimed at its buttons by their accessible names (@7, @×, @6, @=) compute 42, read back from its display over AT-SPI; an expectation it does not meet fails naming what was shown")
    func calculatorOverAccessibility() throws {
        let session = try Self.calculator()
        defer { session.stop() }
        for text in ["tap @7", "tap @×", "tap @6", "tap @="] {
            try session.perform(DriveStep(parsing: text))
        }
        let shown = try session.perform(DriveStep(parsing: "expect-text 42"))
        #expect(shown?.contains("42") == true, "the calculator's display reads 42: \(shown ?? "")")
        let tree = try session.accessibilityTree().flatMap(\.all)
        // AT-SPI 2.46 (Debian 12) names the role "push button", 2.56 (Debian 13) "button".
        #expect(tree.contains { ($0.role == "push button" || $0.role == "button") && $0.isShowing },
                "the tree has the calculator's shown buttons: \(Set(tree.map(\.role)).sorted())")
        do {
            try session.perform(DriveStep(parsing: "expect-text 43 1"))
            Issue.record("expect-text 43 passed on a display that reads 42")
        } catch let error as DriveError {
            #expect("\(error)".contains("no accessible element reading \"43\" within 1 s") && "\(error)".contains("\"42\""),
                    "the failed expectation names what it waited for and what was shown (the 42): \(error)")
        }
    }

    @Test("a second compositor: under KWin nested in sway (compositor kwin), gnome-calculator's buttons tapped by their accessible names compute 42, read over AT-SPI",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/kwin_wayland"), "KWin is not installed (scripts/install-deps.sh installs kwin-wayland)"))
    func calculatorUnderKWin() throws {
        let session = try DriveSession.start(.init(app: ["gnome-calculator"], output: Size(width: 1000, height: 1000),
                                                   user: CompositorUser.name, accessibility: true, compositor: .kwinNested))
        defer { session.stop() }
        #expect(session.window?.title?.contains("KDE Wayland Compositor") == true,
                "sway's window is KWin's, the calculator its client: \(session.window?.description ?? "none")")
        for text in ["tap @7", "tap @×", "tap @6", "tap @=", "expect-text 42"] {
            try session.perform(DriveStep(parsing: text))
        }
    }

    @Test("gesturekit drive --file: a test file's app, output and steps (aimed at accessible elements, which turn the tree on by themselves): the calculator's 7 × 6 reads 42, and the JUnit report names each step by its file and line")
    func calculatorCommand() throws {
        let tool = builtProduct("gesturekit")
        let base = NSTemporaryDirectory() + "gesturekit-drive-\(UUID().uuidString)"
        let junit = base + ".xml", file = base + ".drive"
        defer {
            try? FileManager.default.removeItem(atPath: junit)
            try? FileManager.default.removeItem(atPath: file)
        }
        try """
        # gnome-calculator multiplies
        app gnome-calculator
        output 1000x1000

        wait-for =
        tap @7
        tap @×
        tap @6
        tap @=
        expect-text 42
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try runProcess(tool, ["drive", "--user", CompositorUser.name, "--junit", junit, "--file", file])
        #expect(run.status == 0, "drive passes: \(run.output)\n\(run.errors)")
        let report = JUnitDocument(try String(contentsOfFile: junit, encoding: .utf8))
        #expect(report.cases.count == 7 && report.cases.allSatisfy { $0.outcome == nil },
                "seven test cases (the start and six steps), all passed: \(report.cases.map(\.name))")
        #expect(report.cases.dropFirst().first?.name == "\(file):5: wait-for = 10", "a step is named by its file and line: \(report.cases.map(\.name))")
    }

    /// A Qt 6 Quick scene for `qml` (Debian's qml-qt6): a red square with a `PinchHandler`
    /// that scales it, and a label that reads its scale in percent ("100%"), which Qt exports
    /// over AT-SPI.
    static let pinchScene = """
    import QtQuick
    import QtQuick.Window

    Window {
        width: 1000; height: 1000; visible: true
        title: "pinch"
        Rectangle {
            id: photo
            width: 300; height: 300
            anchors.centerIn: parent
            color: "#dc1414"
            PinchHandler { target: photo }
        }
        Text {
            anchors.top: parent.top; anchors.horizontalCenter: parent.horizontalCenter
            font.pixelSize: 40
            text: Math.round(photo.scale * 100) + "%"
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
    }
    """

    @Test("Qt 6 Quick (qml): a two-finger pinch to twice the fingers' distance scales the item of a PinchHandler up (Qt counts from past its drag threshold, so by less than the fingers' 2: 162 % idle, 114 % on a loaded fresh root), its label read over AT-SPI and the square on the screen grown by the label's scale")
    func qtQuickPinch() throws {
        let qml = "/usr/lib/qt6/bin/qml"
        try #require(FileManager.default.isExecutableFile(atPath: qml),
                     "install qml-qt6, qml6-module-qtquick, qml6-module-qtquick-window and qt6-wayland (scripts/install-deps.sh installs them)")
        let dir = NSTemporaryDirectory() + "gesturekit-drive-qml-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.pinchScene.write(toFile: dir + "/pinch.qml", atomically: true, encoding: .utf8)
        chmod(dir + "/pinch.qml", 0o644)
        let session = try DriveSession.start(.init(app: [qml, dir + "/pinch.qml"], output: Size(width: 1000, height: 1000),
                                                   user: CompositorUser.name, accessibility: true))
        defer { session.stop() }
        try session.perform(DriveStep(parsing: "wait-for 100%"))
        let before = try session.screenshot().count(of: Self.red, tolerance: Self.tolerance)
        try session.perform(DriveStep(parsing: "pinch center 2"))
        // Qt's scale is its own reading of the fingers (it starts past its drag threshold, which
        // a loaded machine's later frames cross further on): only "up, by at most 2" is the
        // input's; the screen must then agree with the label.
        let label = try session.waitForElement("a scale above 105%") { element in
            element.name.hasSuffix("%") && (Int(element.name.dropLast()) ?? 0) > 105
        }
        usleep(500_000)   // the pinch's last frames
        let settled = try session.accessibilityTree().flatMap(\.all).first { $0.name.hasSuffix("%") } ?? label
        let percent = Int(settled.name.dropLast()) ?? 0
        #expect(percent > 105 && percent <= 200, "the pinch scaled the square up, by at most the fingers' 2: \(settled)")
        let expectedPixels = Double(before) * Double(percent * percent) / 10_000
        let after = try session.waitForScreen("the square grown to the label's scale", timeout: 5) {
            abs(Double($0.count(of: Self.red, tolerance: Self.tolerance)) - expectedPixels) < expectedPixels * 0.1
        }.count(of: Self.red, tolerance: Self.tolerance)
        #expect(abs(Double(after) - expectedPixels) < expectedPixels * 0.1,
                "the square on the screen grew by the label's scale squared: \(before) → \(after) red pixels, \(Int(expectedPixels)) expected at \(percent)%")
    }

    /// A touch page: a red square that two fingers scale (DOM touch events, the browser's own
    /// pinch-zoom off), and a status line reading the scale in percent.
    static let pinchPage = """
    <!doctype html>
    <html><head><meta charset="utf-8"><title>pinch</title>
    <style>html,body{margin:0;height:100%;touch-action:none;font:40px sans-serif}
    #box{position:absolute;left:350px;top:250px;width:300px;height:300px;background:#dc1414}</style></head>
    <body>
    <p id="scale" role="status">100%</p>
    <div id="box"></div>
    <script>
    let start = null, scale = 1, base = 1;
    function dist(t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY); }
    document.addEventListener('touchstart', e => { if (e.touches.length == 2) { start = dist(e.touches); base = scale; } }, {passive: false});
    document.addEventListener('touchmove', e => {
      e.preventDefault();
      if (e.touches.length == 2 && start) {
        scale = base * dist(e.touches) / start;
        document.getElementById('box').style.transform = 'scale(' + scale + ')';
        document.getElementById('scale').textContent = Math.round(scale * 100) + '%';
      }
    }, {passive: false});
    document.addEventListener('touchend', e => { if (e.touches.length < 2) start = null; });
    </script></body></html>
    """

    @Test("Chromium (Wayland): a two-finger pinch to twice the fingers' distance on a touch page scales its square by the DOM's touch points, 200 %, read over AT-SPI and seen on the screen")
    func chromiumPinch() throws {
        let chromium = "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "install chromium (scripts/install-deps.sh installs it)")
        let dir = NSTemporaryDirectory() + "gesturekit-drive-page-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/profile", withIntermediateDirectories: true)
        chmod(dir, 0o755)
        chmod(dir + "/profile", 0o777)   // the session's user's browser profile
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.pinchPage.write(toFile: dir + "/pinch.html", atomically: true, encoding: .utf8)
        chmod(dir + "/pinch.html", 0o644)
        // No sandbox: a container's user namespaces are not to be relied on.
        let session = try DriveSession.start(.init(
            app: [chromium, "--ozone-platform=wayland", "--no-sandbox", "--user-data-dir=\(dir)/profile", "--no-first-run",
                  "--disable-gpu", "--force-renderer-accessibility", "--kiosk", "file://\(dir)/pinch.html"],
            output: Size(width: 1000, height: 1000), user: CompositorUser.name, accessibility: true))
        defer { session.stop() }
        try session.perform(DriveStep(parsing: "wait-for 100% 20"))
        let before = try session.screenshot().bounds(of: Self.red, tolerance: Self.tolerance)
        try session.perform(DriveStep(parsing: "pinch 500,400 2"))
        let shown = try session.perform(DriveStep(parsing: "expect-text 200% 5"))
        #expect(shown?.contains("200%") == true, "the page's status reads 200 %: \(shown ?? "")")
        let shot = try session.waitForScreen("the square scaled", timeout: 5) {
            ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.width ?? 0) > (before?.width ?? 300) * 1.8
        }
        let after = try #require(shot.bounds(of: Self.red, tolerance: Self.tolerance))
        #expect(abs(after.width - 2 * (before?.width ?? 300)) < 10, "the square is twice as wide on the screen: \(before?.width ?? 0) → \(after.width)")
    }

    @Test("gesturekit drive: a missing app and a bad step are named, with exit statuses 1 and 2")
    func command() throws {
        let tool = builtProduct("gesturekit")
        let missing = try runProcess(tool, ["drive", "--step", "tap center", "--", "gesturekit-no-such-app"])
        #expect(missing.status == 1 && missing.errors.contains("the app gesturekit-no-such-app was not found"),
                "a missing app ends drive with status 1, naming it: \(missing)")
        let bad = try runProcess(tool, ["drive", "--step", "pinch center", "--", "eog"])
        #expect(bad.status == 2 && bad.errors.contains("pinch needs a scale"), "a bad step ends drive with status 2, saying why: \(bad)")
        let touchpad = Fixtures.path("tp-alps-glidepoint-double-tap-1f.evemu")
        let junit = NSTemporaryDirectory() + "gesturekit-drive-\(UUID().uuidString).xml"
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let noTouchscreen = try runProcess(tool, ["drive", "--junit", junit, "--step", "replay \(touchpad)", "--", "eog"])
        #expect(noTouchscreen.status == 2 && noTouchscreen.errors.contains("\(touchpad): no touchscreen in this recording"),
                "a recording without a touchscreen ends drive with status 2 before anything starts, naming the file: \(noTouchscreen)")
        let report = JUnitDocument(try String(contentsOfFile: junit, encoding: .utf8))
        #expect(report.error == nil && report.cases.first?.outcome?.name == "error",
                "the JUnit report of bad arguments is written, with an error: \(report.cases.map(\.name))")
    }

    @Test("a recorded swipe replayed into eog shows the next picture; compare records, waits for a match, and fails with the screenshot beside; the JUnit report reads back")
    func replayCompareJUnit() throws {
        // Two pictures in a folder of their own (eog's next picture is the folder's next
        // file): the red square, then a blue picture (400 × 300: 12 % of the screen, far more
        // than a comparison's 1 %).
        let red = try Self.picture()
        let pictures = (red as NSString).deletingLastPathComponent
        let blue = Screenshot.Color(red: 20, green: 20, blue: 220)
        let rgb = (0..<(400 * 300)).flatMap { _ in [blue.red, blue.green, blue.blue] }
        try Data(Screenshot(width: 400, height: 300, rgb: rgb).ppm).write(to: URL(fileURLWithPath: pictures + "/zz-blue.ppm"))
        chmod(pictures + "/zz-blue.ppm", 0o644)
        // Kept pictures and the report elsewhere: eog would show them as next pictures.
        let out = NSTemporaryDirectory() + "gesturekit-drive-kept-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: pictures)
            try? FileManager.default.removeItem(atPath: out)
        }
        let swipe = Fixtures.path("ts-pixel-tablet-nvt-swipe-1f.evemu")
        func picture(_ name: String) throws -> Screenshot {
            try Screenshot(png: Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))), path: name)
        }

        // The Swift API: the kept pictures of before and after. The Pixel Tablet's swipe
        // (portrait, 0…1599 × 0…2559) mapped onto the 1280 × 800 output moves the finger 430
        // points left: eog's horizontal pan past 200 points is "next picture".
        do {
            let session = try DriveSession.start(.init(app: ["eog", "--new-instance", red], user: CompositorUser.name))
            defer { session.stop() }
            let recorded = try session.compare(with: out + "/red.png")
            #expect(recorded.outcome == .recorded, "a missing kept picture is recorded: \(recorded)")
            let report = try session.replay(swipe)
            #expect(report.mode == .mapped && report.touches == 1, "the tablet's swipe is mapped onto the session's touchscreen: \(report)")
            _ = try session.waitForScreen("the next picture, the blue one", timeout: 10) {
                $0.count(of: blue, tolerance: Self.tolerance) >= 100_000 && $0.count(of: Self.red, tolerance: Self.tolerance) < 100
            }
            #expect(try session.compare(with: out + "/blue.png").outcome == .recorded)
        }
        #expect(try picture("red.png").count(of: Self.red, tolerance: Self.tolerance) >= 2000, "the first kept picture shows the red square")
        #expect(try picture("blue.png").count(of: blue, tolerance: Self.tolerance) >= 100_000, "the second shows the blue picture")

        // The command: the replay seen by a comparison that waits for the blue picture (at most
        // 2 s: eog shows it about 0.6 s after the swipe), then a comparison that cannot match
        // (the red one, decided after those 2 s), the steps after it skipped.
        let run = try runProcess(builtProduct("gesturekit"), [
            "drive", "--user", CompositorUser.name, "--junit", out + "/report.xml", "--compare-timeout", "2",
            "--step", "screenshot \(out)/grim.png",
            "--step", "compare \(out)/grim.png",
            "--step", "replay \(swipe)",
            "--step", "compare \(out)/blue.png 2",
            "--step", "compare \(out)/red.png",
            "--step", "tap center",
            "--", "eog", "--new-instance", red,
        ])
        // A failed session keeps its files, and says where: they go with the test's.
        if let kept = run.errors.split(separator: "\n").first(where: { $0.contains("are kept in ") })?.components(separatedBy: "are kept in ").last {
            try? FileManager.default.removeItem(atPath: kept.trimmingCharacters(in: .whitespaces))
        }
        #expect(run.status == 1, "the last comparison fails the session: status 1: \(run)")
        #expect(run.output.contains("matches \(out)/grim.png"), "the screen matches grim's own PNG of it: \(run.output)")
        #expect(run.output.contains("replay \(swipe): mapped from \"NVTCapacitiveTouchScreen\""), "the swipe is mapped from the tablet's touchscreen: \(run.output)")
        #expect(run.output.contains("matches \(out)/blue.png"), "after the replay the screen matches the blue picture: \(run.output)")
        #expect(run.errors.contains("the screen differs from \(out)/red.png") && run.errors.contains("more than the tolerance of 1 %")
                && run.errors.contains("\(out)/red.actual.png"),
                "the failure names the kept picture, the share of pixels that differ, the tolerance and the screenshot: \(run.errors)")
        let actual = try picture("red.actual.png")
        #expect(actual.count(of: blue, tolerance: Self.tolerance) >= 100_000, "the screenshot kept beside the red picture shows what the screen showed: the blue picture")

        let doc = JUnitDocument(try String(contentsOfFile: out + "/report.xml", encoding: .utf8))
        #expect(doc.error == nil, "the report is well-formed XML: \(String(describing: doc.error))")
        let cases = doc.cases
        #expect(cases.map(\.name) == ["start eog", "step 1: screenshot \(out)/grim.png", "step 2: compare \(out)/grim.png 1",
                                      "step 3: replay \(swipe)", "step 4: compare \(out)/blue.png 2", "step 5: compare \(out)/red.png 1",
                                      "step 6: tap center"], "a case for the start and each step: \(cases.map(\.name))")
        #expect(cases.prefix(5).allSatisfy { $0.outcome == nil }, "the start and the first four steps passed")
        #expect(cases.count == 7 && cases[5].outcome?.name == "failure" && cases[5].outcome?.text.contains("differs from") == true,
                "step 5 failed, with its message")
        #expect(cases.count == 7 && cases[6].outcome?.name == "skipped", "step 6 was not run")
        #expect(doc.all("system-out").first?.text.contains("mapped from") == true, "drive's lines are the suite's output")
    }

    // MARK: GestureKit's own listener as the app

    /// A screen-edge pan from the left edge, a pan that waits for it to fail, and a double tap.
    static let edgeScene = """
        {"recognizers": [
          {"id": "edgePan", "kind": "screenEdgePan", "view": "root", "edges": ["left"]},
          {"id": "pan", "kind": "pan", "view": "root", "requireToFail": ["edgePan"]},
          {"id": "doubleTap", "kind": "tap", "view": "root", "taps": 2}]}
        """

    /// `gesturekit listen --wayland --json` with `edgeScene`, from a directory the session's
    /// user can read (removed by the caller).
    static func listener() throws -> (app: [String], directory: String) {
        let dir = NSTemporaryDirectory() + "gesturekit-drive-listener-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        try FileManager.default.copyItem(atPath: builtProduct("gesturekit"), toPath: dir + "/gesturekit")
        chmod(dir + "/gesturekit", 0o755)
        try edgeScene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        chmod(dir + "/scene.json", 0o644)
        return ([dir + "/gesturekit", "listen", "--wayland", "--json", "--scene", dir + "/scene.json"], dir)
    }

    /// The listener's recognitions ("pan ended") once `last` is among them (at most 10 s).
    static func recognitions(of session: DriveSession, until last: String) -> [String] {
        let deadline = Date().addingTimeInterval(10)
        var seen = JSONLine.recognized(JSONLine.parse(session.appLog))
        while !seen.contains(last) && Date() < deadline {
            usleep(50_000)
            seen = JSONLine.recognized(JSONLine.parse(session.appLog))
        }
        return seen
    }

    @Test("two sessions side by side are apart: an edge swipe in one and a fling in the other, made at the same time, each reach only their own app (GestureKit's listener), each its own recognizer")
    func sideBySide() throws {
        let (app, dir) = try Self.listener()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        /// What each side saw, and a barrier: both sessions are up before either gesture.
        final class Sides: @unchecked Sendable {
            let condition = NSCondition()
            var up = 0
            var seen: [Int: [String]] = [:]
            var failures: [Int: String] = [:]
            var directories: [Int: String] = [:]
            func arrive() {
                condition.lock()
                up += 1
                condition.broadcast()
                while up < 2 { if !condition.wait(until: Date().addingTimeInterval(90)) { break } }
                condition.unlock()
            }
            func set(_ i: Int, seen lines: [String]? = nil, failure: String? = nil, directory: String? = nil) {
                condition.lock()
                if let lines { seen[i] = lines }
                if let failure { failures[i] = failure }
                if let directory { directories[i] = directory }
                condition.unlock()
            }
        }
        let sides = Sides()
        let steps = ["edge-swipe left 300", "fling 640,400 300,0 1500"]
        let expected = ["edgePan ended", "pan ended"]
        let threads = (0..<2).map { i in
            Thread {
                var session: DriveSession?
                do {
                    session = try DriveSession.start(.init(app: app, user: CompositorUser.name))
                    sides.set(i, directory: session!.directory)
                    sides.arrive()
                    try session!.perform(DriveStep(parsing: steps[i]))
                    sides.set(i, seen: Self.recognitions(of: session!, until: expected[i]))
                } catch {
                    sides.set(i, failure: "\(error)\n\(session?.appLog ?? "")")
                    sides.arrive()
                }
                session?.stop()
            }
        }
        threads.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(180)
        while threads.contains(where: { !$0.isFinished }) && Date() < deadline { usleep(50_000) }
        sides.condition.lock()
        defer { sides.condition.unlock() }
        #expect(sides.failures.isEmpty, "both sessions start and take their gesture: \(sides.failures)")
        #expect(Set(sides.directories.values).count == 2, "each session has its own directory: \(sides.directories)")
        let edge = sides.seen[0] ?? [], fling = sides.seen[1] ?? []
        #expect(edge.contains("edgePan began") && edge.contains("edgePan ended") && !edge.contains("pan began"),
                "the edge swipe's app recognizes the screen-edge pan, and the plain pan (which waits for it to fail) does not begin: \(edge)")
        #expect(fling.contains("pan began") && fling.contains("pan ended") && !fling.contains("edgePan began"),
                "the fling's app recognizes the pan, and the left edge's pan does not begin: \(fling)")
        #expect(!edge.contains("pan ended") && !fling.contains("edgePan ended"),
                "neither app recognizes the other session's gesture: \(edge) and \(fling)")
    }

    @Test("a GestureKit input recording of a double tap, replayed into GestureKit's listener under sway, is a double tap there")
    func inputRecordingReplayed() throws {
        let (app, dir) = try Self.listener()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recording = dir + "/double-tap.input.jsonl"
        _ = try runProcess(builtProduct("gesturekit"), ["replay", Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu"), "--record", recording],
                           output: .discard, errors: .discard)
        let session = try DriveSession.start(.init(app: app, user: CompositorUser.name))
        defer { session.stop() }
        let report = try #require(try session.perform(DriveStep(parsing: "replay \(recording)")))
        #expect(report.contains("input recording of a 1000×1000 point window"), "the replay says the recording's window was scaled: \(report)")
        let seen = Self.recognitions(of: session, until: "doubleTap ended")
        #expect(seen.filter { $0 == "doubleTap ended" }.count == 1 && !seen.contains("pan began"),
                "the listener recognizes one double tap, and no pan: \(seen)")
    }

    @Test("an app that is not there is named before anything starts")
    func appMissing() throws {
        #expect(throws: DriveError.appNotFound(program: "gesturekit-no-such-app")) {
            _ = try DriveSession.start(.init(app: ["gesturekit-no-such-app"], user: CompositorUser.name))
        }
    }

    @Test("an app that ends before its window is mapped is named, with its status and output")
    func appEnds() throws {
        do {
            let session = try DriveSession.start(.init(app: ["/bin/sh", "-c", "echo the app gave up >&2; exit 3"],
                                                       user: CompositorUser.name, startTimeout: 30, keepFilesOnFailure: false))
            session.stop()
            Issue.record("the session started, though the app exited at once")
        } catch let error as DriveError {
            guard case let .appExited(status, log) = error else {
                Issue.record("the error names the app's end: \(error)")
                return
            }
            #expect(status == 3, "the app's exit status is reported: \(error)")
            #expect(log.contains("the app gave up"), "the app's output is reported: \(error)")
        }
    }
}
