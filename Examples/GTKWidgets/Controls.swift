import CGTK4
import Foundation
import GestureGTK
import GestureKit

/// The controls page (`gtk-widgets --page controls`): GTK's standard controls, each under one
/// of UIKit's three taps, to show the rule UIKit gives them all: a control whose touch a
/// recognizer recognizes gets its touch cancelled (GTK's `::cancel`) and never acts on it;
/// a touch the recognizer fails gives the control the whole touch, late if the recognizer
/// decided after the lift (`delaysTouchesEnded`).
///
/// Five columns of 200 points: a `GtkButton`, a `GtkToggleButton`, a `GtkCheckButton`, the
/// rows of an activatable `GtkListBox`, and a `GtkDrawingArea` with a `GtkGestureClick` of
/// the app's own. Three rows of 300 points under the header bar: a tap (`…-tap`), a double
/// tap (`…-double`) and a long press (`…-hold`) on each control. Each widget is named for its
/// cell (`button-tap`), and its view's id is that name.
///
/// With --json the app says what GTK did, per widget: each control's action ("clicked",
/// "toggled", "row activated", the drawing area's "released"), and what its own gestures
/// were told ("gesture pressed", "gesture released", "gesture cancel", and the list's
/// "gesture stopped": GTK forgets a press once its double-click time has passed); and what
/// the engine gave each view ("touches" with its phase).
final class ControlsPage {
    unowned let app: WidgetsApp
    /// The columns, left to right, and the rows, top to bottom.
    static let columns = ["button", "toggle", "check", "row", "drawing"]
    static let rows = ["tap", "double", "hold"]
    static let cellHeight = 300

    private(set) var widgets: [String: Widget] = [:]
    private var list: Widget!
    /// What the signal handlers need to say which widget spoke.
    private var probes: [Probe] = []

    init(app: WidgetsApp) { self.app = app }

