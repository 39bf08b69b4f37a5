import ArgumentParser
import CGTK4
import Foundation
import GestureGTK
import GestureInput
import GestureKit

/// `gtk-widgets`: a GTK 4 app of standard widgets with UIKit's recognizers on them
/// (GestureGTK's `GTKWindowInput`): a header bar with a back button, a list in a scrolled
/// window whose rows swipe left to delete, a button whose long press opens a menu, a picture
/// that pinches and double-taps, and a swipe from the window's left edge that goes back.
///
/// The conflicts GTK apps meet, settled by UIKit's rules:
/// - the button's long press cancels its touch in the button (cancelsTouchesInView): no
///   "clicked" after the menu opens; a tap still clicks;
/// - a row's swipe holds its touch back from the list (delaysTouchesBegan): the list does not
///   scroll under a swipe, and a vertical drag, which fails the swipe, scrolls it;
/// - a row's swipe waits for the edge swipe to fail (require(toFail:)), so a swipe from the
///   window's edge goes back rather than deleting the row;
/// - the picture's pinch and double tap, and a three-finger swipe on the window, take their
///   touches from the widgets under them.
///
/// It is written against GTK's C API (CGTK4), as a GTK app in Swift without a binding is;
/// with --json it prints what happens, one JSON object a line (the tests' reading of it).
@main
struct GTKWidgets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gtk-widgets",
        abstract: "A GTK 4 app of standard widgets with UIKit's gesture recognizers on them (GestureGTK).")

    @Flag(help: "Print what happens as JSON lines: recognizers' transitions, GTK's clicks, presses and scrolling.")
    var json = false

    @Option(help: "Seconds to run (default: until the window closes).")
    var duration: Double?

    @Flag(help: "Show the window full screen.")
    var fullscreen = false

    @Option(help: "The page to show: home (a list, a button, a picture), controls (GTK's controls under UIKit's taps), scrolling (a swipe and a scrolled window's drag under UIKit's rules) or peers (GTK's click, long press and swipe gestures under UIKit's rules).")
    var page: Page = .home

    @Option(name: .customLong("ready-file"), help: ArgumentHelp("Create this file once the window is drawn at 1000 × 1000 points; --duration counts from then.", valueName: "path"))
    var readyFile: String?

    @Option(help: ArgumentHelp("Write a PNG of the window this many seconds after it is ready (with --screenshot).", valueName: "seconds"))
    var screenshotAfter: Double = 0.5

    @Option(help: ArgumentHelp("Write a PNG of the window to this path, then go on.", valueName: "path"))
    var screenshot: String?

    @Option(help: ArgumentHelp("Also write what the window's input received, as it received it, to this GestureKit input recording (docs/RECORDING.md).", valueName: "path"))
    var record: String?

    /// The scrolling page with GTK's own gestures in place of GestureKit's recognizers (a
    /// `GtkGestureSwipe` on each list, a `GtkGestureLongPress` on `hold`'s) and no
    /// GTKWindowInput: the other side of the cost comparison (Benchmarks/README.md).
    @Flag(name: .customLong("gtk-gestures"), help: .hidden)
    var gtkGestures = false

    /// With --json, say the apps' actions only, not every recognizer's transition (the
    /// tracing's JSON would otherwise dominate the cost comparison).
    @Flag(name: .customLong("actions-only"), help: .hidden)
    var actionsOnly = false

    /// GTK's dispatch of each input event made one function a profiler can name
    /// (`DispatchCount`), and the events counted in the last line: the cost comparison's measure.
    @Flag(name: .customLong("count-dispatch"), help: .hidden)
    var countDispatch = false

    /// Says on standard error each event GTK delivered and when it arrived (`EventArrivalReport`).
    @Flag(name: .customLong("report-events"), help: .hidden)
    var reportEvents = false

    @Option(name: .customLong("scroll-and-resize-after"), help: ArgumentHelp("Scroll the list down 250 points and make the button 100 points taller, this many seconds after ready.", valueName: "seconds"))
    var scrollAndResizeAfter: Double?

    @Option(name: .customLong("button-goes"), help: ArgumentHelp("Take the button away under a finger, --button-goes-after seconds after a touch lands on it: hide (unmapped), insensitive, or destroy.", valueName: "how"))
    var buttonGoes: ButtonGoes?

    @Option(name: .customLong("button-goes-after"), help: ArgumentHelp("Seconds after the press for --button-goes.", valueName: "seconds"))
    var buttonGoesAfter: Double = 0.1

    @Flag(name: .customLong("show-menu"), help: "When ready, open the button's menu as its long press does (for a picture of the app).")
    var showMenu = false

    @Flag(name: .customLong("context-menu"), help: "The button's menu is a context menu (ContextMenuInteraction: a long press, a right click or the menu key), drawn by GTK as a GtkPopoverMenu, instead of the long press's own popover.")
    var contextMenu = false

    @Flag(name: .customLong("move-picture"), help: "When ready, move the picture into a second window (with its own GTKWindowInput) and hide the first.")
    var movePicture = false

    /// After the run, the app, its window input, engine and views are released and checked
    /// gone through weak references; the result is one line on standard error (the tests'
    /// lifetime check of GTKWindowInput).
    @Flag(name: .customLong("check-lifetime"), help: .hidden)
    var checkLifetime = false

    func run() throws {
        guard gtk_init_check() != 0 else { throw ValidationError("GTK could not open a display: run in a desktop session (WAYLAND_DISPLAY or DISPLAY set)") }
        weak var weakApp: WidgetsApp?
        weak var weakInput: GTKWindowInput?
        weak var weakEngine: GestureEngine?
        weak var weakView: GTKWidgetView?
        do {
            let app = try WidgetsApp(json: json, record: record, reportEvents: reportEvents, contextMenu: contextMenu)
            try run(app)
            (weakApp, weakInput, weakEngine, weakView) = (app, app.input, app.input?.engine, app.input?.windowView)
            app.onReady = nil
        }
        guard checkLifetime else { return }
        let alive = [("the app", weakApp != nil), ("its GTKWindowInput", weakInput != nil), ("its engine", weakEngine != nil),
                     ("the window's view", weakView != nil)].filter(\.1).map(\.0)
        FileHandle.standardError.write(Data(("gtk-widgets: lifetime: "
            + (alive.isEmpty ? "everything freed" : "still alive: " + alive.joined(separator: ", ")) + "\n").utf8))
    }

    private func run(_ app: WidgetsApp) throws {
        app.gtkGesturesOnly = gtkGestures
        app.actionsOnly = actionsOnly
        app.build(fullscreen: fullscreen, page: page)
        app.readyFile = readyFile
        if let buttonGoes { app.takeButton(buttonGoes, afterPress: buttonGoesAfter) }
        app.onReady = {
            if countDispatch { app.countDispatch() }
            if let screenshot { app.after(screenshotAfter) { app.saveScreenshot(screenshot) } }
            if movePicture { app.movePicture() }
            if showMenu { app.showMenu() }
            if let scrollAndResizeAfter { app.after(scrollAndResizeAfter) { app.scrollAndResize() } }
            if let duration { app.after(duration) { app.quit() } }
        }
        app.run()
    }
}

