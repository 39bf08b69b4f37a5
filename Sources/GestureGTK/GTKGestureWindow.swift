import CGTK4
import GestureInput
import GestureKit
#if canImport(Glibc)
import Glibc
#endif

/// Why GTK could not give a window.
public enum GTKError: Error, CustomStringConvertible, Equatable {
    /// `gtk_init_check` failed: no display to open.
    case noDisplay

    public var description: String {
        switch self {
        case .noDisplay:
            "GTK could not open a display: run in a desktop session (WAYLAND_DISPLAY or DISPLAY set)"
        }
    }
}

/// Drawing into a GTK window with cairo: the few operations a view tree's picture needs, in
/// the widget's points.
public struct GTKDrawingContext {
    let cairo: OpaquePointer
    public let size: Size

    public func setColor(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        cairo_set_source_rgba(cairo, red, green, blue, alpha)
    }

    public func fill(_ rect: Rect) {
        cairo_rectangle(cairo, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height)
        cairo_fill(cairo)
    }

    public func stroke(_ rect: Rect, width: Double = 1) {
        cairo_set_line_width(cairo, width)
        cairo_rectangle(cairo, rect.origin.x + width / 2, rect.origin.y + width / 2,
                        rect.size.width - width, rect.size.height - width)
        cairo_stroke(cairo)
    }

    public func fillCircle(center: Point, radius: Double) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, center.x, center.y, radius, 0, 2 * Double.pi)
        cairo_fill(cairo)
    }

    public enum TextAlignment: Sendable { case left, center, right }

    /// One line of text in `rect`, vertically centred, aligned as asked, clipped to the rect
    /// (cairo's own text, DejaVu Sans or the system's sans-serif).
    public func text(_ string: String, in rect: Rect, size: Double, bold: Bool = false,
                     alignment: TextAlignment = .left) {
        cairo_save(cairo)
        cairo_rectangle(cairo, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height)
        cairo_clip(cairo)
        cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, string, &extents)
        let x: Double
        switch alignment {
        case .left: x = rect.origin.x
        case .center: x = rect.origin.x + (rect.size.width - extents.x_advance) / 2
        case .right: x = rect.origin.x + rect.size.width - extents.x_advance
        }
        let baseline = rect.origin.y + rect.size.height / 2 - (extents.y_bearing + extents.height / 2)
        cairo_move_to(cairo, x, baseline)
        cairo_show_text(cairo, string)
        cairo_restore(cairo)
    }

    /// Runs `body` with the drawing moved, scaled and rotated by `transform` (restored after).
    public func withTransform(_ transform: AffineTransform, _ body: () -> Void) {
        cairo_save(cairo)
        var m = cairo_matrix_t(xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d,
                               x0: transform.tx, y0: transform.ty)
        cairo_transform(cairo, &m)
        body()
        cairo_restore(cairo)
    }
}

/// A GTK 4 window of `size` holding one `GtkDrawingArea` with GestureKit attached
/// (`GTKGestureInput`): what an app with nothing but a view tree needs, and how
/// `gesturekit-gtk` shows a scene. `draw` paints it (default: the engine's views, outlined);
/// every input and deadline redraws. `run` turns GLib's main loop until `timeLimit`, the
/// window's close, SIGINT or SIGTERM; the touches still down are then cancelled.
public final class GTKGestureWindow {
    /// Why a run ended: `duration` (its time limit, or `stopRunning()`), `windowClosed`, or
    /// `signal` (SIGINT or SIGTERM).
    public typealias StopReason = InputStopReason

    public let input: GTKGestureInput
    public var draw: ((GTKDrawingContext) -> Void)?
    /// Called after every drawing of the area, with the size it was drawn at: how a client
    /// knows its window is on screen at the size the compositor gave it (`gesturekit-gtk
    /// --ready-file`).
    public var onDrawn: ((Size) -> Void)?
    private let window: UnsafeMutableRawPointer
    private let area: UnsafeMutableRawPointer
    private var stop: StopReason?
    private var sources: [guint] = []

