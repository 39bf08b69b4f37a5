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

    static func eog() throws -> (DriveSession, picture: String) {
        let missing = ["eog", "sway", "grim", "umockdev-run"].filter { name in
            !(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh drive installs them)")
        let picture = try picture()
        // eog's own settings (its side pane) stay out of the way of the picture.
        let session = try DriveSession.start(.init(app: ["eog", "--new-instance", picture],
                                                   output: Size(width: 1280, height: 800), user: CompositorUser.name))
        return (session, picture)
    }

    /// The red square's bounds once eog shows the picture.
    static func square(_ session: DriveSession) throws -> Rect {
        let shot = try session.waitForScreen("the picture's red square", timeout: 20) {
            $0.count(of: red, tolerance: tolerance) >= 2000
        }
        return try #require(shot.bounds(of: red, tolerance: tolerance), "the picture's red square is on the screen")
    }

    @Test("eog: a two-finger pinch on the picture zooms it in, by the pinch's scale")
    func eogPinch() throws {
        let (session, picture) = try Self.eog()
        defer {
            session.stop()
            try? FileManager.default.removeItem(atPath: (picture as NSString).deletingLastPathComponent)
        }
        let before = try Self.square(session)
        #expect(abs(before.width - 50) <= 2, "eog shows the picture at 100 %: the square is 50 points wide; it is \(before.width)")
        let window = try #require(session.window)
        let centre = Point(x: before.midX - window.frame.minX, y: before.midY - window.frame.minY)
        try session.perform { try $0.pinch(at: centre, scale: 2, duration: .milliseconds(600)) }
        // GTK's zoom gesture scales by the fingers' distance over their distance at the
        // gesture's start; eog multiplies its zoom by it: the square ends about twice as wide.
        let shot = try session.waitForScreen("the square zoomed in", timeout: 10) {
            ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.width ?? 0) >= before.width * 1.5
        }
        let after = try #require(shot.bounds(of: Self.red, tolerance: Self.tolerance))
        let ratio = after.width / before.width
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

    @Test("eog: a one-finger drag pans a zoomed picture with the finger")
    func eogDrag() throws {
        let (session, picture) = try Self.eog()
        defer {
            session.stop()
            try? FileManager.default.removeItem(atPath: (picture as NSString).deletingLastPathComponent)
        }
        let before = try Self.square(session)
        let window = try #require(session.window)
        let centre = Point(x: before.midX - window.frame.minX, y: before.midY - window.frame.minY)
        // Four times as large, the picture (1600 × 1200) overflows eog's view, which can then pan.
        try session.perform { try $0.pinch(at: centre, scale: 4, duration: .milliseconds(600)) }
        let zoomedShot = try session.waitForScreen("the square zoomed in four times", timeout: 10) {
            ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.width ?? 0) >= before.width * 3
        }
        let zoomed = try #require(zoomedShot.bounds(of: Self.red, tolerance: Self.tolerance))
        try session.perform {
            try $0.drag(from: Point(x: zoomed.midX, y: zoomed.midY), to: Point(x: zoomed.midX - 200, y: zoomed.midY),
                        duration: .milliseconds(400))
        }
        let shot = try session.waitForScreen("the square moved left", timeout: 10) {
            ($0.bounds(of: Self.red, tolerance: Self.tolerance)?.midX ?? zoomed.midX) < zoomed.midX - 50
        }
        let after = try #require(shot.bounds(of: Self.red, tolerance: Self.tolerance))
        #expect(abs((zoomed.midX - after.midX) - 200) <= 20,
                "the picture follows the finger: a 200-point drag to the left moves the square 200 points left (±20: GTK's drag threshold); it moved \(zoomed.midX - after.midX)")
        #expect(abs(after.midY - zoomed.midY) <= 5, "a level drag does not move the picture up or down; it moved \(after.midY - zoomed.midY)")
    }

    @Test("eog: a tap on the zoom-in button zooms the picture in")
    func eogTap() throws {
        let (session, picture) = try Self.eog()
        defer {
            session.stop()
            try? FileManager.default.removeItem(atPath: (picture as NSString).deletingLastPathComponent)
        }
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

    @Test("gesturekit drive: a missing app and a bad step are named, with exit statuses 1 and 2")
    func command() throws {
        let tool = builtProduct("gesturekit")
        let missing = try runProcess(tool, ["drive", "--step", "tap center", "--", "gesturekit-no-such-app"])
        #expect(missing.status == 1 && missing.errors.contains("the app gesturekit-no-such-app was not found"),
                "a missing app ends drive with status 1, naming it: \(missing)")
        let bad = try runProcess(tool, ["drive", "--step", "pinch center", "--", "eog"])
        #expect(bad.status == 2 && bad.errors.contains("pinch needs a scale"), "a bad step ends drive with status 2, saying why: \(bad)")
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
