import CGTK4
import Foundation
import GestureGTK
import GestureKit

/// The scrolling page (`gtk-widgets --page scrolling`): a swipe up on a list in a
/// `GtkScrolledWindow`, four times, each settled with the scrolled window's own touch drag
/// (`GTKWindowInput.recognizer(forScrollingOf:)`, UIKit's `UIScrollView.panGestureRecognizer`)
/// by one of UIKit's rules:
/// - `require`: the swipe requires the scroll to fail (`require(toFail:)`): the list
///   scrolls, the swipe fails;
/// - `simultaneous`: the swipe's delegate lets it recognize with the scroll
///   (`shouldRecognizeSimultaneouslyWith`): the list scrolls and the swipe recognizes;
/// - `exclusive`: no rule between them: the scroll begins first and prevents the swipe;
/// - `fits`: the swipe requires the scroll to fail, on a list too short to scroll: GTK denies
///   its drag at touch-down, so the swipe recognizes and nothing scrolls;
/// - `hold`: a long press of 0.2 s (not cancelling touches in view, so that no claim from the
///   window cancels GTK's drag for it) begins before the finger moves and prevents the
///   scroll: the engine fails the drag's recognizer, GestureGTK denies GTK's drag the touch,
///   and the list does not scroll under the drag that follows.
///
/// A strip of 50 points under the header bar (a drawing area: the app is ready once it is
/// drawn), then five columns of 200 points, one per rule, left to right, each a scrolled
/// window named for its rule holding a list of rows 100 points tall (30 rows; 3 in `fits`).
/// With --json the app says each recognizer's transitions (the scroll's is
/// `<rule>.GtkGestureDrag`) and, at the end, how far each list scrolled ("scrolls").
final class ScrollingPage: GestureRecognizerDelegate {
    unowned let app: WidgetsApp
    static let rules = ["require", "simultaneous", "exclusive", "fits", "hold"]

    private(set) var scrolled: [String: Widget] = [:]
    private var lists: [String: Widget] = [:]
    /// The scroll recognizer each swipe may recognize with (`simultaneous`).
    private var simultaneousScroll: GTKGestureRecognizer?

    init(app: WidgetsApp) { self.app = app }

    func build() -> Widget {
        let page = Widget(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))!
        let strip = Widget(gtk_drawing_area_new())!
        gtk_widget_set_size_request(gtk(strip), -1, 50)
        gk_drawing_area_set_draw(strip, onDrawStrip, Unmanaged.passUnretained(app).toOpaque())
        gk_box_append(page, strip)
        let columns = Widget(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))!
        gtk_box_set_homogeneous(gtk(columns), 1)
        gtk_widget_set_vexpand(gtk(columns), 1)
        for rule in Self.rules {
            let window = Widget(gtk_scrolled_window_new())!
            gtk_scrolled_window_set_policy(gtk(window), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_widget_set_name(gtk(window), rule)
            let list = Widget(gtk_list_box_new())!
            gtk_widget_set_name(gtk(list), "\(rule)-list")
            for n in 1...(rule == "fits" ? 3 : 30) {
                let row = Widget(gtk_list_box_row_new())!
                gtk_widget_set_size_request(gtk(row), -1, 100)
                gtk_list_box_row_set_child(gtk(row), gtk(Widget(gtk_label_new("\(rule) \(n)"))!))
                gtk_list_box_append(gtk(list), gtk(row))
            }
            gtk_scrolled_window_set_child(gtk(window), gtk(list))
            gk_box_append(columns, window)
            scrolled[rule] = window
            lists[rule] = list
        }
        gk_box_append(page, columns)
        return page
    }

    func attachRecognizers(to input: GTKWindowInput) {
        for rule in Self.rules {
            guard let window = scrolled[rule], let list = lists[rule],
                  let scroll = input.recognizer(forScrollingOf: window) else {
                app.emit(["type": "error", "message": "\(rule): the scrolled window has no touch drag"])
                continue
            }
            if rule == "hold" {
                let hold = LongPressGestureRecognizer(target: self, action: ScrollingPage.held)
                hold.minimumPressDuration = .milliseconds(200)
                hold.allowableMovement = .infinity
                hold.cancelsTouchesInView = false
                hold.name = "hold-longPress"
                input.view(for: list).addGestureRecognizer(hold)
                continue
            }
            let swipe = SwipeGestureRecognizer(target: self, action: ScrollingPage.swiped)
            swipe.direction = .up
            swipe.name = "\(rule)-swipe"
            switch rule {
            case "require", "fits": swipe.require(toFail: scroll)
            case "simultaneous":
                simultaneousScroll = scroll
                swipe.delegate = self
            default: break
            }
            input.view(for: list).addGestureRecognizer(swipe)
        }
    }

    /// GTK's own gestures for the same jobs, and no GestureKit (`--gtk-gestures`): a
    /// `GtkGestureSwipe` on each list, a `GtkGestureLongPress` of 0.2 s on `hold`'s. What a
    /// GTK app would write; the cost comparison's other side.
    func attachGTKGestures() {
        for rule in Self.rules {
            guard let list = lists[rule] else { continue }
            let me = Unmanaged.passUnretained(self).toOpaque()
            if rule == "hold" {
                let press = Widget(gtk_gesture_long_press_new())!
                gtk_gesture_long_press_set_delay_factor(gtk(press), 0.4)   // GTK's 0.5 s × 0.4
                _ = gk_signal_connect(press, "pressed", unsafeBitCast(onGTKLongPress, to: GCallback.self), me)
                gk_widget_add_controller(list, press)
            } else {
                let swipe = Widget(gtk_gesture_swipe_new())!
                _ = gk_signal_connect(swipe, "swipe", unsafeBitCast(onGTKSwipe, to: GCallback.self), me)
                gk_widget_add_controller(list, swipe)
            }
        }
    }

    fileprivate func gtkSaid(_ what: String) { app.emit(["type": "gtk", "event": what, "scrolls": scrolls()]) }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        other === simultaneousScroll
    }

    func swiped(_ swipe: SwipeGestureRecognizer) {
        guard swipe.state == .ended else { return }
        app.emit(["type": "gtk", "event": "swiped", "recognizer": swipe.name, "scrolls": scrolls()])
    }

    func held(_ hold: LongPressGestureRecognizer) {
        guard hold.state == .began else { return }
        app.emit(["type": "gtk", "event": "held", "scrolls": scrolls()])
    }

    /// How far each list has scrolled, in points.
    func scrolls() -> [String: Double] {
        scrolled.mapValues { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(gtk($0))) }
    }

}

private let onDrawStrip: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
    guard let cairo, let data else { return }
    cairo_set_source_rgb(cairo, 0.55, 0.75, 0.95)
    cairo_rectangle(cairo, 0, 0, Double(width), Double(height))
    cairo_fill(cairo)
    Unmanaged<WidgetsApp>.fromOpaque(data).takeUnretainedValue().checkReady()
}

private func page(_ data: gpointer?) -> ScrollingPage { Unmanaged<ScrollingPage>.fromOpaque(data!).takeUnretainedValue() }
private let onGTKSwipe: @convention(c) (Widget?, Double, Double, gpointer?) -> Void = { _, _, _, data in page(data).gtkSaid("GtkGestureSwipe swipe") }
private let onGTKLongPress: @convention(c) (Widget?, Double, Double, gpointer?) -> Void = { _, _, _, data in page(data).gtkSaid("GtkGestureLongPress pressed") }
