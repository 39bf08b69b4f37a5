import Foundation
import Testing
import GestureTestSupport

/// Drags between two apps through sway's data device (`wl_data_device`): two `gesturekit
/// listen --wayland` windows side by side, the left one's view with a drag interaction, the
/// right one's with a drop interaction, and a mouse (umockdev, read by sway's libinput)
/// pressing on the left, moving to the right and releasing. Sway 1.7–1.10 carries a drag begun by the pointer; one begun by a touch reaches
/// no target there (docs/SEMANTICS.md, "Drag and drop between apps").
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct DragBetweenAppsTests {
    static let source = """
    {"screen": [500, 1000], "views": [{"id": "photo", "frame": [0, 0, 500, 1000]}],
     "interactions": [{"id": "lift", "kind": "drag", "view": "photo",
                       "items": [{"text/uri-list": "file:///photos/a.jpg", "text/plain": "a.jpg"}]}]}
    """
    static func target(proposal: String) -> String {
        """
        {"screen": [500, 1000], "views": [{"id": "inbox", "frame": [0, 0, 500, 1000]}],
         "interactions": [{"id": "drop", "kind": "drop", "view": "inbox", "accepts": ["text/uri-list"], "proposal": "\(proposal)"}]}
        """
    }

    /// An evemu trace: `fixture`'s device description and `events` (time, type, code, value).
    /// Seconds from the gate's opening to the first event of a trace: sway's tiling of the
    /// second window is applied within it.
    static let lead = 1.0

    static func trace(of fixture: String, _ events: [(Double, Int, Int, Int)]) throws -> String {
        let events = [(0.0, syn, 0, 0)] + events.map { ($0.0 + lead, $0.1, $0.2, $0.3) }
        let text = try String(contentsOfFile: Compositor.fixture(fixture), encoding: .utf8)
        let header = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("E:") && !$0.isEmpty }
        let lines = events.map { String(format: "E: %.6f %04x %04x %d", 1_700_000_000 + $0.0, $0.1, $0.2, $0.3) }
        let path = NSTemporaryDirectory() + "gesturekit-drag-\(UUID().uuidString).evemu"
        try (header.joined(separator: "\n") + "\n" + lines.joined(separator: "\n") + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let syn = 0, key = 1, rel = 2, abs = 3

    /// The drag as a mouse's events (the saitek mouse's description, with sway's pointer
    /// acceleration flat: a unit is a point): to the top left corner (the cursor stops
    /// there), to (250, 500) in the left window, the left button pressed, 25 moves of 20 pt to
    /// the right every 20 ms (to (750, 500), in the right window), the button released.
    static func mouseDrag() throws -> String {
        var events: [(Double, Int, Int, Int)] = []
        func frame(_ t: Double, _ items: [(Int, Int, Int)]) {
            events += items.map { (t, $0.0, $0.1, $0.2) } + [(t, syn, 0, 0)]
        }
        let btnLeft = 272
        frame(0, [(rel, 0, -2000), (rel, 1, -2000)])
        frame(0.05, [(rel, 0, 250), (rel, 1, 500)])
        frame(0.3, [(key, btnLeft, 1)])
        for i in 1...25 { frame(0.4 + Double(i) * 0.02, [(rel, 0, 20)]) }
        frame(1.1, [(key, btnLeft, 0)])
        frame(1.5, [(rel, 0, 0)])
        return try trace(of: "synthetic-mouse-saitek-double-click.evemu", events)
    }

    /// The drag as a touchscreen's (the Wacom ISDv4 E6's, 2776 × 1569 units over the 1000 ×
    /// 1000 output): a finger down at (250, 500), held still 0.7 s (the lift is at 0.5 s),
    /// moved to (750, 500) in 40 frames of 10 ms, lifted; then a tap at (250, 500).
    static func touchDrag() throws -> String {
        var events: [(Double, Int, Int, Int)] = []
        func frame(_ t: Double, _ items: [(Int, Int, Int)]) {
            events += items.map { (t, $0.0, $0.1, $0.2) } + [(t, syn, 0, 0)]
        }
        let y = 785, btnTouch = 0x14a
        func x(_ points: Double) -> Int { Int((points / 1000 * 2776).rounded()) }
        frame(0, [(abs, 0x39, 1), (abs, 0x35, x(250)), (abs, 0x36, y), (key, btnTouch, 1), (abs, 0, x(250)), (abs, 1, y)])
        for i in 1...40 {
            let px = x(250 + Double(i) * 12.5)
            frame(0.7 + Double(i) * 0.01, [(abs, 0x35, px), (abs, 0, px)])
        }
        frame(1.3, [(abs, 0x39, -1), (key, btnTouch, 0)])
        // A tap on the left window 0.7 s later: new input, after which a drag the compositor
        // said nothing more of is over.
        frame(2.0, [(abs, 0x39, 2), (abs, 0x35, x(250)), (abs, 0x36, y), (key, btnTouch, 1), (abs, 0, x(250)), (abs, 1, y)])
        frame(2.05, [(abs, 0x39, -1), (key, btnTouch, 0)])
        return try trace(of: "synthetic-ts-wacom-long-press-drag-1f.evemu", events)
    }

    struct Outcome {
        var source: [Line]
        var target: [Line]
        var sourceErrors: String
        var targetErrors: String
        var sway: String

        func drags(_ lines: [Line]) -> [String] {
            lines.filter { $0.type == "drag" }.map { line in
                [line.phase, line.object["view"] as? String ?? "-", line.object["operation"] as? String ?? ""].joined(separator: " ")
            }
        }
        var account: String {
            "source: \(drags(source))\ntarget: \(drags(target))\nsource stderr: \(sourceErrors.suffix(1500))\ntarget stderr: \(targetErrors.suffix(1500))\nsway: \(sway.suffix(1500))"
        }
    }

    /// KWin's window rules for the two apps (KWin nested): the source's window at x 0, the
    /// target's at x 500, each 500 × 1000 with no border (their titles name their scenes).
    static let kwinRules = "[General]\ncount=2\nrules=1,2\n\n"
        + kwinRule(1, "the source app on the left", scene: "source.json", x: 0)
        + kwinRule(2, "the target app on the right", scene: "target.json", x: 500)

    static func kwinRule(_ number: Int, _ description: String, scene: String, x: Int) -> String {
        """
        [\(number)]
        Description=\(description)
        title=gesturekit listen: \(scene)
        titlematch=1
        position=\(x),0
        positionrule=2
        size=500,1000
        sizerule=2
        noborder=true
        noborderrule=2


        """
    }

    /// An app of the test: `gesturekit listen --wayland` (a plain Wayland window) or
    /// `gesturekit-gtk` (GestureGTK's window: GTK's drag source and drop target).
    enum App {
        case listen, gtk

        /// The shell command of the app with `scene`, saying it is ready in `ready` once its
        /// window is `readySize` (GTK) or settled (listen); `$D` is the session's directory.
        func command(scene: String, ready: String, readySize: String) -> String {
            switch self {
            case .listen:
                "$D/gesturekit listen --wayland --json --verbose --duration 60 --scene $D/\(scene) --ready-file $D/\(ready)"
            case .gtk:
                "env GDK_BACKEND=wayland GSK_RENDERER=cairo GTK_A11Y=none $D/gesturekit-gtk --json --report-drags --duration 60 "
                    + "--scene $D/\(scene) --ready-file $D/\(ready) --ready-size \(readySize)"
            }
        }
    }

    /// Starts both apps, drags (with the mouse, or a finger) from (250, 500) on the left to
    /// (750, 500) on the right, and waits for the source's drag to end.
    func drag(proposal: String, touch: Bool = false, nested: Compositor.Nested? = nil,
              from source: App = .listen, to target: App = .listen) throws -> Outcome {
        let mouse = try touch ? Self.touchDrag() : Self.mouseDrag()
        let scenes = NSTemporaryDirectory() + "gesturekit-drag-scenes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scenes, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: mouse)
            try? FileManager.default.removeItem(atPath: scenes)
        }
        try Self.source.write(toFile: scenes + "/source.json", atomically: true, encoding: .utf8)
        try Self.target(proposal: proposal).write(toFile: scenes + "/target.json", atomically: true, encoding: .utf8)
        try Self.kwinRules.write(toFile: scenes + "/kwinrulesrc", atomically: true, encoding: .utf8)
        // The two apps, one after the other: sway tiles the second to the right of the first
        // (the first is the whole output until then).
        try """
        D=$1
        \(source.command(scene: "source.json", ready: "source.ready", readySize: "1000x1000")) > $D/source.out 2> $D/source.err &
        while [ ! -e $D/source.ready ]; do sleep 0.05; done
        exec \(target.command(scene: "target.json", ready: "ready", readySize: "500x1000"))
        """.write(toFile: scenes + "/apps.sh", atomically: true, encoding: .utf8)
        let client = "sh CLIENT_DIR/apps.sh CLIENT_DIR"
        let files = ["source.json", "target.json", "apps.sh"] + (nested == .kwin ? ["kwinrulesrc"] : [])
        let gtk = source == .gtk || target == .gtk ? [GTKCompositorTests.tool] : []
        let session = try Compositor.start(trace: mouse, client: client, copy: files.map { scenes + "/" + $0 } + gtk,
                                           swayConfig: "input type:pointer {\n accel_profile flat\n pointer_accel 0\n}",
                                           nested: nested, readiness: nested == .kwin ? .fileThenSettle(Compositor.kwinSettle) : .file,
                                           fullscreen: nested != nil)
        defer {
            session.stopCompositor()
            session.remove()
        }
        #expect(session.waitForRecording(thenSeconds: 0), "both windows are shown: \(session.errors)")
        // The second app's ready file can come before sway applies the tiling (its
        // transaction waits for both apps' new frames): the events begin 1 s after the gate.
        if nested == nil {
            #expect(session.wait(seconds: 10) { Self.windowWidths(session) == [500, 500] },
                    "sway tiles the two windows side by side: \(Self.windowWidths(session))")
        }
        _ = session.wait(seconds: 10) {
            Line.parse(session.read("source.out")).contains { $0.type == "drag" && $0.phase == "ended" }
        }
        usleep(300_000)
        return Outcome(source: Line.parse(session.read("source.out")), target: Line.parse(session.output + session.read("nested.out")),
                       sourceErrors: session.read("source.err"), targetErrors: session.errors + session.read("nested.err"),
                       sway: session.swayLog + session.read("kwin.log"))
    }

    static func windowWidths(_ session: Compositor.Session) -> [Int] {
        guard let (status, data) = try? session.swaymsgOutput(["-t", "get_tree"]), status == 0,
              let tree = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        var widths: [Int] = []
        func walk(_ node: [String: Any]) {
            if node["app_id"] is String, let rect = node["rect"] as? [String: Any], let w = rect["width"] as? Int { widths.append(w) }
            for child in (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? []) { walk(child) }
        }
        walk(tree)
        return widths
    }

    @Test("UIKit: a drag that leaves its app is carried by the system; dropped on another app's target proposing copy, that app performs the drop, reads the text/uri-list, and the source is told it ended with copy")
    func copyToAnotherApp() throws {
        let outcome = try drag(proposal: "copy")
        let source = outcome.drags(outcome.source), target = outcome.drags(outcome.target)
        #expect(source.first == "began photo cancel", "the left app's items lift as its pointer drags\n\(outcome.account)")
        #expect(outcome.source.contains { $0.phase == "moved" && ($0.object["reason"] as? String ?? "").contains("the compositor carries it") },
                "the drag leaves the left window and the compositor carries it\n\(outcome.account)")
        #expect(source.last == "ended photo copy", "the source is told the drag ended with copy\n\(outcome.account)")
        #expect(target.contains("entered inbox cancel"), "the drag comes over the right app's drop target\n\(outcome.account)")
        #expect(target.contains("dropped inbox copy"), "the right app performs the drop\n\(outcome.account)")
        let entered = outcome.target.first { $0.phase == "entered" }?.time ?? .nan
        let dropped = outcome.target.first { $0.phase == "dropped" }?.time ?? .nan
        #expect(dropped > entered, "the right app's drag lines are on its clock: the drop (0.4 s after the entry in the mouse's events) comes after it (\(entered) s, \(dropped) s)")
        let data = outcome.target.filter { $0.type == "dropData" }
        #expect(data.count == 1 && data.first?.object["contentType"] as? String == "text/uri-list"
                && data.first?.object["data"] as? String == "file:///photos/a.jpg",
                "the right app reads the dropped item's text/uri-list from the left app: \(data.map(\.object))\n\(outcome.account)")
    }

    @Test("UIKit: dropped on another app's target proposing forbidden, nothing is performed and the source is told the drag ended with cancel")
    func forbiddenTarget() throws {
        let outcome = try drag(proposal: "forbidden")
        let source = outcome.drags(outcome.source), target = outcome.drags(outcome.target)
        #expect(source.first == "began photo cancel", "the left app's items lift\n\(outcome.account)")
        #expect(source.last == "ended photo cancel", "the source is told the drag ended with cancel\n\(outcome.account)")
        #expect(target.contains("entered inbox cancel"), "the drag comes over the right app's drop target\n\(outcome.account)")
        #expect(target.contains("moved inbox forbidden"), "the target proposes forbidden\n\(outcome.account)")
        #expect(!target.contains { $0.hasPrefix("dropped") }, "no drop is performed\n\(outcome.account)")
        #expect(!outcome.target.contains { $0.type == "dropData" }, "no data is read\n\(outcome.account)")
    }

    @Test("sway: a drag begun by a touch reaches no other app, and ends with cancel at the lift; a touch the compositor takes for the drag is cancelled, not left down")
    func touchDragUnderSway() throws {
        let outcome = try drag(proposal: "copy", touch: true)
        let source = outcome.drags(outcome.source), target = outcome.drags(outcome.target)
        #expect(source.first == "began photo cancel", "the left app's items lift after the finger is held 0.5 s\n\(outcome.account)")
        #expect(source.last == "ended photo cancel", "the source is told cancel\n\(outcome.account)")
        #expect(target.isEmpty, "sway sends the right app no enter for a touch drag (swaywm/sway PR #9182)\n\(outcome.account)")
        if outcome.sourceErrors.contains("a touch drag") {
            // sway 1.8 on: the touch's coordinates pass the window's edge, the drag is handed
            // over, and sway sends the touch no more. sway 1.10 keeps the drag's focus on the
            // source's own window (`enter` there), drops it there and cancels it.
            #expect(outcome.source.contains { $0.type == "touches" && $0.phase == "cancelled" },
                    "the touch sway took is cancelled, not left down\n\(outcome.account)")
        } else {
            // sway 1.7 sends a touch's motion over another window in that window's coordinates
            // (x 0 at its left edge): the touch never leaves the left window by its numbers,
            // and the drag is dropped there, on no target.
            let xs = outcome.source.compactMap { ($0.object["location"] as? [NSNumber])?.first?.doubleValue }
            #expect(xs.allSatisfy { $0 < 500 }, "sway 1.7: the touch's x stays within the left window: \(xs)\n\(outcome.account)")
        }
    }

    @Test("KWin nested: a drag begun by a touch is carried to another app: held 0.5 s, moved into the other app's window and lifted there, that app performs the drop and reads the text/uri-list, the source is told copy, and the touch KWin takes is cancelled",
          .enabled(if: Compositor.Nested.kwin.installed, "KWin is not installed (scripts/install-deps.sh installs it)"))
    func touchDragUnderKWin() throws {
        let outcome = try drag(proposal: "copy", touch: true, nested: .kwin)
        let source = outcome.drags(outcome.source), target = outcome.drags(outcome.target)
        #expect(source.first == "began photo cancel", "the left app's items lift after the finger is held 0.5 s\n\(outcome.account)")
        #expect(outcome.sourceErrors.contains("a touch drag"), "the left app hands KWin a touch drag\n\(outcome.account)")
        #expect(outcome.source.contains { $0.type == "touches" && $0.phase == "cancelled" },
                "the touch KWin took is cancelled, not left down\n\(outcome.account)")
        #expect(source.last == "ended photo copy", "the source is told the drag ended with copy\n\(outcome.account)")
        #expect(target.contains("dropped inbox copy"), "the right app performs the drop\n\(outcome.account)")
        let data = outcome.target.filter { $0.type == "dropData" }
        #expect(data.first?.object["data"] as? String == "file:///photos/a.jpg",
                "the right app reads the item's text/uri-list: \(data.map(\.object))\n\(outcome.account)")
    }

    @Test("GTK and a plain Wayland window: a drag from GestureGTK's window (GTK's drag source) dropped on a plain Wayland window's target is read there as text/uri-list, and the GTK source is told copy",
    )
    func fromGTK() throws {
        let outcome = try drag(proposal: "copy", from: .gtk)
        let source = outcome.drags(outcome.source), target = outcome.drags(outcome.target)
        #expect(outcome.sourceErrors.contains("gdk_drag_begin"), "GTK begins the drag\n\(outcome.account)")
        #expect(source.last == "ended photo copy", "the GTK app is told the drag ended with copy\n\(outcome.account)")
        #expect(target.contains("dropped inbox copy"), "the plain window performs the drop\n\(outcome.account)")
        #expect(outcome.target.first { $0.type == "dropData" }?.object["data"] as? String == "file:///photos/a.jpg",
                "the plain window reads the text/uri-list GTK offered\n\(outcome.account)")
    }

    @Test("GTK and a plain Wayland window: a drag from a plain Wayland window dropped on GestureGTK's window (GTK's drop target) is performed there, its data read through GTK, and the source is told copy")
    func toGTK() throws {
        let outcome = try drag(proposal: "copy", to: .gtk)
        let source = outcome.drags(outcome.source), target = outcome.drags(outcome.target)
        #expect(source.last == "ended photo copy", "the plain window's drag ends with copy\n\(outcome.account)")
        #expect(target.contains("dropped inbox copy"), "the GTK app performs the drop\n\(outcome.account)")
        #expect(outcome.target.first { $0.type == "dropData" }?.object["data"] as? String == "file:///photos/a.jpg",
                "the GTK app reads the text/uri-list through gdk_drop_read_async\n\(outcome.account)")
    }
}
