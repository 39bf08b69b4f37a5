import CGTK4
import GestureGTK
import GestureKit

/// The peers page (`gtk-widgets --page peers`): GTK's own gestures on widgets, each as a
/// recognizer (`GTKWindowInput.recognizer(for:)`), settled with UIKit's recognizers by UIKit's
/// rules. Five columns of 200 points, named for their rule:
/// - `click-require`: a `GtkButton`, under a tap that requires the button's click to fail
///   (`require(toFail:)`): the click claims the touch at its release, so the tap fails and the
///   button clicks;
/// - `click-exclusive`: a `GtkButton` under a tap with no rule: the tap recognizes at the
///   lift, the click is failed and denied, and the button does not click;
/// - `press-require`: a drawing area with a `GtkGestureLongPress` of the app's (it claims the
///   touch when it is pressed, as GTK's widgets do), under a tap that requires it to fail: a
///   hold is GTK's long press, and the tap fails; a tap lifts before GTK's long press time,
///   the long press fails and the tap recognizes;
/// - `swipe-simultaneous`: a drawing area with a `GtkGestureSwipe` of the app's (it claims the
///   touch once the finger moves), under a pan the delegate lets recognize with it: both;
/// - `swipe-exclusive`: the same with no rule: GTK's swipe claims at the first move, before
///   the pan has moved far enough to begin, and prevents it.
///
/// With --json the app says each recognizer's transitions (GTK's are `<column>.<GTK type>`),
/// and what GTK did: "clicked", "long pressed", "swiped", and "gesture cancel" for a button
/// whose own gesture GTK was told to cancel.
final class PeersPage: GestureRecognizerDelegate {
    unowned let app: WidgetsApp
    static let columns = ["click-require", "click-exclusive", "press-require", "swipe-simultaneous", "swipe-exclusive"]

    private(set) var widgets: [String: Widget] = [:]
    /// The app's own GTK gesture of each drawing-area column.
    private var gestures: [String: Widget] = [:]
    /// GTK's swipe the `swipe-simultaneous` pan may recognize with.
    private var simultaneousSwipe: GTKGestureRecognizer?
    private var probes: [Probe] = []

    init(app: WidgetsApp) { self.app = app }