    /// The page: five columns of three controls each.
    func build() -> Widget {
        let page = Widget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))!
        gtk_box_set_homogeneous(gtk(page), 1)
        for column in Self.columns {
            let box = Widget(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!
            if column == "row" {
                list = Widget(gtk_list_box_new())!
                connectProbe(list, "row-activated", onRowActivated, name: "list")
                for row in Self.rows {
                    let widget = Widget(gtk_list_box_row_new())!
                    gtk_list_box_row_set_child(gtk(widget), gtk(Widget(gtk_label_new("row \(row)"))!))
                    add(widget, "row-\(row)")
                    gtk_list_box_append(gtk(list), gtk(widget))
                }
                watchGestures(of: list, name: "list")
                gk_box_append(box, list)
            } else {
                for row in Self.rows {
                    let name = "\(column)-\(row)"
                    let widget: Widget
                    switch column {
                    case "button":
                        widget = Widget(gtk_button_new_with_label(name))!
                        connectProbe(widget, "clicked", onControlActed, name: name, action: "clicked")
                    case "toggle":
                        widget = Widget(gtk_toggle_button_new_with_label(name))!
                        connectProbe(widget, "toggled", onControlActed, name: name, action: "toggled")
                    case "check":
                        widget = Widget(gtk_check_button_new_with_label(name))!
                        connectProbe(widget, "toggled", onControlActed, name: name, action: "toggled")
                    default:
                        widget = Widget(gtk_drawing_area_new())!
                        gk_drawing_area_set_draw(widget, onDrawCell, Unmanaged.passUnretained(app).toOpaque())
                        // A drawing area's click: the app's own gesture, its "released" the action.
                        gk_widget_add_controller(widget, Widget(gtk_gesture_click_new())!)
                    }
                    add(widget, name)
                    watchGestures(of: widget, name: name)
                    gk_box_append(box, widget)
                }
            }
            gk_box_append(page, box)
        }
        return page
    }

    private func add(_ widget: Widget, _ name: String) {
        gtk_widget_set_name(gtk(widget), name)
        gtk_widget_set_size_request(gtk(widget), -1, Int32(Self.cellHeight))
        widgets[name] = widget
    }

    /// UIKit's three taps, one on each control of a row, with the recognizers' defaults
    /// (cancelsTouchesInView and delaysTouchesEnded true, delaysTouchesBegan false).
    func attachRecognizers(to input: GTKWindowInput) {
        for (name, widget) in widgets {
            let view = input.view(for: widget)
            let recognizer: GestureRecognizer
            if name.hasSuffix("-hold") {
                recognizer = LongPressGestureRecognizer()
            } else {
                let tap = TapGestureRecognizer()
                tap.numberOfTapsRequired = name.hasSuffix("-double") ? 2 : 1
                recognizer = tap
            }
            recognizer.name = name
            view.addGestureRecognizer(recognizer)
            view.onTouches = { [unowned self] view, phase, touches in
                guard phase == .ended || phase == .cancelled else { return }
                for _ in touches { app.emit(["type": "touches", "view": view.id ?? "", "phase": phase.rawValue]) }
            }
        }
    }

    // MARK: what GTK did

    /// Which widget a signal came from, and what its action is called.
    final class Probe {
        unowned let page: ControlsPage
        let name: String
        let action: String
        init(page: ControlsPage, name: String, action: String) { (self.page, self.name, self.action) = (page, name, action) }
    }

    private func probe(_ name: String, _ action: String = "") -> UnsafeMutableRawPointer {
        let probe = Probe(page: self, name: name, action: action)
        probes.append(probe)
        return Unmanaged.passUnretained(probe).toOpaque()
    }

    private func connectProbe<F>(_ object: Widget, _ signal: String, _ callback: F, name: String, action: String = "") {
        _ = gk_signal_connect(object, signal, unsafeBitCast(callback, to: GCallback.self), probe(name, action))
    }

    /// Reports what `widget`'s own click gestures are told (the list's speak for its rows).
    private func watchGestures(of widget: Widget, name: String) {
        var gestures = [UnsafeMutableRawPointer?](repeating: nil, count: 8)
        let n = Int(gk_widget_gestures(widget, &gestures, 8))
        for gesture in gestures[..<n].compactMap({ $0 }) {
            connectProbe(gesture, "pressed", onGesturePressed, name: name, action: "gesture pressed")
            connectProbe(gesture, "released", onGesturePressed, name: name, action: "gesture released")
            connectProbe(gesture, "cancel", onGestureCancelled, name: name)
            connectProbe(gesture, "stopped", onGestureStopped, name: name)
        }
    }

    /// The list's row at `y` of the list, by its name.
    private var lastListRow = "row-tap"
    fileprivate func listRow(atY y: Double) -> String {
        guard let row = gtk_list_box_get_row_at_y(gtk(list), Int32(y)) else { return lastListRow }
        lastListRow = String(cString: gtk_widget_get_name(UnsafeMutablePointer(OpaquePointer(row))))
        return lastListRow
    }

    fileprivate func said(_ probe: Probe, _ event: String, y: Double? = nil) {
        var widget = probe.name
        if widget == "list" { widget = y.map(listRow(atY:)) ?? lastListRow }
        if event == "gesture released" && probe.name.hasPrefix("drawing") { app.emit(["type": "gtk", "event": "released", "widget": widget]) }
        app.emit(["type": "gtk", "event": event, "widget": widget])
    }

    fileprivate func rowActivated(_ row: Widget?) {
        let name = row.map { String(cString: gtk_widget_get_name(gtk($0))) } ?? "?"
        app.emit(["type": "gtk", "event": "row activated", "widget": name])
    }
}

private func probe(_ data: gpointer?) -> ControlsPage.Probe { Unmanaged<ControlsPage.Probe>.fromOpaque(data!).takeUnretainedValue() }

private let onControlActed: @convention(c) (Widget?, gpointer?) -> Void = { _, data in
    let p = probe(data)
    p.page.said(p, p.action)
}
private let onRowActivated: @convention(c) (Widget?, Widget?, gpointer?) -> Void = { _, row, data in probe(data).page.rowActivated(row) }
private let onGesturePressed: @convention(c) (Widget?, Int32, Double, Double, gpointer?) -> Void = { _, _, _, y, data in
    let p = probe(data)
    p.page.said(p, p.action, y: y)
}
private let onGestureCancelled: @convention(c) (Widget?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    let p = probe(data)
    p.page.said(p, "gesture cancel")
}
private let onGestureStopped: @convention(c) (Widget?, gpointer?) -> Void = { _, data in
    let p = probe(data)
    p.page.said(p, "gesture stopped")
}
private let onDrawCell: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
    guard let cairo, let data else { return }
    cairo_set_source_rgb(cairo, 0.55, 0.75, 0.95)
    cairo_rectangle(cairo, 4, 4, Double(width) - 8, Double(height) - 8)
    cairo_fill(cairo)
    Unmanaged<WidgetsApp>.fromOpaque(data).takeUnretainedValue().checkReady()
}
