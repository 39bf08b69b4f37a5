import Foundation
import GestureKit
import Testing
import GestureTestSupport

/// What GestureGTK costs beside GTK's own gestures (Benchmarks/README.md, "GTK's gestures and
/// GestureGTK's"): one recording of five swipes up, replayed under headless sway into
/// `gtk-widgets --page scrolling` built for release, once with GestureGTK's recognizers (a
/// `SwipeGestureRecognizer` and the scrolled window's drag as a recognizer on each list, a
/// long press on one) and once with GTK's own gestures for the same jobs (`--gtk-gestures`:
/// a `GtkGestureSwipe` on each list, a `GtkGestureLongPress` on one, no GestureGTK), each
/// under callgrind. What it counts: GTK's dispatch of every input event, the same events in
/// both runs (`gtk-widgets --count-dispatch`: the window surface's event handler, GtkWindow's,
/// run from one function of the app's, `DispatchCount`, whose inclusive cost is GTK's picking,
/// every controller phase, GTK's gestures and GestureGTK's reader, and none of the drawing);
/// GestureGTK's own callbacks from GTK (the window's reader and stopper, the scrolled windows'
/// drags as recognizers), inclusive; and each run's whole process, drawing included (the two
/// runs draw different numbers of frames, so that difference says nothing of gestures).
///
/// A benchmark, not part of `make test`: `make bench-gtk-cost` (about two minutes). It
/// checks that both runs did their jobs and writes the figures to out/gtk-gesture-cost.txt.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["GESTUREKIT_GTK_COST"] != nil, "a benchmark: make bench-gtk-cost"),
       .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct GTKGestureCostTests {
    static let tool = packageRoot.path + "/.build/release/gtk-widgets"

    struct Run {
        /// Instructions of the whole process over the run (start-up, drawing and all).
        let total: Int
        /// Of them, in GTK's dispatch of the input events (`DispatchCount`), and how many
        /// events it dispatched.
        let dispatch: Int
        let events: Int
        /// Of them, inside GestureGTK's controllers' and GTK gestures' callbacks (the reader,
        /// the stopper, the scrolled windows' drags as recognizers).
        let gestureGTK: Int
        let output: String
    }

    /// One run under callgrind: its totals, read by callgrind_annotate.
    static func measure(_ touches: Touches, gtkGestures: Bool) throws -> Run {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-cost.evemu"
        try touches.evemu().write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Generous: under callgrind the app runs some 50 times slower and works through the
        // touches' queue after they arrive.
        let duration = 40.0
        let session = try Compositor.start(
            trace: path, listenSeconds: duration,
            client: "env GDK_BACKEND=wayland GSK_RENDERER=cairo GTK_A11Y=none valgrind --tool=callgrind "
                + "--callgrind-out-file=CLIENT_DIR/callgrind.out "
                + "CLIENT_DIR/gtk-widgets --json --actions-only --count-dispatch --page scrolling --ready-file CLIENT_DIR/ready --duration \(duration)"
                + (gtkGestures ? " --gtk-gestures" : ""),
            copy: [tool], readiness: .file)
        defer { session.remove() }
        session.finish(timeout: duration + 90)
        let log = "stdout: \(session.output.suffix(3000))\nstderr: \(session.errors.suffix(3000))"
        #expect(session.clientStatus == 0, "gtk-widgets exits with status 0 under callgrind; \(log)")
        // Kept in out/ for reading (callgrind_annotate --inclusive=yes out/gtk-gesture-cost-….callgrind).
        let kept = packageRoot.path + "/out/gtk-gesture-cost-\(gtkGestures ? "gtk" : "gesturegtk").callgrind"
        try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: kept)
        try? FileManager.default.copyItem(atPath: session.directory + "/callgrind.out", toPath: kept)
        let annotate = try runProcess("/usr/bin/callgrind_annotate", ["--inclusive=yes", "--threshold=100", kept],
                                      output: .capture, errors: .capture)
        let text = annotate.output
        #expect(annotate.status == 0, "callgrind_annotate reads the run's profile: \(annotate.errors.prefix(500)); \(log)")
        func count(_ line: Substring) -> Int { Int(line.split(separator: " ").first?.replacingOccurrences(of: ",", with: "") ?? "") ?? 0 }
        let total = text.split(separator: "\n").first { $0.contains("PROGRAM TOTALS") }.map(count) ?? 0
        // GTK's dispatch: the app's handler in GtkWindow's place (DispatchCount), inclusive;
        // the largest line, as below.
        let dispatch = text.split(separator: "\n").filter { $0.contains("WidgetsDispatchEvent") }.map(count).max() ?? 0
        let end = JSONLine.parse(session.output).last { $0.type == "end" }
        let events = (end?.object["dispatched"] as? NSNumber)?.intValue ?? 0
        // GestureGTK's callbacks from GTK: the window's reader and stopper (gtkWindowEvent,
        // gtkWindowEventAfterClaims), the GTK gestures' recognizers (gtkHandle…). Inclusive,
        // and none calls another, so they add up; callgrind_annotate lists a function once for
        // each source file its instructions come from (and a merged thunk, "…ToTm", under
        // its callers), each line with the whole inclusive cost: the largest line is the one.
        let lines = text.split(separator: "\n").filter { $0.contains("GestureGTK") }
        let ours = ["14gtkWindowEvent", "25gtkWindowEventAfterClaims", "21gtkHandleStateChanged", "16gtkHandleUpdated",
                    "14gtkHandleEnded", "18gtkHandleCancelled"].map { name in
            lines.filter { $0.contains("10GestureGTK" + name) }.map(count).max() ?? 0
        }.reduce(0, +)
        return Run(total: total, dispatch: dispatch, events: events, gestureGTK: ours, output: session.output)
    }

    @Test("GestureGTK's handling of a touch beside GTK's own gestures: instructions per input frame in GTK's dispatch, both ways, one recording")
    func gestureGTKBesideGTK() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "build gtk-widgets for release first (make bench-gtk-cost does)")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind"), "install valgrind")
        var t = Touches()
        for column in 0..<5 {
            t.swipe(fingers: [Point(x: 100 + 200 * Double(column), y: 800)], by: Point(x: 0, y: -400), from: 1.2 * Double(column), over: 0.3,
                    restBefore: column == 4 ? 0.3 : 0)
        }
        let gtk = try Self.measure(t, gtkGestures: true)
        let kit = try Self.measure(t, gtkGestures: false)
        #expect(gtk.output.contains("GtkGestureSwipe swipe"), "GTK's own swipe gestures saw the swipes: \(gtk.output.suffix(2000))")
        #expect(kit.output.contains("\"swiped\""), "GestureKit's swipes recognized: \(kit.output.suffix(2000))")
        #expect(gtk.total > 0 && kit.total > 0 && kit.gestureGTK > 0, "callgrind counted both runs: \(gtk.total), \(kit.total), \(kit.gestureGTK)")
        #expect(gtk.dispatch > 0 && kit.dispatch > 0 && gtk.events > 0 && kit.events > 0,
                "both runs counted GTK's dispatch of their events (--count-dispatch): \(gtk.dispatch) over \(gtk.events) events, \(kit.dispatch) over \(kit.events)")
        let frames = Double(t.frameCount)
        func per(_ n: Int, _ d: Int) -> String { d > 0 ? String(format: "%.0f", Double(n) / Double(d)) : "-" }
        func perFrame(_ n: Int) -> String { String(format: "%.0f", Double(n) / frames) }
        let report = """
        GTK's gestures and GestureGTK's (\(t.frameCount) input frames, five one-finger swipes; release build; instructions, callgrind)
        GTK's dispatch of the input events, GTK's own gestures: \(gtk.dispatch) over \(gtk.events) events, \(per(gtk.dispatch, gtk.events)) an event, \(perFrame(gtk.dispatch)) a frame
        GTK's dispatch of the input events, GestureGTK:         \(kit.dispatch) over \(kit.events) events, \(per(kit.dispatch, kit.events)) an event, \(perFrame(kit.dispatch)) a frame (\(String(format: "%.2f", Double(kit.dispatch) / Double(max(1, gtk.dispatch)))) times GTK's)
        of it, GestureGTK's callbacks from GTK (reader, stopper, the scrolled windows' drags as recognizers): \(kit.gestureGTK), \(perFrame(kit.gestureGTK)) a frame
        whole process, GTK's own gestures: \(gtk.total)
        whole process, GestureGTK:         \(kit.total) (difference \(kit.total - gtk.total), drawing included)

        """
        print(report)
        try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
        try report.write(toFile: packageRoot.path + "/out/gtk-gesture-cost.txt", atomically: true, encoding: .utf8)
    }
}