// MARK: the app

/// The page the window shows (`--page`).
enum Page: String, ExpressibleByArgument, CaseIterable {
    case home, controls, scrolling, peers
}

/// How the button is taken away under a finger (`--button-goes`).
enum ButtonGoes: String, ExpressibleByArgument, CaseIterable {
    case hide, insensitive, destroy
}

/// GTK's `GtkWidget *`, as the C API hands it over.
typealias Widget = UnsafeMutableRawPointer

/// `widget` as a pointer to one of GTK's structs (`GTK_BOX (widget)` in C).
func gtk<T>(_ widget: Widget) -> UnsafeMutablePointer<T> { widget.assumingMemoryBound(to: T.self) }
/// The same for GTK's types Swift sees as opaque (`GTK_STACK (widget)`).
func gtk(_ widget: Widget) -> OpaquePointer { OpaquePointer(widget) }

final class WidgetsApp {
    let json: Bool
    var readyFile: String?
    var onReady: (() -> Void)?
    private var ready = false
    private var running = true

    private(set) var window: Widget!
    private(set) var input: GTKWindowInput!
    /// GTK's own gestures only, no GTKWindowInput (`--gtk-gestures`, the scrolling page).
    var gtkGesturesOnly = false
    /// No transitions said (`--actions-only`).
    var actionsOnly = false
    private var stack: Widget!
    private var back: Widget!
    private var list: Widget!
    private var scrolled: Widget!
    private var button: Widget!
    private var side: Widget!
    private var picture: Widget!
    private var rows: [Widget] = []
    private var popover: Widget?
    /// The picture's scale, from the pinch.
    private var scale = 1.0
    private var pinchStart = 1.0