    public init(title: String, size: Size, client: any LiveInputClient, engine: GestureEngine? = nil) throws {
        guard gtk_init_check() != 0 else { throw GTKError.noDisplay }
        window = UnsafeMutableRawPointer(gtk_window_new())!
        area = UnsafeMutableRawPointer(gtk_drawing_area_new())!
        input = GTKGestureInput(widget: area, client: client, engine: engine)
        let me = Unmanaged.passUnretained(self).toOpaque()
        gk_window_setup(window, title, Int32(size.width.rounded()), Int32(size.height.rounded()), area)
        gk_drawing_area_set_draw(area, gtkDraw, me)
        _ = gk_signal_connect(window, "close-request", unsafeBitCast(gtkCloseRequest, to: GCallback.self), me)
        input.afterInput = { [area] in gtk_widget_queue_draw(gk_widget(area)) }
        if let engine = input.engine {
            contextMenus = GTKContextMenuPresenter(parent: area, engine: engine)
            dragAndDrop = GTKDragAndDrop(widget: area, engine: engine, input: input)
        }
    }

    /// Draws the engine's context menus (`ContextMenuInteraction`) as `GtkPopoverMenu`s over
    /// the drawing area; nil without an engine.
    public private(set) var contextMenus: GTKContextMenuPresenter?
    /// Drags between this window and other apps, through GTK (with an engine).
    public private(set) var dragAndDrop: GTKDragAndDrop?

    /// The window's size now (the compositor may have made it other than asked).
    public var size: Size {
        Size(width: Double(gtk_widget_get_width(gk_widget(area))), height: Double(gtk_widget_get_height(gk_widget(area))))
    }

    /// Shows the window and runs GLib's main loop until a stop (the window closed, a signal,
    /// `stopRunning()`, or `timeLimit` passed); then the input is detached (touches
    /// cancelled, the client finished) and the window destroyed.
    @discardableResult
    public func run(timeLimit: Duration? = nil) -> StopReason {
        let me = Unmanaged.passUnretained(self).toOpaque()
        gtk_window_present(gk_window(window))
        // Each source stays until the run ends (returning G_SOURCE_CONTINUE), then is removed.
        if let timeLimit {
            sources.append(g_timeout_add_full(G_PRIORITY_DEFAULT, Self.milliseconds(timeLimit), gtkDurationOver, me, nil))
        }
        sources.append(g_unix_signal_add_full(G_PRIORITY_DEFAULT, SIGINT, gtkSignal, me, nil))
        sources.append(g_unix_signal_add_full(G_PRIORITY_DEFAULT, SIGTERM, gtkSignal, me, nil))
        while stop == nil { g_main_context_iteration(nil, 1) }
        for source in sources { g_source_remove(source) }
        sources.removeAll()
        input.detach()
        gtk_window_destroy(gk_window(window))
        while g_main_context_iteration(nil, 0) != 0 {}
        return stop!
    }

    @available(*, deprecated, renamed: "run(timeLimit:)", message: "durations are Duration values: use run(timeLimit: .seconds(s))")
    @discardableResult
    public func run(duration: Double?) -> StopReason {
        run(timeLimit: duration.map { Duration(seconds: $0) })
    }

    /// `duration` in whole milliseconds for GLib's timeouts (none below zero).
    static func milliseconds(_ duration: Duration) -> guint {
        guint(clamping: max(0, duration.nanosecondCount / 1_000_000))
    }

    /// Writes the drawing area as it is drawn now to `path` as a PNG, rendered by the window's
    /// own renderer (a picture of the window's content, whatever the display: Wayland, X11).
    /// False when it cannot (the window not shown yet, the file not written).
    @discardableResult
    public func savePNG(to path: String) -> Bool {
        gk_widget_save_png(area, path) != 0
    }

