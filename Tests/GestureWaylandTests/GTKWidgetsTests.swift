import Foundation
import GestureKit
import Testing
import GestureTestSupport

/// Recognizers on a GTK app's real widgets (`GTKWindowInput`), read through the example app
/// `gtk-widgets` under headless sway with touches replayed through umockdev and sway's
/// libinput, as GTK apps get them; and with the mouse on Xvfb. The app's window is full
/// screen, 1000 × 1000 points: its header bar is 47 points tall, the list fills the left
/// half in rows of 100 points, the button is the right half's top 200 points and the picture
/// the rest (the app prints its layout when ready, and each test checks it first).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct GTKWidgetsTests {
    static let tool = builtProduct("gtk-widgets")

    init() throws {
        let missing = Compositor.missingPrograms()
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs sway and umockdev)")
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "gtk-widgets is built with the tests (swift build --build-tests)")
    }

    /// One line of the app's output.
    struct Event {
        let object: [String: Any]
        var type: String { object["type"] as? String ?? "" }
        var event: String { object["event"] as? String ?? "" }
        var recognizer: String { object["recognizer"] as? String ?? "" }
        var to: String { object["to"] as? String ?? "" }
        func point(_ key: String) -> Point? {
            guard let p = object[key] as? [NSNumber], p.count == 2 else { return nil }
            return Point(x: p[0].doubleValue, y: p[1].doubleValue)
        }
        func rect(_ name: String) -> Rect? {
            guard let layout = object["layout"] as? [String: [NSNumber]], let r = layout[name], r.count == 4 else { return nil }
            return Rect(x: r[0].doubleValue, y: r[1].doubleValue, width: r[2].doubleValue, height: r[3].doubleValue)
        }

        static func parse(_ text: String) -> [Event] {
            text.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map(Event.init)
            }
        }
    }

    /// A session of the app with `touches` replayed on a Dell Canvas 27 (five slots) once the
    /// app has drawn its window full screen: its output, and whether the touches reached it on
    /// time. The app records what its window's input received (`--record`); no replay can give
    /// what real widgets make of it, so a test expects its timeline (a double tap's two taps
    /// 0.15 s apart, a menu tapped 1.2 s after it opened) only when that recording holds the
    /// touches on time (`Delivery.compare`), and otherwise says so and checks what holds
    /// whatever the timing: nothing left stuck, the app freed. `judgeDelivery` false: the
    /// touches go to a window whose input is not the recorded one (the picture moved to a
    /// second window), so nothing is known of their timing.
    static func run(_ touches: Touches, arguments: String = "", seconds: Double? = nil, judgeDelivery: Bool = true,
                    layout: [(String, Rect)] = homeLayout, nested: Compositor.Nested? = nil,
                    whileRunning: ((Compositor.Session) throws -> Void)? = nil,
                    name: String = #function) throws -> (events: [Event], log: String, onTime: Bool) {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-widgets.evemu"
        try touches.evemu().write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let duration = seconds ?? (Compositor.readyToRecording + touches.length + Compositor.tail)
        let session = try Compositor.start(
            trace: path, listenSeconds: duration,
            client: "env GDK_BACKEND=wayland GSK_RENDERER=cairo GTK_A11Y=none CLIENT_DIR/gtk-widgets --json --check-lifetime "
                + "--ready-file CLIENT_DIR/ready --duration \(duration) --record CLIENT_DIR/\(Compositor.Session.recordingName) \(arguments)",
            copy: [tool], nested: nested, readiness: nested == .kwin ? .fileThenSettle(Compositor.kwinSettle) : .file)
        defer { session.remove() }
        try whileRunning?(session)
        session.finish(timeout: duration + 25)
        let log = "stdout: \(session.output.suffix(4000))\nstderr: \(session.errors.suffix(2000))\nsway: \(session.swayLog.suffix(600))"
        #expect(session.clientStatus == 0, "gtk-widgets exits with status 0 at the end of its --duration; \(log)")
        #expect(session.errors.contains("gtk-widgets: lifetime: everything freed"),
                "the app, its window input, engine and views are freed once released after the run; \(log)")
        let events = Event.parse(session.output)
        keep(session.output, as: name)
        keep(session.errors, as: name, suffix: ".err")
        try expectLayout(events, layout, log)
        guard judgeDelivery else { return (events, log, true) }
        let delivery = try Delivery.compare(recording: session.recording, fixture: path)
        #expect(delivery.sameSteps, "the window's input received the touches, nothing lost or invented: \(delivery); \(log)")
        if !delivery.onTime { print("*** gtk-widgets \(name): the touches did not arrive on time (\(delivery)): only what holds whatever the timing is checked ***") }
        return (events, log, delivery.onTime)
    }

    /// The app's whole output, kept in out/ for reading after a failure.
    static func keep(_ output: String, as name: String, suffix: String = ".jsonl") {
        let file = packageRoot.path + "/out/gtk-widgets-" + name.prefix { $0 != "(" } + suffix
        try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
        try? output.write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// The home page's widgets the touches are aimed at.
    static let homeLayout = [("button", Rect(x: 500, y: 47, width: 500, height: 200)), ("list", Rect(x: 0, y: 47, width: 500, height: 953)),
                             ("row1", Rect(x: 0, y: 47, width: 500, height: 100))]

    /// The layout the touches are aimed at.
    static func expectLayout(_ events: [Event], _ layout: [(String, Rect)], _ log: String) throws {
        let ready = try #require(events.first { $0.type == "ready" }, "the app says it is ready with its layout; \(log)")
        for (name, expected) in layout {
            let r = try #require(ready.rect(name), "the layout has \(name)")
            #expect(abs(r.minX - expected.minX) <= 2 && abs(r.minY - expected.minY) <= 6 && abs(r.width - expected.width) <= 2,
                    "\(name) is where the touches are aimed: \(r), expected about \(expected)")
        }
    }

    static func states(_ events: [Event], _ recognizer: String) -> [String] {
        events.filter { $0.type == "state" && $0.recognizer == recognizer }.map(\.to).filter { $0 != "changed" }
    }

    /// How many times the app said `event` of GTK (of `widget`'s, when one is named).
    static func count(_ events: [Event], _ event: String, widget: String? = nil) -> Int {
        events.filter { $0.type == "gtk" && $0.event == event && (widget == nil || $0.object["widget"] as? String == widget) }.count
    }

    /// Each recognizer's last state: none is left began, changed or possible-with-a-touch.
    static func expectNothingStuck(_ events: [Event], _ log: String) {
        var last: [String: String] = [:]
        for e in events where e.type == "state" { last[e.recognizer] = e.to }
        for (recognizer, state) in last {
            #expect(["ended", "cancelled", "failed"].contains(state), "\(recognizer) ends in a final state, not \(state); \(log)")
        }
    }

    /// GestureKit's location in the recognizer's view and GTK's own conversion of the same
    /// window point into the widget (`gtk_widget_compute_point`) agree: the view's frame is
    /// the widget's.
    static func expectFramesAgree(_ e: Event, _ log: String) {
        guard let a = e.point("location"), let b = e.point("gtkLocation") else {
            Issue.record("\(e.recognizer) \(e.to) has both locations; \(log)")
            return
        }
        #expect(abs(a.x - b.x) <= 1 && abs(a.y - b.y) <= 1,
                "\(e.recognizer) \(e.to) at \(a) in its view; GTK puts that point at \(b) in the widget")
    }

    // MARK: the button

    @Test("a button's long press opens its menu with no \"clicked\" and the button's own gesture cancelled; the menu's item (a popover's widget) is recognized; a tap then clicks once; three fingers on the button are all claimed")
    func button() throws {
        var t = Touches()
        t.hold(at: Point(x: 700, y: 150), from: 0, for: 1.0)          // the long press
        t.tap(at: Point(x: 750, y: 330), at: 1.7)                      // "Share", in the menu below the button
        t.tap(at: Point(x: 700, y: 150), at: 2.6)                      // a tap on the button
        t.swipe(fingers: [Point(x: 600, y: 120), Point(x: 700, y: 120), Point(x: 800, y: 120)],
                by: Point(x: -250, y: 0), from: 3.4, over: 0.5)          // three fingers
        let (events, log, onTime) = try Self.run(t)
        guard onTime else { return Self.expectNothingStuck(events, log) }
        #expect(Self.states(events, "buttonHold").prefix(2) == ["began", "ended"], "the long press is recognized; \(log)")
        #expect(Self.count(events, "menu opened") == 1, "the long press opens the menu; \(log)")
        let began = try #require(events.firstIndex { $0.recognizer == "buttonHold" && $0.to == "began" })
        let menu = try #require(events.firstIndex { $0.event == "menu opened" })
        #expect(events[began..<menu].contains { $0.event == "claimed GtkButton" } && events[began..<menu].contains { $0.event == "button gesture cancelled" },
                "the long press claims its touch from the window, and GTK cancels the button's own gesture, before the menu opens; \(log)")
        let items = events.first { $0.type == "menu layout" }
        #expect(Self.states(events, "menuShare") == ["ended"], "the menu's Share item, in a popover, is tapped (menu at \(items?.object ?? [:])); \(log)")
        #expect(Self.count(events, "clicked") == 1, "the button clicks once, for the tap alone: not after the long press, not for three fingers; \(log)")
        let claims = events.filter { $0.type == "gtk" && $0.event.hasPrefix("claimed") }.compactMap { $0.object["claimed"] as? Int }
        #expect(claims.max() == 3, "the three fingers' sequences are all claimed from the window: \(claims); \(log)")
        #expect(Self.states(events, "threeFingers").suffix(2) == ["began", "ended"], "the three-finger pan is recognized; \(log)")
        Self.expectNothingStuck(events, log)
    }

    @Test("UIKit: a long press on a GtkButton with a context menu opens a GtkPopoverMenu (built from the menu's data) and never clicks the button: its touch is claimed; a tap on the popover's Copy runs the Swift action; a tap then clicks once")
    func buttonContextMenu() throws {
        var t = Touches()
        t.hold(at: Point(x: 700, y: 150), from: 0, for: 1.0)       // the long press: the menu opens at 0.5 s
        t.tap(at: Point(x: 690, y: 185), at: 2.0)                   // "Copy", the popover's first item, below the finger
        t.tap(at: Point(x: 700, y: 150), at: 3.0)                   // a tap on the button
        var grimStatus: Int32 = -1
        let (events, log, onTime) = try Self.run(t, arguments: "--context-menu") { session in
            // The popover on the screen (the app says so once GTK has shown it): grim's picture.
            guard session.wait(seconds: Double(Compositor.readyTimeout) + Compositor.readyToRecording + 3,
                               until: { session.output.contains("popover shown") }) else { return }
            let shot = session.directory + "/gtk-widgets-context-menu.png"
            grimStatus = try session.grim([shot])
            if grimStatus == 0 {
                try? FileManager.default.createDirectory(atPath: packageRoot.path + "/out", withIntermediateDirectories: true)
                try? FileManager.default.removeItem(atPath: packageRoot.path + "/out/gtk-widgets-context-menu.png")
                try? FileManager.default.copyItem(atPath: shot, toPath: packageRoot.path + "/out/gtk-widgets-context-menu.png")
            }
        }
        #expect(Self.count(events, "clicked") <= 1, "the long press never clicks the button; \(log)")
        guard onTime else { return Self.expectNothingStuck(events, log) }
        let menu = events.filter { $0.type == "contextMenu" }.map { "\($0.object["from"] ?? "")→\($0.to)" }
        #expect(menu == ["possible→lifting", "lifting→presented", "presented→possible"],
                "the preview lifts, the menu opens and stays open when the finger lifts, the chosen action closes it; \(log)")
        #expect(Self.states(events, "buttonMenu").prefix(2) == ["began", "ended"], "the menu's recognizer takes the long press; \(log)")
        let began = try #require(events.firstIndex { $0.recognizer == "buttonMenu" && $0.to == "began" })
        let shown = try #require(events.firstIndex { $0.event == "popover shown" }, "GTK shows the popover; \(log)")
        #expect(events[began..<shown].contains { $0.event == "claimed GtkButton" } && events[began..<shown].contains { $0.event == "button gesture cancelled" },
                "the touch is claimed from the window and the button's own gesture cancelled before the popover shows; \(log)")
        #expect(events.filter { $0.event == "menu action" }.map { $0.object["item"] as? String } == ["copy"],
                "the tap on the popover's Copy activates its GAction, which runs the Swift handler; \(log)")
        #expect(events.last { $0.type == "contextMenu" }?.object["action"] as? String == "copy", "the menu closes choosing copy; \(log)")
        #expect(Self.count(events, "clicked") == 1, "the button clicks once, for the tap alone; \(log)")
        #expect(grimStatus == 0, "grim takes a picture of the open popover; \(log)")
        Self.expectNothingStuck(events, log)
    }

    @Test("the button is taken away mid-press (hidden, made insensitive, destroyed): its touch is cancelled, the long press never begins, nothing is clicked or left stuck",
          arguments: ["hide", "insensitive", "destroy"])
    func buttonGoesMidPress(_ how: String) throws {
        var t = Touches()
        t.hold(at: Point(x: 700, y: 150), from: 0, for: 1.2)
        // The button goes 0.1 s after the press, well before the long press's 0.5 s.
        let (events, log, _) = try Self.run(t, arguments: "--button-goes \(how) --button-goes-after 0.1", name: "buttonGoes-\(how)")
        #expect(Self.count(events, "button gone") == 1, "the app takes the button away (\(how)); \(log)")
        #expect(!Self.states(events, "buttonHold").contains("began"), "the long press does not begin on a touch its widget lost; \(log)")
        #expect(Self.count(events, "clicked") == 0, "nothing is clicked; \(log)")
        Self.expectNothingStuck(events, log)
    }

    @Test("the picture moved into a second window takes its view and recognizers to that window's input: a tap there is held by the picture's double tap and reaches the picture when it fails")
    func movedToAnotherWindow() throws {
        var t = Touches()
        // Two taps 0.8 s apart, each one tap to the double tap: sway 1.10 passes the first
        // touch on the newly presented window to no client (the app's log has no event of it;
        // sway 1.7 passes both).
        t.tap(at: Point(x: 500, y: 500), at: 0)
        t.tap(at: Point(x: 500, y: 500), at: 0.8)
        let (events, log, _) = try Self.run(t, arguments: "--move-picture", judgeDelivery: false)
        let moved = try #require(events.first { $0.event == "picture moved" }, "the app moves the picture; \(log)")
        #expect(moved.object["rebound"] as? Bool == true, "the picture's view is the second window's input's now; \(log)")
        #expect(events.contains { $0.recognizer == "pictureDoubleTap" && $0.to == "failed" && $0.object["view"] as? String == "GtkDrawingArea" },
                "the picture's double tap, in the second window, sees the tap and gives up after its interval; \(log)")
        let released = Self.count(events, "released GtkDrawingArea"), pressed = Self.count(events, "picture pressed")
        #expect(released >= 1 && pressed == released,
                "each tap that reaches the second window, held by the double tap, reaches the picture once: released \(released), pressed \(pressed); \(log)")
        Self.expectNothingStuck(events, log)
    }

    // MARK: the list

    @Test("after a programmatic scroll and a resize, a horizontal swipe on a row deletes it while the list does not scroll, and its location is GTK's; a vertical drag then scrolls the list while the row's swipe fails; a double tap on the moved picture is where GTK says")
    func list() throws {
        var t = Touches()
        // Scrolled by 250: the row under y = 500 is row 8 (its content y 703).
        t.swipe(fingers: [Point(x: 420, y: 500)], by: Point(x: -300, y: 0), from: 0.2, over: 0.3)
        t.swipe(fingers: [Point(x: 250, y: 850)], by: Point(x: 0, y: -400), from: 1.2, over: 0.6)
        // The button is 300 tall now: the picture starts at 347.
        t.tap(at: Point(x: 750, y: 700), at: 2.6)
        t.tap(at: Point(x: 750, y: 700), at: 2.75)
        let (events, log, onTime) = try Self.run(t, arguments: "--scroll-and-resize-after 0")
        guard onTime else { return Self.expectNothingStuck(events, log) }
        #expect(Self.count(events, "scrolled and resized") == 1, "the app scrolls and resizes before the touches; \(log)")
        let swipe = try #require(events.first { $0.type == "state" && $0.recognizer == "rowSwipe8" && $0.to == "ended" },
                                 "row 8's swipe is recognized: \(events.filter { $0.type == "state" }.map { "\($0.recognizer) \($0.to)" }); \(log)")
        Self.expectFramesAgree(swipe, log)
        let deleted = events.filter { $0.event == "row deleted" }
        #expect(deleted.count == 1, "the swiped row is deleted; \(log)")
        #expect((deleted.first?.object["scroll"] as? NSNumber)?.doubleValue == 250,
                "the list has not scrolled under the swipe (the swipe held its touch back from it): at 250 when the row is deleted; \(log)")
        #expect(Self.count(events, "row activated") == 0, "no row activates under the swipe or the drag; \(log)")
        // The vertical drag: some row's swipe fails, and the list scrolls by the drag.
        let failed = events.filter { $0.type == "state" && $0.recognizer.hasPrefix("rowSwipe") && $0.to == "failed" }
        #expect(!failed.isEmpty, "the swipe under the vertical drag fails; \(log)")
        #expect(Self.count(events, "released GtkListBoxRow") >= 1 && Self.count(events, "taken by GTK GtkListBoxRow") >= 1,
                "the failed swipe gives the touch back to GTK, whose scrolled window then claims it, and the engine hears it cancelled; \(log)")
        let end = try #require(events.last { $0.type == "end" }, "the app ends; \(log)")
        let scroll = (end.object["scroll"] as? NSNumber)?.doubleValue ?? 0
        #expect(scroll > 250 + 200, "the vertical drag scrolls the list (by about 400 less the swipe's slop) from 250: at \(scroll); \(log)")
        let doubleTap = try #require(events.first { $0.type == "state" && $0.recognizer == "pictureDoubleTap" && $0.to == "ended" },
                                     "the double tap on the picture is recognized; \(log)")
        Self.expectFramesAgree(doubleTap, log)
        Self.expectNothingStuck(events, log)
    }

    // MARK: a scrolled window's drag as a recognizer

    /// The scrolling page's columns (`--page scrolling`): a strip of 50 points under the
    /// header bar, then five scrolled windows of 200 points, one per rule.
    static let scrollingLayout = ["require", "simultaneous", "exclusive", "fits", "hold"].enumerated().map { column, rule in
        (rule, Rect(x: 200 * Double(column), y: 97, width: 200, height: 903))
    }

    @Test("a scrolled window's drag is a recognizer (UIScrollView.panGestureRecognizer): a swipe that requires it to fail fails when it begins and the list scrolls (UIKit: a recognizer fails when one it requires to fail begins); a swipe the delegate lets recognize simultaneously with it recognizes while the list scrolls (UIKit: shouldRecognizeSimultaneouslyWith yes lets both recognize); with no rule the drag, beginning first, prevents the swipe (UIKit: a recognizer that begins fails the others it may prevent); on a list too short to scroll GTK denies its drag at touch-down, so the swipe that requires it to fail recognizes and nothing scrolls (UIKit: a recognizer recognizes once the one it requires to fail has failed); a long press that begins before the finger moves prevents the drag, which GTK is then denied, and the list does not scroll (UIKit: a long press that begins fails the scroll view's pan)")
    func scrolledWindowDragInArbitration() throws {
        var t = Touches()
        for (column, (rule, frame)) in Self.scrollingLayout.enumerated() {
            // A swipe up: 400 points in 0.3 s, well past GTK's drag threshold (8 px) before it
            // is past the swipe's 50 points; on `hold`, after the finger rests 0.3 s (the long
            // press begins at 0.2 s; GTK's own long press, which would deny its drag itself,
            // needs GTK's 0.5 s, and the finger has moved by then).
            t.swipe(fingers: [Point(x: frame.midX, y: 800)], by: Point(x: 0, y: -400), from: 1.2 * Double(column), over: 0.3,
                    restBefore: rule == "hold" ? 0.3 : 0)
        }
        let (events, log, onTime) = try Self.run(t, arguments: "--page scrolling", layout: Self.scrollingLayout)
        Self.expectNothingStuck(events, log)
        guard onTime else { return }
        let end = try #require(events.last { $0.type == "end" }, "the app ends; \(log)")
        let scrolls = (end.object["scrolls"] as? [String: NSNumber])?.mapValues(\.doubleValue) ?? [:]
        func scroll(_ rule: String) -> String { "\(rule).GtkGestureDrag" }
        for rule in ["require", "simultaneous", "exclusive"] {
            #expect(Self.states(events, scroll(rule)) == ["began", "ended"],
                    "\(rule): the scrolled window's drag claims the touch (began) and ends with it; \(log)")
            #expect((scrolls[rule] ?? 0) > 150, "\(rule): the list scrolls under the drag: \(scrolls[rule] ?? -1) points; \(log)")
        }
        #expect(Self.states(events, "require-swipe") == ["failed"], "require: the swipe fails once the scroll it requires to fail begins; \(log)")
        #expect(Self.states(events, "simultaneous-swipe") == ["ended"], "simultaneous: the swipe recognizes as the list scrolls; \(log)")
        #expect(Self.states(events, "exclusive-swipe") == ["failed"], "exclusive: the scroll, begun first, prevents the swipe; \(log)")
        #expect(Self.states(events, scroll("fits")) == ["failed"], "fits: GTK denies the drag of a list that cannot scroll; \(log)")
        #expect(Self.states(events, "fits-swipe") == ["ended"], "fits: the swipe recognizes once the scroll it requires to fail has failed; \(log)")
        #expect(scrolls["fits"] == 0, "fits: nothing scrolls: \(scrolls["fits"] ?? -1); \(log)")
        let swiped = events.first { $0.event == "swiped" && $0.object["recognizer"] as? String == "simultaneous-swipe" }
        let whileSwiped = (swiped?.object["scrolls"] as? [String: NSNumber])?["simultaneous"]?.doubleValue ?? 0
        #expect(whileSwiped > 0, "simultaneous: the list has already scrolled when the swipe recognizes (\(whileSwiped)); \(log)")
        #expect(Self.states(events, "hold-longPress") == ["began", "ended"], "hold: the long press is recognized before the finger moves; \(log)")
        #expect(Self.states(events, scroll("hold")) == ["failed"],
                "hold: the long press, begun first, prevents the scroll (its recognizer fails and GTK's drag is denied the touch); \(log)")
        let holdFailed = events.first { $0.type == "state" && $0.recognizer == scroll("hold") && $0.to == "failed" }
        let holdReason = holdFailed?.object["reason"] as? String ?? ""
        #expect(holdReason.contains("hold-longPress"),
                "hold: the engine failed the scroll for the long press, not GTK (whose own long press would deny its drag after 0.5 s): \(holdReason); \(log)")
        #expect(scrolls["hold"] == 0, "hold: the list does not scroll under the drag after the long press: \(scrolls["hold"] ?? -1); \(log)")
    }

    // MARK: GTK's click, long press and swipe as recognizers

    /// The peers page's columns (`--page peers`): a widget of 200 points a column under the
    /// 47-point header bar.
    static let peersLayout = ["click-require", "click-exclusive", "press-require", "swipe-simultaneous", "swipe-exclusive"]
        .enumerated().map { column, name in (name, Rect(x: 200 * Double(column), y: 47, width: 200, height: 953)) }

    @Test("GTK's own gestures as recognizers (recognizer(for:)): a tap that requires a GtkButton's click to fail fails when the click claims the touch at its release, and the button clicks (UIKit: a recognizer fails when one it requires to fail recognizes); a tap with no rule recognizes, the click is failed and the button does not click; a tap that requires a GtkGestureLongPress to fail fails under a hold that GTK's long press takes, and recognizes on a tap shorter than GTK's long press time; a pan the delegate lets recognize with a GtkGestureSwipe recognizes beside it (shouldRecognizeSimultaneouslyWith); with no rule GTK's swipe, claiming at the first move, prevents the pan")
    func gtkGesturesInArbitration() throws {
        var t = Touches()
        func x(_ column: Int) -> Double { 100 + 200 * Double(column) }
        t.tap(at: Point(x: x(0), y: 500), at: 0)
        t.tap(at: Point(x: x(1), y: 500), at: 1.0)
        t.hold(at: Point(x: x(2), y: 500), from: 2.0, for: 0.9)            // GTK's long press takes it at 0.5 s
        t.tap(at: Point(x: x(2), y: 500), at: 3.4)
        for column in [3, 4] {
            // 400 points over 1 s, 4 points a frame: GTK's swipe claims at the first move, the
            // pan needs 10 points to begin.
            t.swipe(fingers: [Point(x: x(column), y: 800)], by: Point(x: 0, y: -400), from: 4.4 + 1.6 * Double(column - 3), over: 1.0)
        }
        let (events, log, onTime) = try Self.run(t, arguments: "--page peers", layout: Self.peersLayout)
        Self.expectNothingStuck(events, log)
        guard onTime else { return }
        func said(_ event: String, _ column: String) -> Int { Self.count(events, event, widget: column) }
        // What happened in a column, for the messages: its recognizers' transitions with their
        // reasons, and what GTK said.
        func column(_ name: String) -> String {
            events.compactMap { e -> String? in
                if e.type == "state", e.recognizer.hasPrefix(name), e.to != "changed" {
                    return "\(e.recognizer) → \(e.to) (\(e.object["reason"] as? String ?? ""))"
                }
                return e.type == "gtk" && e.object["widget"] as? String == name ? "GTK: \(e.event)" : nil
            }.joined(separator: "; ")
        }
        #expect(Self.states(events, "click-require.GtkGestureClick") == ["began", "ended"],
                "click-require: the button's click claims the touch at its release (began) and ends with it; \(column("click-require")); \(log)")
        #expect(Self.states(events, "click-require-tap") == ["failed"], "click-require: the tap fails once the click it requires to fail recognizes; \(column("click-require")); \(log)")
        #expect(said("clicked", "click-require") == 1, "click-require: the button clicks once; \(column("click-require")); \(log)")
        #expect(Self.states(events, "click-exclusive-tap") == ["ended"], "click-exclusive: the tap recognizes; \(column("click-exclusive")); \(log)")
        #expect(Self.states(events, "click-exclusive.GtkGestureClick") == ["failed"], "click-exclusive: the button's click is failed by the tap; \(column("click-exclusive")); \(log)")
        #expect(said("clicked", "click-exclusive") == 0, "click-exclusive: the button never clicks; \(column("click-exclusive")); \(log)")
        #expect(said("gesture cancel", "click-exclusive") > 0,
                "click-exclusive: the button's own gesture is told ::cancel as the tap takes the touch; \(column("click-exclusive")); \(log)")
        #expect(said("gesture cancel", "click-require") == 0, "click-require: the button's own gesture keeps its touch; \(column("click-require")); \(log)")
        #expect(Self.states(events, "press-require.GtkGestureLongPress") == ["began", "ended", "failed"],
                "press-require: GTK's long press takes the hold (began, ended), then fails on the tap; \(column("press-require")); \(log)")
        #expect(Self.states(events, "press-require-tap") == ["failed", "ended"],
                "press-require: the tap fails under the hold GTK's long press took, and recognizes once the long press has failed; \(column("press-require")); \(log)")
        #expect(said("long pressed", "press-require") == 1, "press-require: GTK's long press is pressed once; \(column("press-require")); \(log)")
        #expect(Self.states(events, "swipe-simultaneous.GtkGestureSwipe") == ["began", "ended"], "swipe-simultaneous: GTK's swipe claims and ends; \(column("swipe-simultaneous")); \(log)")
        #expect(Self.states(events, "swipe-simultaneous-pan") == ["began", "ended"], "swipe-simultaneous: the pan recognizes beside it; \(column("swipe-simultaneous")); \(log)")
        #expect(said("swiped", "swipe-simultaneous") == 1, "swipe-simultaneous: GTK's swipe swipes once; \(column("swipe-simultaneous")); \(log)")
        #expect(Self.states(events, "swipe-exclusive.GtkGestureSwipe") == ["began", "ended"], "swipe-exclusive: GTK's swipe claims and ends; \(column("swipe-exclusive")); \(log)")
        #expect(Self.states(events, "swipe-exclusive-pan") == ["failed"], "swipe-exclusive: GTK's swipe, begun first, prevents the pan; \(column("swipe-exclusive")); \(log)")
    }

    // MARK: the picture

    @Test("touches the picture's double tap holds back (delaysTouchesBegan): a double tap reaches the picture not at all; a touch that moves, failing the double tap, reaches it as one press; a pinch then takes its fingers; a tap on a row, which its swipe held back until the lift, still activates the row; a single tap reaches the picture once the double tap gives up")
    func delayedPress() throws {
        var t = Touches()
        t.tap(at: Point(x: 750, y: 600), at: 0)
        t.tap(at: Point(x: 750, y: 600), at: 0.15)
        t.swipe(fingers: [Point(x: 700, y: 600)], by: Point(x: 60, y: 0), from: 1.0, over: 0.3, holdAfter: 0.4)
        t.swipe(fingers: [Point(x: 650, y: 600), Point(x: 850, y: 620)], by: Point(x: 0, y: 0), spread: 120, from: 2.4, over: 0.5)
        t.tap(at: Point(x: 750, y: 600), at: 3.3)   // a single tap: the double tap fails 0.3 s later
        t.tap(at: Point(x: 250, y: 420), at: 4.0)   // row 5 (window y 467), which opens the detail page
        let (events, log, onTime) = try Self.run(t)
        guard onTime else { return Self.expectNothingStuck(events, log) }
        let doubleTap = try #require(events.firstIndex { $0.recognizer == "pictureDoubleTap" && $0.to == "ended" },
                                     "the double tap is recognized; \(log)")
        let pinch = events.firstIndex { $0.recognizer == "picturePinch" && $0.to == "began" } ?? events.count
        func presses(_ range: Range<Int>) -> Int { events[range].filter { $0.event == "picture pressed" }.count }
        #expect(presses(0..<doubleTap) == 0, "the picture's own gesture sees nothing of a double tap the recognizer takes; \(log)")
        #expect(Self.states(events, "pictureDoubleTap").contains("failed"), "the double tap fails when a touch moves; \(log)")
        // The moving touch: from the double tap to the next touch held back after it was let go.
        let released = events[doubleTap...].firstIndex { $0.event == "released GtkDrawingArea" } ?? pinch
        let next = events[released...].firstIndex { $0.event.hasPrefix("delayed") } ?? pinch
        #expect(presses(doubleTap..<next) == 1, "the picture's own gesture gets one press for the touch the double tap held back and let go; \(log)")
        #expect(Self.count(events, "released GtkDrawingArea") >= 1, "the touch is given back to GTK (press emulation); \(log)")
        #expect(Self.states(events, "picturePinch").joined(separator: " ").contains("began ended"), "the pinch is recognized; \(log)")
        let activated = events.filter { $0.event == "row activated" }
        #expect(activated.count == 1 && (activated.first?.object["index"] as? Int) == 4,
                "the tap on row 5 activates it once: its swipe fails as the finger lifts, and the whole touch is given back to the list; \(log)")
        // The single tap: held while the double tap waits for a second tap, given back whole
        // when it fails (UIKit delivers the held touch late, began and ended).
        let pinchEnded = events.firstIndex { $0.recognizer == "picturePinch" && $0.to == "ended" } ?? events.count
        let row = events.firstIndex { $0.event == "row activated" } ?? events.count
        #expect(pinchEnded < row && events[pinchEnded..<row].filter { $0.event == "picture pressed" }.count == 1,
                "a single tap on the picture reaches it once, after the double tap's interval; \(log)")
        Self.expectNothingStuck(events, log)
    }

    // MARK: the controls page

    /// The controls page's columns (button, toggle, check, row, drawing) and rows (tap, double
    /// tap, long press): cells of 200 × 300 points under the 47-point header bar.
    static let controlColumns = ["button", "toggle", "check", "row", "drawing"]
    static let controlRows = ["tap", "double", "hold"]
    /// Under KWin the full-screen window has no header bar (`header` 0).
    static func cell(_ column: Int, _ row: Int, header: Double = 47) -> Point {
        Point(x: 100 + 200 * Double(column), y: header + 150 + 300 * Double(row))
    }
    static func controlsLayout(header: Double = 47) -> [(String, Rect)] {
        controlColumns.enumerated().flatMap { c, column in
            controlRows.enumerated().map { r, row in ("\(column)-\(row)", Rect(x: 200 * Double(c), y: header + 300 * Double(r), width: 200, height: 300)) }
        }
    }

    /// What a control's action is called in the app's lines.
    static func action(of widget: String) -> String {
        switch widget.prefix { $0 != "-" } {
        case "button": "clicked"
        case "toggle", "check": "toggled"
        case "row": "row activated"
        default: "released"
        }
    }

    /// UIKit's rule for a view under a recognizer, read from what the engine gave each control's
    /// view and what GTK did, so that it holds whatever the timing: every touch the view ended
    /// (the recognizer failed: on time, or late as delaysTouchesEnded holds it) makes the control
    /// act once; a touch it cancelled (the recognizer took it) never does, and the control's own
    /// gesture is told `::cancel`. A list's row acts on a release only if GTK still holds its
    /// press (GtkListBox forgets it at GTK's double-click time, "gesture stopped").
    static func expectControlsFollowTheirViews(_ events: [Event], _ log: String) {
        for widget in controlsLayout().map(\.0) {
            let mine = events.filter { ($0.object["view"] as? String ?? $0.object["widget"] as? String) == widget }
            let ended = mine.filter { $0.type == "touches" && $0.object["phase"] as? String == "ended" }.count
            let cancelled = mine.filter { $0.type == "touches" && $0.object["phase"] as? String == "cancelled" }.count
            let acted = mine.filter { $0.type == "gtk" && $0.event == action(of: widget) }.count
            let told = mine.filter { $0.type == "gtk" && $0.event == "gesture cancel" }.count
            if widget.hasPrefix("row") {
                let released = mine.filter { $0.event == "gesture released" }.count
                #expect(released == ended, "\(widget): the list's gesture gets a release for each touch the row's view ended (\(ended)), none for those it cancelled: \(released); \(log)")
                var stillPressed = 0, sincePress = false, stopped = false
                for e in mine where e.type == "gtk" {
                    switch e.event {
                    case "gesture pressed": (sincePress, stopped) = (true, false)
                    case "gesture stopped": stopped = true
                    case "gesture released": if sincePress && !stopped { stillPressed += 1 }; sincePress = false
                    default: break
                    }
                }
                #expect(acted == stillPressed, "\(widget): the row is activated once for each release GTK still held the press of (\(stillPressed)): \(acted); \(log)")
            } else {
                #expect(acted == ended, "\(widget) acts (\(action(of: widget))) once for each touch its view ended (\(ended)), never for one it cancelled (\(cancelled)): \(acted); \(log)")
            }
            if cancelled > 0 {
                #expect(told > 0, "\(widget): the control's own gesture is told ::cancel for the touches its view lost (\(cancelled)); \(log)")
            }
        }
    }

    @Test("GTK's controls (a button, a toggle button, a check button, an activatable list's rows, a drawing area's click) each under a tap, a double tap and a long press: a touch a recognizer recognizes never makes its control act and cancels the control's own gesture; a touch it fails makes the control act once, late when the recognizer decided after the lift (a double tap waiting for a second tap)")
    func controls() throws {
        var t = Touches()
        for column in 0..<5 {
            let start = 3.6 * Double(column)
            t.tap(at: Self.cell(column, 0), at: start)                        // the tap: recognized
            t.tap(at: Self.cell(column, 1), at: start + 0.5)                  // the double tap: recognized
            t.tap(at: Self.cell(column, 1), at: start + 0.65)
            t.tap(at: Self.cell(column, 1), at: start + 1.3)                  // one tap: the double tap fails 0.3 s after it
            t.hold(at: Self.cell(column, 2), from: start + 2.0, for: 0.8)     // the long press: recognized
            t.tap(at: Self.cell(column, 2), at: start + 3.2)                  // a tap: the long press fails at the lift
        }
        let (events, log, onTime) = try Self.run(t, arguments: "--page controls", layout: Self.controlsLayout())
        Self.expectControlsFollowTheirViews(events, log)
        Self.expectNothingStuck(events, log)
        guard onTime else { return }
        for column in Self.controlColumns {
            #expect(Self.states(events, "\(column)-tap") == ["ended"], "\(column): the tap is recognized; \(log)")
            #expect(Self.states(events, "\(column)-double") == ["ended", "failed"], "\(column): the double tap is recognized, then fails on one tap; \(log)")
            #expect(Self.states(events, "\(column)-hold") == ["began", "ended", "failed"], "\(column): the long press is recognized, then fails on a tap; \(log)")
            for (row, acts) in [("tap", 0), ("double", 1), ("hold", 1)] {
                let widget = "\(column)-\(row)"
                let acted = Self.count(events, Self.action(of: widget), widget: widget)
                if column == "row" && row == "double" {
                    // GtkListBox forgets the press at GTK's double-click time (400 ms): the tap's
                    // lift, held for the double tap's 300 ms, may come after it.
                    #expect(acted <= 1, "\(widget) acts at most once; \(log)")
                } else {
                    #expect(acted == acts, "\(widget) acts \(acts) time(s): \(acted); \(log)")
                }
            }
        }
    }

    @Test("under KWin nested in sway (its own seat and frames): a tap recognized on a button and a double tap on a button never click it, a double tap on an activatable list's row never activates it; each control's gesture is told ::cancel",
          .enabled(if: Compositor.Nested.kwin.installed, "kwin-wayland is not installed (scripts/install-deps.sh installs it)"))
    func controlsUnderKWin() throws {
        var t = Touches()
        t.tap(at: Self.cell(0, 0, header: 0), at: 0)                           // button-tap
        t.tap(at: Self.cell(0, 1, header: 0), at: 0.6)                         // button-double
        t.tap(at: Self.cell(0, 1, header: 0), at: 0.75)
        t.tap(at: Self.cell(3, 1, header: 0), at: 1.5)                         // row-double
        t.tap(at: Self.cell(3, 1, header: 0), at: 1.65)
        let (events, log, onTime) = try Self.run(t, arguments: "--page controls", layout: Self.controlsLayout(header: 0), nested: .kwin)
        Self.expectControlsFollowTheirViews(events, log)
        Self.expectNothingStuck(events, log)
        guard onTime else { return }
        for widget in ["button-tap", "button-double", "row-double"] {
            #expect(Self.states(events, widget) == ["ended"], "\(widget)'s recognizer is recognized; \(log)")
            let acted = Self.count(events, Self.action(of: widget), widget: widget)
            #expect(acted == 0, "\(widget) never acts (\(Self.action(of: widget))): \(acted); \(log)")
        }
    }

    // MARK: the mouse, on Xvfb

    @Test("with the mouse on Xvfb (GTK's X11 backend): a long press on the button opens the menu with no \"clicked\"; a click then clicks once")
    func mouse() throws {
        let xvfb = try #require(GTKX11Tests.program("Xvfb"), "install xvfb (scripts/install-deps.sh installs it)")
        let xdotool = try #require(GTKX11Tests.program("xdotool"), "install xdotool (scripts/install-deps.sh installs it)")
        let (display, server) = try GTKX11Tests.startXvfb(xvfb)
        defer { GTKX11Tests.stopXvfb(server) }
        // --duration is a safety limit: each step waits for what the app says, and the test
        // stops it at the end.
        let client = try GTKX11Tests.x11Client(Self.tool, ["--json", "--duration", "60", "--report-events"], display: display)
        try #require(client.waitUntil(seconds: 30) { Event.parse(client.output).contains { $0.type == "ready" } },
                     "the window is drawn on the X server: \(client.errors)")
        // The handshake, as GTKX11Tests': the pointer moves into the window until GTK delivers
        // a motion (a window drawn may not yet get the pointer's events).
        let moved = client.waitUntil(seconds: 20) {
            _ = try? GTKX11Tests.run([xdotool, "mousemove", "600", "600", "mousemove", "601", "600"], environment: ["DISPLAY": display])
            return GTKX11Tests.DeliveredEvent.parse(client.errors).contains { $0.kind == "motion" }
        }
        try #require(moved, "GTK delivers the pointer's motion into the window: \(client.errors)")
        func drive(_ steps: String...) {
            let run = try? GTKX11Tests.run([xdotool] + steps, environment: ["DISPLAY": display])
            #expect(run?.status == 0, "xdotool \(steps.joined(separator: " ")): \(run?.output ?? "did not run")")
        }
        func said(_ what: @escaping (Event) -> Bool) -> () -> Bool { { Event.parse(client.output).contains(where: what) } }
        // A long press, held until the app says it began; Escape closes the menu once it is
        // laid out; then a click, once the app says the menu closed.
        // The press is judged by what GTK delivered: the long press must begin once GTK has
        // delivered the press (its report on standard error); a press the X server or GDK
        // never delivered is pressed again (released first), at most three times, and said.
        func pressDelivered() -> Bool { GTKX11Tests.DeliveredEvent.parse(client.errors).contains { $0.isButton && $0.pressed } }
        var presses = 0
        repeat {
            if presses > 0 {
                print("GTKWidgetsTests.mouse: GTK did not deliver press \(presses) within 20 s; pressing again. Delivered: \(client.errors.suffix(1500))")
                drive("mouseup", "1")
            }
            drive("mousemove", "700", "150", "mousedown", "1")
            presses += 1
        } while !client.waitUntil(seconds: 20, pressDelivered) && presses < 3
        try #require(pressDelivered(), "GTK delivers the mouse's press (\(presses) presses): \(client.errors.suffix(3000))")
        guard client.waitUntil(seconds: 20, said({ $0.recognizer == "buttonHold" && $0.to == "began" })) else {
            // Seen about once in fifteen runs beside other sessions (CI, fresh machines, never
            // alone): GTK delivered the press and the long press did not begin within 20 s, with
            // no transition at all. Not yet explained; recorded with its account (what the app
            // said and what GTK delivered, with GDK's times and their arrival) until it is.
            withKnownIssue("the mouse's long press on Xvfb did not begin within 20 s of GTK delivering its press (intermittent, under investigation)", isIntermittent: true) {
                Issue.record("the app said: \(client.output.suffix(2000))\nwhat GTK delivered: \(client.errors.suffix(3000))")
            }
            client.stop()
            return
        }
        drive("mouseup", "1")
        #expect(client.waitUntil(seconds: 20, said { $0.type == "menu layout" }), "the menu opens and is laid out: \(client.output)")
        drive("key", "Escape")
        #expect(client.waitUntil(seconds: 20, said { $0.event == "menu closed" }), "Escape closes the menu: \(client.output)")
        drive("click", "1")
        #expect(client.waitUntil(seconds: 20, said { $0.event == "clicked" }), "the click clicks: \(client.output)")
        client.stop()
        let status = client.exitStatus()
        let (output, errors) = (client.output, client.errors)
        let events = Event.parse(output)
        Self.keep(output, as: "mouse")
        let log = "stdout: \(output.suffix(3000))\nstderr: \(errors.suffix(1500))"
        #expect(status == 0, "gtk-widgets exits with status 0; \(log)")
        // On Xvfb the window has no window manager: GTK's own frame puts its content 5 points
        // in, so (700, 150) of the screen is on the button as under sway.
        #expect(Self.states(events, "buttonHold").prefix(2) == ["began", "ended"], "the mouse's long press on the button is recognized; \(log)")
        #expect(events.contains { $0.event == "claimed GtkButton" }, "the long press claims the mouse's press from the window; \(log)")
        #expect(Self.count(events, "menu opened") == 1, "it opens the menu; \(log)")
        #expect(Self.count(events, "clicked") == 1, "the button clicks once, for the click alone; \(log)")
        Self.expectNothingStuck(events, log)
    }
}