    /// The window's engine, and what its input goes to: the engine, or a recorder passing it on.
    private let engine = GestureEngine()
    private let client: any LiveInputClient

    /// The button's menu is a context menu (`--context-menu`).
    let usesContextMenu: Bool
    /// The button's context menu interaction, with `--context-menu`.
    private var contextMenu: ContextMenuInteraction?

    init(json: Bool, record: String? = nil, reportEvents: Bool = false, contextMenu: Bool = false) throws {
        self.json = json
        usesContextMenu = contextMenu
        let engine = self.engine
        let recorded: any LiveInputClient = try record.map { try GestureRecorder(recordingTo: $0, source: .gtk, screen: Size(width: 1000, height: 1000), passingTo: engine) } ?? engine
        client = reportEvents ? EventArrivalReport(program: "gtk-widgets", passingTo: recorded) : recorded
    }

    /// GTK's dispatch of each event, counted (`--count-dispatch`).
    private var dispatchCount: DispatchCount?

    func countDispatch() {
        dispatchCount = DispatchCount(window: window)
        if dispatchCount == nil { emit(["type": "error", "message": "--count-dispatch: GTK's handler of the window's events was not found"]) }
    }

    /// The controls page, when it is the one shown (`--page controls`).
    private(set) var controls: ControlsPage?
    /// The scrolling page, when it is the one shown (`--page scrolling`).
    private(set) var scrolling: ScrollingPage?
    /// The peers page, when it is the one shown (`--page peers`).
    private(set) var peers: PeersPage?