    /// A menu of `items` in a popover pointing at `point` (the drawing area's points), as a
    /// context menu is shown; `chosen` is called with the index of the item picked (the menu
    /// then closes), or not at all if it is dismissed.
    public func showMenu(at point: Point, items: [String], chosen: @escaping (Int) -> Void) {
        menu = GTKMenu(chosen: chosen)
        let popover = UnsafeMutableRawPointer(gtk_popover_new())!
        let box = UnsafeMutableRawPointer(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!
        for (index, item) in items.enumerated() {
            let button = UnsafeMutableRawPointer(gtk_button_new_with_label(item))!
            gk_button_set_flat(button)
            let data = UnsafeMutableRawPointer(bitPattern: index + 1)
            _ = gk_signal_connect(button, "clicked", unsafeBitCast(gtkMenuItemClicked, to: GCallback.self),
                                  Unmanaged.passUnretained(self).toOpaque())
            gk_object_set_data(button, "gesturekit-menu-index", data)
            gk_box_append(box, button)
        }
        gk_popover_show(popover, box, area, Int32(point.x.rounded()), Int32(point.y.rounded()))
        menu?.popover = popover
    }

    /// The menu on screen, if any: what it calls back.
    private var menu: GTKMenu?

    fileprivate func menuItemClicked(_ button: UnsafeMutableRawPointer) {
        guard let menu else { return }
        let index = Int(bitPattern: gk_object_get_data(button, "gesturekit-menu-index")) - 1
        self.menu = nil
        if let popover = menu.popover { gk_popover_close(popover) }
        if index >= 0 { menu.chosen(index) }
    }

    /// Puts a `GtkGestureDrag` on the window itself, an ancestor of the drawing area, in the
    /// capture phase, claiming its sequence once it has moved `claimAfter` points (as
    /// `GtkScrolledWindow`'s drag does), and reports what happens to it: "begin", "claimed",
    /// "end", "cancel". A diagnostic: it shows how GTK's own gestures and GestureKit's
    /// recognizers share a touch.
    public func observeWindowDrag(claimAfter threshold: Double = 8, _ report: @escaping (String) -> Void) {
        windowDragReport = report
        windowDragThreshold = threshold
        let drag = UnsafeMutableRawPointer(gtk_gesture_drag_new())!
        gk_gesture_single_touch_only(drag, 0)
        gk_controller_set_capture(drag)
        let me = Unmanaged.passUnretained(self).toOpaque()
        for (signal, callback) in [("drag-begin", gtkWindowDragBegin), ("drag-update", gtkWindowDragUpdate),
                                   ("drag-end", gtkWindowDragEnd)] {
            _ = gk_signal_connect(drag, signal, unsafeBitCast(callback, to: GCallback.self), me)
        }
        _ = gk_signal_connect(drag, "cancel", unsafeBitCast(gtkWindowDragCancel, to: GCallback.self), me)
        gk_widget_add_controller(window, drag)
    }

    fileprivate var windowDragThreshold = 8.0
    fileprivate var windowDragClaimed = false

    fileprivate func windowDragMoved(_ gesture: UnsafeMutableRawPointer, _ x: Double, _ y: Double) {
        guard !windowDragClaimed, (x * x + y * y).squareRoot() >= windowDragThreshold else { return }
        windowDragClaimed = true
        gk_gesture_claim_all(gesture)
        windowDragReport?("claimed")
    }

    fileprivate var windowDragReport: ((String) -> Void)?

    /// Takes the drawing area out of the window, destroying it, `delay` from now (zero: at
    /// once): what an app does when it replaces its content. The input host detaches then
    /// (`GTKGestureInput`: the widget's unrealize), cancelling the touches down; the window
    /// stays until the run ends.
    public func destroyContent(after delay: Duration = .zero) {
        after(delay) { [weak self] in self?.removeArea() }
    }

    @available(*, deprecated, message: "durations are Duration values: use destroyContent(after: .seconds(s))")
    public func destroyContent(after seconds: Double) {
        destroyContent(after: Duration(seconds: seconds))
    }

    /// Runs `body` once on GLib's main loop, `delay` from now (while the window runs), to
    /// the millisecond.
    public func after(_ delay: Duration, _ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(GTKCallback(body)).toOpaque()
        _ = g_timeout_add_full(G_PRIORITY_DEFAULT, Self.milliseconds(delay), gtkCallbackOnce, box, gtkCallbackRelease)
    }

    @available(*, deprecated, message: "durations are Duration values: use after(.seconds(s)) { … }")
    public func after(seconds: Double, _ body: @escaping () -> Void) {
        after(Duration(seconds: seconds), body)
    }

    fileprivate func removeArea() {
        guard stop == nil else { return }
        gtk_window_set_child(gk_window(window), nil)
    }

    fileprivate func stopped(_ reason: StopReason) {
        if stop == nil { stop = reason }
    }

    /// Ends `run` as its time limit would (from a callback: `after(_:_:)`, `onDrawn`).
    public func stopRunning() {
        stopped(.duration)
    }

    fileprivate func paint(_ cairo: OpaquePointer, width: Int32, height: Int32) {
        let size = Size(width: Double(width), height: Double(height))
        let context = GTKDrawingContext(cairo: cairo, size: size)
        if let draw {
            draw(context)
        } else {
            context.setColor(red: 1, green: 1, blue: 1)
            context.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
            if let engine = input.engine {
                for root in engine.roots { Self.outline(root, in: context) }
            }
        }
        onDrawn?(size)
    }

    /// A view and its subviews as outlined rectangles, each in its parent's coordinates.
    static func outline(_ view: View, in context: GTKDrawingContext) {
        context.setColor(red: 0.55, green: 0.6, blue: 0.7)
        context.stroke(view.frame)
        context.withTransform(AffineTransform(translationX: view.frame.origin.x - view.boundsOrigin.x,
                                              y: view.frame.origin.y - view.boundsOrigin.y)) {
            for subview in view.subviews { outline(subview, in: context) }
        }
    }
}

private let gtkDraw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
    guard let cairo, let data else { return }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().paint(cairo, width: width, height: height)
}