/// Touches on the Dell Canvas 27 (0…32767 on both axes, five slots, the real device's
/// description from Fixtures), in screen points of a 1000 × 1000 output, written as an
/// evemu recording (protocol B): what the tests replay through sway.
struct Touches {
    /// Every slot's events at a time, in seconds from the first.
    private var frames: [Double: [(slot: Int, change: Change)]] = [:]
    enum Change { case down(Point), move(Point), up }
    private var slotsInUse: [Int: Double] = [:]

    var length: Double { (frames.keys.max() ?? 0) + 0.1 }
    /// How many evdev frames the recording holds (one a moment any slot changed).
    var frameCount: Int { frames.count }

    private mutating func slot(from start: Double, to end: Double) -> Int {
        for slot in 0..<5 where (slotsInUse[slot] ?? -1) < start {
            slotsInUse[slot] = end
            return slot
        }
        fatalError("more than five touches at once on the Dell Canvas")
    }

    private mutating func add(_ t: Double, _ slot: Int, _ change: Change) {
        let key = (t * 1000).rounded() / 1000
        frames[key, default: []].append((slot, change))
    }

    /// A finger resting at `point` from `start` for `seconds`.
    mutating func hold(at point: Point, from start: Double, for seconds: Double) {
        let s = slot(from: start, to: start + seconds)
        add(start, s, .down(point))
        var t = start + 0.01
        while t < start + seconds {
            add(t, s, .move(Point(x: point.x + (t * 100).truncatingRemainder(dividingBy: 2) * 0.2, y: point.y)))
            t += 0.01
        }
        add(start + seconds, s, .up)
    }

