import Foundation
import GestureKit
import GestureLive
import Testing

/// Recordings through GTK 4 under a real compositor: recording → umockdev → sway's libinput →
/// Wayland → GTK's Wayland backend → GestureGTK (`gesturekit-gtk`, a scene in a
/// `GtkDrawingArea`) → the recognizers, read against the built-in decoder's replay of the same
/// recording, as `CompositorTests` reads GestureWayland's own window.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct GTKCompositorTests {
    static let tool = Compositor.packageRoot + "/.build/debug/gesturekit-gtk"

    init() throws {
        let missing = Compositor.missingPrograms()
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs sway and umockdev)")
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "gesturekit-gtk is built with the tests (swift build --build-tests)")
    }

    /// A whole session with `gesturekit-gtk` as sway's client, its output parsed after
    /// checking that it exited cleanly. GTK draws with cairo (GSK_RENDERER=cairo: the headless
    /// compositor has no GPU) and talks to no accessibility bus (there is no D-Bus session).
    static func run(_ fixture: String, scene: String? = nil) throws -> (gtk: [Line], builtin: [Line], errors: String) {
        let trace = Compositor.fixture(fixture)
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
            - LibinputReplay.leadInSeconds - LibinputReplay.tailSeconds
        let duration = Compositor.leadIn + length + Compositor.tail
        var copy = [tool]
        var sceneArgument = ""
        if let scene {
            let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-scene.json"
            try scene.write(toFile: path, atomically: true, encoding: .utf8)
            copy.append(path)
            sceneArgument = " --scene CLIENT_DIR/" + (path.split(separator: "/").last.map(String.init) ?? "")
        }
        let session = try Compositor.start(
            trace: trace, listenSeconds: duration,
            client: "env GDK_BACKEND=wayland GSK_RENDERER=cairo GTK_A11Y=none CLIENT_DIR/gesturekit-gtk --json --duration \(duration)\(sceneArgument)",
            copy: copy)
        defer { session.remove() }
        session.finish(timeout: duration + 20)
        #expect(session.clientStatus == 0,
                "\(fixture): gesturekit-gtk exits with status 0 at the end of its --duration; stderr: \(session.errors)\nsway: \(session.swayLog.suffix(1500))")
        return (Line.parse(session.output), try builtinReplay(trace, scene: scene), session.errors + "\nstdout: " + session.output.prefix(3000) + "\nsway: " + session.swayLog.suffix(800))
    }

    @Test("touchscreen tap, double tap and long press through sway and GTK read as the built-in replay reads them, at the same times",
          arguments: ["ts-wacom-isdv4-e6-tap-1f.evemu", "ts-wacom-isdv4-e6-double-tap-1f.evemu",
                      "synthetic-ts-wacom-long-press-drag-1f.evemu"])
    func touchscreen(_ fixture: String) throws {
        let (gtk, builtin, errors) = try Self.run(fixture)
        let a = Line.recognized(gtk), b = Line.recognized(builtin)
        #expect(!a.isEmpty, "GTK's touches are recognized as something: \(gtk.count) lines; stderr: \(errors)")
        #expect(a == b, "through GTK: \(a)\nbuilt-in: \(b)")
        let ta = CompositorTests.times(gtk), tb = CompositorTests.times(builtin)
        #expect(ta.count == tb.count)
        for (x, y) in zip(ta, tb) {
            #expect(abs(x - y) < 0.03 + 0.05 * y, "recognized at \(x) s through GTK, \(y) s in the replay")
        }
    }
}