private let gtkCloseRequest: @convention(c) (OpaquePointer?, gpointer?) -> gboolean = { _, data in
    guard let data else { return 0 }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().stopped(.windowClosed)
    return 1   // the run destroys the window itself
}

private let gtkDurationOver: @convention(c) (gpointer?) -> gboolean = { data in
    guard let data else { return 0 }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().stopped(.duration)
    return 1
}

private let gtkSignal: @convention(c) (gpointer?) -> gboolean = { data in
    guard let data else { return 0 }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().stopped(.signal)
    return 1
}

/// A closure handed to GLib as its data.
final class GTKCallback {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

let gtkCallbackOnce: @convention(c) (gpointer?) -> gboolean = { data in
    guard let data else { return 0 }
    Unmanaged<GTKCallback>.fromOpaque(data).takeUnretainedValue().body()
    return 0
}

let gtkCallbackRelease: @convention(c) (gpointer?) -> Void = { data in
    guard let data else { return }
    Unmanaged<GTKCallback>.fromOpaque(data).release()
}

/// A context menu on screen and what it calls back.
private final class GTKMenu {
    let chosen: (Int) -> Void
    var popover: UnsafeMutableRawPointer?
    init(chosen: @escaping (Int) -> Void) { self.chosen = chosen }
}

private let gtkMenuItemClicked: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { button, data in
    guard let button, let data else { return }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().menuItemClicked(button)
}

private let gtkWindowDragBegin: @convention(c) (UnsafeMutableRawPointer?, Double, Double, gpointer?) -> Void = { _, _, _, data in
    guard let data else { return }
    let window = Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue()
    window.windowDragClaimed = false
    window.windowDragReport?("begin")
}

private let gtkWindowDragUpdate: @convention(c) (UnsafeMutableRawPointer?, Double, Double, gpointer?) -> Void = { gesture, x, y, data in
    guard let gesture, let data else { return }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().windowDragMoved(gesture, x, y)
}

private let gtkWindowDragEnd: @convention(c) (UnsafeMutableRawPointer?, Double, Double, gpointer?) -> Void = { _, _, _, data in
    guard let data else { return }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().windowDragReport?("end")
}

private let gtkWindowDragCancel: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    guard let data else { return }
    Unmanaged<GTKGestureWindow>.fromOpaque(data).takeUnretainedValue().windowDragReport?("cancel")
}