    func build() -> Widget {
        let page = Widget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))!
        gtk_box_set_homogeneous(gtk(page), 1)
        for column in Self.columns {
            let widget: Widget
            if column.hasPrefix("click") {
                widget = Widget(gtk_button_new_with_label(column))!
                connect(widget, "clicked", onActed, probe(column, "clicked"))
                var found = [UnsafeMutableRawPointer?](repeating: nil, count: 8)
                let n = Int(gk_widget_gestures(widget, &found, 8))
                for gesture in found[..<n].compactMap({ $0 }) { connect(gesture, "cancel", onCancelled, probe(column, "gesture cancel")) }
            } else {
                widget = Widget(gtk_drawing_area_new())!
                gk_drawing_area_set_draw(widget, onDrawColumn, Unmanaged.passUnretained(app).toOpaque())
                let gesture: Widget
                if column.hasPrefix("press") {
                    gesture = Widget(gtk_gesture_long_press_new())!
                    connect(gesture, "pressed", onLongPressed, probe(column, "long pressed"))
                } else {
                    gesture = Widget(gtk_gesture_swipe_new())!
                    connect(gesture, "update", onSwipeUpdated, probe(column, ""))
                    connect(gesture, "swipe", onSwiped, probe(column, "swiped"))
                }
                gk_widget_add_controller(widget, gesture)
                gestures[column] = gesture
            }
            gtk_widget_set_name(gtk(widget), column)
            gtk_widget_set_vexpand(gtk(widget), 1)
            gk_box_append(page, widget)
            widgets[column] = widget
        }
        return page
    }

    /// Each column's GTK gesture as a recognizer, and UIKit's recognizer beside it by the
    /// column's rule.
    func attachRecognizers(to input: GTKWindowInput) {
        for column in Self.columns {
            guard let widget = widgets[column], let gtkGesture = gestures[column] ?? clickGesture(of: widget),
                  let peer = input.recognizer(for: gtkGesture) else {
                app.emit(["type": "error", "message": "\(column): no GTK gesture to stand for"])
                continue
            }
            let recognizer: GestureRecognizer
            if column.hasPrefix("swipe") {
                recognizer = PanGestureRecognizer()
                if column == "swipe-simultaneous" {
                    simultaneousSwipe = peer
                    recognizer.delegate = self
                }
                recognizer.name = "\(column)-pan"
            } else {
                recognizer = TapGestureRecognizer()
                if column.hasSuffix("require") { recognizer.require(toFail: peer) }
                recognizer.name = "\(column)-tap"
            }
            input.view(for: widget).addGestureRecognizer(recognizer)
        }
    }

    /// A button's own click gesture.
    private func clickGesture(of button: Widget) -> Widget? {
        var found = [UnsafeMutableRawPointer?](repeating: nil, count: 8)
        let n = Int(gk_widget_gestures(button, &found, 8))
        return found[..<n].compactMap { $0 }.first { String(cString: gk_type_name($0)) == "GtkGestureClick" }
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        other === simultaneousSwipe
    }

    // MARK: what GTK did

    /// Which column a signal came from, and what to say of it.
    final class Probe {
        unowned let page: PeersPage
        let column: String
        let event: String
        init(page: PeersPage, column: String, event: String) { (self.page, self.column, self.event) = (page, column, event) }
        func say() { page.app.emit(["type": "gtk", "event": event, "widget": column]) }
    }

    private func probe(_ column: String, _ event: String) -> UnsafeMutableRawPointer {
        let probe = Probe(page: self, column: column, event: event)
        probes.append(probe)
        return Unmanaged.passUnretained(probe).toOpaque()
    }

    private func connect<F>(_ object: Widget, _ signal: String, _ callback: F, _ data: UnsafeMutableRawPointer) {
        _ = gk_signal_connect(object, signal, unsafeBitCast(callback, to: GCallback.self), data)
    }
}

private func probe(_ data: gpointer?) -> PeersPage.Probe { Unmanaged<PeersPage.Probe>.fromOpaque(data!).takeUnretainedValue() }

private let onActed: @convention(c) (Widget?, gpointer?) -> Void = { _, data in probe(data).say() }
private let onCancelled: @convention(c) (Widget?, OpaquePointer?, gpointer?) -> Void = { _, _, data in probe(data).say() }
/// GTK's long press held long enough: the app takes the touch, as GTK's widgets do.
private let onLongPressed: @convention(c) (Widget?, Double, Double, gpointer?) -> Void = { gesture, _, _, data in
    if let gesture { gtk_gesture_set_state(gtk(gesture), GTK_EVENT_SEQUENCE_CLAIMED) }
    probe(data).say()
}
/// GTK's swipe moved: the app takes the touch (a swipe is under way).
private let onSwipeUpdated: @convention(c) (Widget?, OpaquePointer?, gpointer?) -> Void = { gesture, _, _ in
    if let gesture { gtk_gesture_set_state(gtk(gesture), GTK_EVENT_SEQUENCE_CLAIMED) }
}
private let onSwiped: @convention(c) (Widget?, Double, Double, gpointer?) -> Void = { _, _, _, data in probe(data).say() }
private let onDrawColumn: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
    guard let cairo, let data else { return }
    cairo_set_source_rgb(cairo, 0.55, 0.75, 0.95)
    cairo_rectangle(cairo, 4, 4, Double(width) - 8, Double(height) - 8)
    cairo_fill(cairo)
    Unmanaged<WidgetsApp>.fromOpaque(data).takeUnretainedValue().checkReady()
}