    func build(fullscreen: Bool, page: Page = .home) {
        window = Widget(gtk_window_new())!
        gtk_window_set_title(gtk(window), "GestureKit on GTK widgets")
        gtk_window_set_default_size(gtk(window), 1000, 1000)
        let header = Widget(gtk_header_bar_new())!
        back = Widget(gtk_button_new_with_label("Back"))!
        gtk_widget_set_visible(gtk(back), 0)
        gtk_header_bar_pack_start(gtk(header), gtk(back))
        gtk_window_set_titlebar(gtk(window), gtk(header))
        connect(back, "clicked", unsafeBitCast(onBackClicked, to: GCallback.self))

        // Home: the list on the left, the button and the picture on the right.
        let home = Widget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))!
        gtk_box_set_homogeneous(gtk(home), 1)
        scrolled = Widget(gtk_scrolled_window_new())!
        gtk_scrolled_window_set_policy(gtk(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        list = Widget(gtk_list_box_new())!
        for n in 1...30 {
            let row = Widget(gtk_list_box_row_new())!
            let label = Widget(gtk_label_new("Photo \(n)"))!
            gtk_widget_set_size_request(gtk(row), -1, 100)
            gtk_list_box_row_set_child(gtk(row), gtk(label))
            gtk_list_box_append(gtk(list), gtk(row))
            rows.append(row)
        }
        connect(list, "row-activated", unsafeBitCast(onRowActivated, to: GCallback.self))
        gtk_scrolled_window_set_child(gtk(scrolled), gtk(list))
        gtk_box_append(gtk(home), gtk(scrolled))

        side = Widget(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!
        button = Widget(gtk_button_new_with_label("Hold for the menu"))!
        gtk_widget_set_size_request(gtk(button), -1, 200)
        connect(button, "clicked", unsafeBitCast(onButtonClicked, to: GCallback.self))
        gtk_box_append(gtk(side), gtk(button))
        picture = Widget(gtk_drawing_area_new())!
        gtk_widget_set_vexpand(gtk(picture), 1)
        gk_drawing_area_set_draw(picture, onDrawPicture, Unmanaged.passUnretained(self).toOpaque())
        // The picture's own GTK gesture: what a widget sees of a touch GestureKit let through.
        let click = Widget(gtk_gesture_click_new())!
        connect(click, "pressed", unsafeBitCast(onPicturePressed, to: GCallback.self))
        gk_widget_add_controller(picture, click)
        gtk_box_append(gtk(side), gtk(picture))
        gtk_box_append(gtk(home), gtk(side))

        let detail = Widget(gtk_label_new("A photo"))!
        stack = Widget(gtk_stack_new())!
        gtk_stack_add_named(gtk(stack), gtk(home), "home")
        gtk_stack_add_named(gtk(stack), gtk(detail), "detail")
        if page == .controls {
            let controls = ControlsPage(app: self)
            gtk_stack_add_named(gtk(stack), gtk(controls.build()), "controls")
            gtk_stack_set_visible_child_name(gtk(stack), "controls")
            self.controls = controls
        } else if page == .scrolling {
            let scrolling = ScrollingPage(app: self)
            gtk_stack_add_named(gtk(stack), gtk(scrolling.build()), "scrolling")
            gtk_stack_set_visible_child_name(gtk(stack), "scrolling")
            self.scrolling = scrolling
        } else if page == .peers {
            let peers = PeersPage(app: self)
            gtk_stack_add_named(gtk(stack), gtk(peers.build()), "peers")
            gtk_stack_set_visible_child_name(gtk(stack), "peers")
            self.peers = peers
        }
        gtk_window_set_child(gtk(window), gtk(stack))
        connect(window, "close-request", unsafeBitCast(onCloseRequest, to: GCallback.self))
        if fullscreen { gtk_window_fullscreen(gtk(window)) }

        attachRecognizers()
        // The button's own gesture, watched: GestureKit's claim cancels it.
        var gestures = [UnsafeMutableRawPointer?](repeating: nil, count: 8)
        let n = Int(gk_widget_gestures(button, &gestures, 8))
        for gesture in gestures[..<n].compactMap({ $0 }) {
            connect(gesture, "cancel", unsafeBitCast(onButtonGestureCancelled, to: GCallback.self))
        }
    }

    // MARK: recognizers

    private func attachRecognizers() {
        if gtkGesturesOnly, let scrolling {
            scrolling.attachGTKGestures()
            return
        }
        input = GTKWindowInput(window: window, engine: engine, client: client)
        if let controls {
            controls.attachRecognizers(to: input)
            report(input)
            return
        }
        if let scrolling {
            scrolling.attachRecognizers(to: input)
            report(input)
            return
        }
        if let peers {
            peers.attachRecognizers(to: input)
            report(input)
            return
        }
        input.afterInput = { [unowned self] in gtk_widget_queue_draw(gk_widget(picture)) }
        let windowView = input.windowView

        // Swipe back: from the window's left edge, on the detail page.
        let edge = ScreenEdgePanGestureRecognizer(target: self, action: WidgetsApp.swipeBack)
        edge.edges = .left
        edge.name = "swipeBack"
        windowView.addGestureRecognizer(edge)

        // Three fingers swipe the window (to the detail page and back).
        let threeFingers = PanGestureRecognizer(target: self, action: WidgetsApp.threeFingerPan)
        threeFingers.minimumNumberOfTouches = 3
        threeFingers.name = "threeFingers"
        windowView.addGestureRecognizer(threeFingers)

        if usesContextMenu {
            // The button: its context menu (a long press, a right click, the menu key), which
            // the window input's presenter draws as a GtkPopoverMenu.
            let interaction = ContextMenuInteraction(delegate: self, name: "buttonMenu")
            input.view(for: button).addInteraction(interaction)
            contextMenu = interaction
            input.contextMenus.onPopover = { [unowned self] popover in
                emit(["type": "gtk", "event": popover == nil ? "popover closed" : "popover shown"])
            }
        } else {
            // The button: a long press opens the menu.
            let hold = LongPressGestureRecognizer(target: self, action: WidgetsApp.openMenu)
            hold.name = "buttonHold"
            input.view(for: button).addGestureRecognizer(hold)
        }

        // The rows: a swipe left deletes; it holds its touch back from the list until it
        // fails, and waits for the edge swipe.
        for (index, row) in rows.enumerated() {
            let swipe = SwipeGestureRecognizer(target: self, action: WidgetsApp.deleteRow)
            swipe.direction = .left
            swipe.delaysTouchesBegan = true
            swipe.require(toFail: edge)
            swipe.name = "rowSwipe\(index + 1)"
            input.view(for: row).addGestureRecognizer(swipe)
        }

        // The picture: pinch to zoom, double tap to reset; the double tap holds its touch
        // back from the picture's own gesture until it fails.
        let pictureView = input.view(for: picture)
        let pinch = PinchGestureRecognizer(target: self, action: WidgetsApp.zoom)
        pinch.name = "picturePinch"
        pictureView.addGestureRecognizer(pinch)
        let doubleTap = TapGestureRecognizer(target: self, action: WidgetsApp.resetZoom)
        doubleTap.numberOfTapsRequired = 2
        doubleTap.delaysTouchesBegan = true
        doubleTap.name = "pictureDoubleTap"
        pictureView.addGestureRecognizer(doubleTap)

        report(input)
    }

    /// Prints `input`'s transitions (with GTK's own reading of each location) and claims.
    private func report(_ input: GTKWindowInput) {
        guard !actionsOnly else { return }
        input.engine.traceHandler = { [unowned self, unowned input] event in
            if case let .contextMenu(m) = event {
                var line: [String: Any] = ["type": "contextMenu", "interaction": m.interaction.name, "from": m.from.rawValue,
                                           "to": m.to.rawValue, "location": [m.location.x, m.location.y], "reason": m.reason.description,
                                           "time": m.time.seconds]
                if let action = m.action { line["action"] = action }
                emit(line)
                return
            }
            guard case .transition(let t) = event, let view = t.recognizer.view else { return }
            var line: [String: Any] = ["type": "state", "recognizer": t.recognizer.name, "from": t.from.rawValue,
                                       "to": t.to.rawValue, "view": view.id ?? "", "location": [t.location.x, t.location.y],
                                       "time": t.time.seconds, "reason": "\(t.reason)"]
            if let widgetView = view as? GTKWidgetView,
               let gtkPoint = gtkPoint(of: view.convert(t.location, to: input.windowView), in: widgetView.widget, of: input.window) {
                line["gtkLocation"] = [gtkPoint.x, gtkPoint.y]
            }
            emit(line)
        }
        input.onSequence = { [unowned self] what, claimed in emit(["type": "gtk", "event": what, "claimed": claimed]) }
    }

    /// GTK's own conversion of a point of the window into `widget`'s coordinates
    /// (`gtk_widget_compute_point`), to compare with GestureKit's.
    private func gtkPoint(of point: Point, in widget: Widget, of window: Widget) -> Point? {
        var from = graphene_point_t(x: Float(point.x), y: Float(point.y)), to = graphene_point_t()
        var bounds = graphene_rect_t()
        let native = gtk_widget_get_native(gtk(widget)).map { UnsafeRawPointer($0) }
        guard native == gtk_widget_get_native(gtk(window)).map({ UnsafeRawPointer($0) }),
              gtk_widget_compute_point(gtk(window), gtk(widget), &from, &to) != 0,
              gtk_widget_compute_bounds(gtk(widget), gtk(widget), &bounds) != 0 else { return nil }
        // A view's origin is the widget's bounds' (its border box); GTK's widget coordinates
        // start inside its padding and border.
        return Point(x: Double(to.x - bounds.origin.x), y: Double(to.y - bounds.origin.y))
    }

    func swipeBack(_ edge: ScreenEdgePanGestureRecognizer) {
        if edge.state == .ended { showPage("home") }
    }

    func threeFingerPan(_ pan: PanGestureRecognizer) {
        guard pan.state == .ended else { return }
        showPage(pan.translation(in: input.windowView).x < 0 ? "detail" : "home")
    }

    func openMenu(_ hold: LongPressGestureRecognizer) {
        // On the next turn of the main loop: the engine has then taken the touch from the
        // button (GTK resets the gestures outside a popover when it opens).
        if hold.state == .began { after(0) { [unowned self] in showMenu() } }
    }

    func showMenu() {
        if let contextMenu, let view = contextMenu.view {
            // As the menu key would: at the button's centre.
            input.engine.sendMenuKey(at: input.engine.now, focusedView: view)
            return
        }
        guard popover == nil else { return }   // a long press on the open menu's items
        let popover = Widget(gtk_popover_new())!
        let box = Widget(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!
        var items: [(String, Widget)] = []
        for item in ["Share", "Delete"] {
            let itemButton = Widget(gtk_button_new_with_label(item))!
            items.append((item, itemButton))
            gtk_widget_set_size_request(gtk(itemButton), 300, 120)
            gtk_box_append(gtk(box), gtk(itemButton))
            let tap = TapGestureRecognizer(target: self, action: WidgetsApp.menuItemTapped)
            tap.name = "menu\(item)"
            input.view(for: itemButton).addGestureRecognizer(tap)
        }
        gtk_popover_set_child(gtk(popover), gtk(box))
        gtk_widget_set_parent(gtk(popover), gtk(button))
        gtk_popover_set_position(gtk(popover), GTK_POS_BOTTOM)
        connect(popover, "closed", unsafeBitCast(onPopoverClosed, to: GCallback.self))
        gtk_popover_popup(gtk(popover))
        self.popover = popover
        emit(["type": "gtk", "event": "menu opened"])
        after(0.3) { [unowned self] in
            var layout: [String: [Double]] = [:]
            for (name, item) in items {
                var x = 0.0, y = 0.0, w = 0.0, h = 0.0
                if gk_widget_bounds_in_window(item, window, &x, &y, &w, &h) != 0 { layout[name] = [x, y, w, h] }
            }
            emit(["type": "menu layout", "layout": layout])
        }
    }

    func menuItemTapped(_ tap: TapGestureRecognizer) {
        guard tap.state == .ended else { return }
        emit(["type": "gtk", "event": "menu item", "item": tap.name])
        if let popover { gtk_popover_popdown(gtk(popover)) }
    }

    fileprivate func menuClosed() {
        guard let popover else { return }
        self.popover = nil
        gtk_widget_unparent(gtk(popover))
        emit(["type": "gtk", "event": "menu closed"])
    }

    func deleteRow(_ swipe: SwipeGestureRecognizer) {
        guard swipe.state == .ended, let view = swipe.view as? GTKWidgetView else { return }
        emit(["type": "gtk", "event": "row deleted", "row": swipe.name, "scroll": scrollOffset])
        rows.removeAll { $0 == view.widget }
        gtk_list_box_remove(gtk(list), gtk(view.widget))
    }

    func zoom(_ pinch: PinchGestureRecognizer) {
        switch pinch.state {
        case .began: pinchStart = scale
        case .changed, .ended: scale = max(0.5, min(4, pinchStart * pinch.scale))
        default: break
        }
    }

    func resetZoom(_ tap: TapGestureRecognizer) {
        if tap.state == .ended { scale = 1 }
    }

    // MARK: GTK's side

    fileprivate func clicked() { emit(["type": "gtk", "event": "clicked"]) }
    fileprivate func buttonGestureCancelled() { emit(["type": "gtk", "event": "button gesture cancelled"]) }
    fileprivate func pressed(_ n: Int32) { emit(["type": "gtk", "event": "picture pressed", "n": Int(n)]) }
    fileprivate func activated(_ row: Widget?) {
        emit(["type": "gtk", "event": "row activated", "index": row.map { Int(gtk_list_box_row_get_index(gtk($0))) } ?? -1])
        showPage("detail")
    }

    func showPage(_ name: String) {
        gtk_stack_set_visible_child_name(gtk(stack), name)
        gtk_widget_set_visible(gtk(back), name == "home" ? 0 : 1)
        emit(["type": "gtk", "event": "page", "page": name])
    }

    /// Where the list is scrolled to, in points.
    var scrollOffset: Double { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(gtk(scrolled))) }

    func scrollAndResize() {
        gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(gtk(scrolled)), 250)
        gtk_widget_set_size_request(gtk(button), -1, 300)
        emit(["type": "gtk", "event": "scrolled and resized"])
    }

    /// Takes the button away `seconds` after the first touch lands on it: what a widget that
    /// goes under a finger looks like.
    func takeButton(_ how: ButtonGoes, afterPress seconds: Double) {
        input.view(for: button).onTouches = { [unowned self] view, phase, _ in
            guard phase == .began else { return }
            view.onTouches = nil
            after(seconds) { [unowned self] in
                switch how {
                case .hide: gtk_widget_set_visible(gtk(button), 0)
                case .insensitive: gtk_widget_set_sensitive(gtk(button), 0)
                case .destroy: gtk_box_remove(gtk(side), gtk(button))   // its box held the only reference
                }
                emit(["type": "gtk", "event": "button gone", "how": how.rawValue])
            }
        }
    }

    /// The second window, with the picture moved into it (`--move-picture`).
    private var second: (window: Widget, input: GTKWindowInput)?

    /// Moves the picture, with its recognizers, into a second window of its own, and hides
    /// the first.
    func movePicture() {
        let other = Widget(gtk_window_new())!
        gtk_window_set_title(gtk(other), "GestureKit picture")
        gtk_window_set_default_size(gtk(other), 1000, 1000)
        let otherInput = GTKWindowInput(window: other)
        report(otherInput)
        second = (other, otherInput)
        let pictureView = input.view(for: picture)
        _ = g_object_ref(picture)
        gtk_box_remove(gtk(side), gtk(picture))
        gtk_window_set_child(gtk(other), gtk(picture))
        g_object_unref(picture)
        gtk_window_present(gtk(other))
        // The first window steps aside, so that the second has the screen (a compositor may
        // keep a full-screen window in front of a new one).
        gtk_widget_set_visible(gtk(window), 0)
        emit(["type": "gtk", "event": "picture moved",
              "rebound": GTKWindowInput.of(picture) === otherInput && pictureView.windowInput === otherInput
                  && otherInput.view(for: picture) === pictureView,
              "recognizers": pictureView.gestureRecognizers.map(\.name)])
    }

    /// The bounds of the widgets the tests touch, in the window's points.
    func layout() -> [String: [Double]] {
        if let controls { return bounds(of: controls.widgets) }
        if let scrolling { return bounds(of: scrolling.scrolled) }
        if let peers { return bounds(of: peers.widgets) }
        var named: [String: Widget] = ["button": button, "list": scrolled, "picture": picture]
        for (i, row) in rows.prefix(8).enumerated() { named["row\(i + 1)"] = row }
        return bounds(of: named)
    }

    fileprivate func drawn(_ cairo: OpaquePointer, width: Int32, height: Int32) {
        // A photo: sky, sun and hills, scaled about the centre by the pinch.
        let w = Double(width), h = Double(height)
        cairo_save(cairo)
        cairo_translate(cairo, w / 2, h / 2)
        cairo_scale(cairo, scale, scale)
        cairo_translate(cairo, -w / 2, -h / 2)
        cairo_set_source_rgb(cairo, 0.55, 0.75, 0.95)
        cairo_paint(cairo)
        cairo_set_source_rgb(cairo, 1.0, 0.85, 0.3)
        cairo_arc(cairo, w * 0.7, h * 0.3, min(w, h) * 0.12, 0, 2 * Double.pi)
        cairo_fill(cairo)
        cairo_set_source_rgb(cairo, 0.3, 0.6, 0.3)
        cairo_move_to(cairo, 0, h)
        cairo_curve_to(cairo, w * 0.3, h * 0.45, w * 0.6, h * 0.9, w, h * 0.55)
        cairo_line_to(cairo, w, h)
        cairo_close_path(cairo)
        cairo_fill(cairo)
        cairo_restore(cairo)
        checkReady()
    }

    /// Ready once a page's drawing area is drawn with the window at 1000 × 1000 points (or at
    /// any size without --ready-file): says so with the layout, once.
    func checkReady() {
        let size = (Int(gtk_widget_get_width(gtk(window))), Int(gtk_widget_get_height(gtk(window))))
        if !ready, readyFile == nil || size == (1000, 1000) {
            ready = true
            after(0) { [unowned self] in
                emit(["type": "ready", "layout": layout(), "scroll": scrollOffset])
                if let readyFile { _ = FileManager.default.createFile(atPath: readyFile, contents: nil) }
                onReady?()
            }
        }
    }

    func saveScreenshot(_ path: String) {
        let saved = gk_widget_save_png(window, path) != 0
        emit(["type": "screenshot", "path": path, "saved": saved])
    }

    // MARK: running

    func run() {
        gtk_window_present(gtk(window))
        // SIGTERM and SIGINT end the run as closing the window does.
        let me = Unmanaged.passUnretained(self).toOpaque()
        let signals = [SIGTERM, SIGINT].map { g_unix_signal_add_full(G_PRIORITY_DEFAULT, $0, onStopSignal, me, nil) }
        while running { g_main_context_iteration(nil, 1) }
        for source in signals { g_source_remove(source) }
        var end: [String: Any] = ["type": "end", "scroll": scrollOffset, "rows": rows.count]
        if let scrolling { end["scrolls"] = scrolling.scrolls() }
        if let dispatchCount {
            end["dispatched"] = dispatchCount.events
            dispatchCount.stop()
        }
        emit(end)
        input?.detach()
        if let second {
            second.input.detach()
            gtk_window_destroy(gtk(second.window))
        }
        gtk_window_destroy(gtk(window))
        while g_main_context_iteration(nil, 0) != 0 {}
    }

    func quit() { running = false }

    func after(_ seconds: Double, _ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Callback(body)).toOpaque()
        _ = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(0, seconds * 1000)), onCallbackOnce, box, onCallbackRelease)
    }

    /// The bounds of `widgets` in the window, in its points, by name.
    func bounds(of widgets: [String: Widget]) -> [String: [Double]] {
        var out: [String: [Double]] = [:]
        for (name, widget) in widgets {
            var x = 0.0, y = 0.0, w = 0.0, h = 0.0
            if gk_widget_bounds_in_window(widget, window, &x, &y, &w, &h) != 0 { out[name] = [x, y, w, h] }
        }
        return out
    }

    func emit(_ line: [String: Any]) {
        guard json, let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    private func connect(_ object: Widget, _ signal: String, _ callback: GCallback) {
        _ = gk_signal_connect(object, signal, callback, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// The button's context menu (`--context-menu`): Copy, Share (disabled), a Photo submenu with
/// Favourite (on), and a section with Delete (destructive).
extension WidgetsApp: ContextMenuInteractionDelegate {
    func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
        let chosen: (MenuAction) -> Void = { [unowned self] action in emit(["type": "gtk", "event": "menu action", "item": action.identifier]) }
        return ContextMenuConfiguration(identifier: "button", menu: Menu(title: "Button", children: [
            .action(MenuAction(title: "Copy", imageName: "edit-copy-symbolic", identifier: "copy", handler: chosen)),
            .action(MenuAction(title: "Share", imageName: "send-to-symbolic", identifier: "share", attributes: .disabled, handler: chosen)),
            .menu(Menu(title: "Photo", children: [
                .action(MenuAction(title: "Favourite", identifier: "favourite", state: .on, handler: chosen)),
                .action(MenuAction(title: "Rotate", identifier: "rotate", handler: chosen)),
            ])),
            .menu(Menu(options: .displayInline, children: [
                .action(MenuAction(title: "Delete", imageName: "edit-delete-symbolic", identifier: "delete",
                                   attributes: .destructive, handler: chosen)),
            ])),
        ]))
    }
}

private func app(_ data: gpointer?) -> WidgetsApp { Unmanaged<WidgetsApp>.fromOpaque(data!).takeUnretainedValue() }

private let onButtonClicked: @convention(c) (Widget?, gpointer?) -> Void = { _, data in app(data).clicked() }
private let onBackClicked: @convention(c) (Widget?, gpointer?) -> Void = { _, data in app(data).showPage("home") }
private let onButtonGestureCancelled: @convention(c) (Widget?, OpaquePointer?, gpointer?) -> Void = { _, _, data in app(data).buttonGestureCancelled() }
private let onPicturePressed: @convention(c) (Widget?, Int32, Double, Double, gpointer?) -> Void = { _, n, _, _, data in app(data).pressed(n) }
private let onRowActivated: @convention(c) (Widget?, Widget?, gpointer?) -> Void = { _, row, data in app(data).activated(row) }
private let onPopoverClosed: @convention(c) (Widget?, gpointer?) -> Void = { _, data in app(data).menuClosed() }
private let onCloseRequest: @convention(c) (Widget?, gpointer?) -> gboolean = { _, data in app(data).quit(); return 1 }
private let onStopSignal: @convention(c) (gpointer?) -> gboolean = { data in app(data).quit(); return 1 }
private let onDrawPicture: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
    guard let cairo else { return }
    app(data).drawn(cairo, width: width, height: height)
}

private final class Callback {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

private let onCallbackOnce: @convention(c) (gpointer?) -> gboolean = { data in
    Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue().body()
    return 0
}

private let onCallbackRelease: @convention(c) (gpointer?) -> Void = { data in
    Unmanaged<Callback>.fromOpaque(data!).release()
}