    /// A tap of 80 ms.
    mutating func tap(at point: Point, at start: Double) {
        hold(at: point, from: start, for: 0.08)
    }

    /// Fingers landing together and moving by `delta` (and apart by `spread` points each,
    /// for a pinch) over `seconds`, evenly, after resting `restBefore` where they landed, then
    /// resting `holdAfter` before lifting.
    mutating func swipe(fingers: [Point], by delta: Point, spread: Double = 0, from start: Double, over seconds: Double,
                        holdAfter: Double = 0.05, restBefore: Double = 0) {
        let end = start + restBefore + seconds + holdAfter
        let slots = fingers.map { _ in slot(from: start, to: end) }
        let centre = Point(x: fingers.map(\.x).reduce(0, +) / Double(fingers.count), y: fingers.map(\.y).reduce(0, +) / Double(fingers.count))
        for (i, p) in fingers.enumerated() { add(start, slots[i], .down(p)) }
        let steps = max(1, Int((seconds / 0.01).rounded()))
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            for (i, p) in fingers.enumerated() {
                let away = Point(x: p.x - centre.x, y: p.y - centre.y)
                let length = max(1, (away.x * away.x + away.y * away.y).squareRoot())
                add(start + restBefore + f * seconds, slots[i], .move(Point(x: p.x + delta.x * f + away.x / length * spread * f,
                                                              y: p.y + delta.y * f + away.y / length * spread * f)))
            }
        }
        for i in fingers.indices { add(end, slots[i], .up) }
    }

    /// The recording: the Dell Canvas's description, then the frames.
    func evemu() throws -> String {
        let fixture = try String(contentsOfFile: Compositor.fixture("synthetic-ts-dell-canvas27-edge-swipe-left-1f.evemu"), encoding: .utf8)
        var lines = fixture.split(separator: "\n", omittingEmptySubsequences: false).prefix { line in
            !(line.hasPrefix("E:") || line.hasPrefix("# Events below") || line.hasPrefix("################################"))
        }.map(String.init)
        lines.append("# Events below: made by GTKWidgetsTests (Tests/GestureWaylandTests/GTKWidgetsTests.swift), not a recording")
        func units(_ v: Double) -> Int { max(0, min(32767, Int((v / 1000 * 32767).rounded()))) }
        var down = 0
        var tracking: [Int: Int] = [:]
        var id = 1
        for time in frames.keys.sorted() {
            let t = 1_700_000_000 + time
            let stamp = String(format: "%.6f", t)
            func emit(_ type: Int, _ code: Int, _ value: Int) {
                lines.append("E: \(stamp) \(String(format: "%04x %04x", type, code)) \(value)")
            }
            var touchChanged = false
            var primary: Point?
            for (slot, change) in frames[time]! {
                emit(3, 0x2f, slot)
                switch change {
                case .down(let p):
                    tracking[slot] = id
                    id += 1
                    emit(3, 0x39, tracking[slot]!)
                    emit(3, 0x35, units(p.x))
                    emit(3, 0x36, units(p.y))
                    if down == 0 { touchChanged = true }
                    down += 1
                    if slot == 0 { primary = p }
                case .move(let p):
                    emit(3, 0x35, units(p.x))
                    emit(3, 0x36, units(p.y))
                    if slot == 0 { primary = p }
                case .up:
                    emit(3, 0x39, -1)
                    tracking[slot] = nil
                    down -= 1
                    if down == 0 { touchChanged = true }
                }
            }
            if touchChanged { emit(1, 0x14a, down > 0 ? 1 : 0) }
            if let primary {
                emit(3, 0x00, units(primary.x))
                emit(3, 0x01, units(primary.y))
            }
            emit(0, 0, 0)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
