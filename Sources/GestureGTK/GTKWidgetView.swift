import CGTK4
import GestureKit

/// A `View` that follows a real GTK widget (a button, a list row, a scrolled window, a
/// picture): add recognizers to it as to any view, and they arbitrate with those of the
/// widget's ancestors and descendants as UIKit's do. Get one from
/// `GTKWindowInput.view(for:)`; the window's own is `GTKWindowInput.windowView`.
///
/// What it takes from GTK, stated once:
/// - its frame is the widget's bounds (`gtk_widget_compute_bounds`) in the coordinates of the
///   nearest ancestor widget that has a view, pulled at every touch-down and after every
///   frame GTK lays out and paints (GTK 4 has no allocation signal);
/// - it is hidden while the widget is unmapped, and takes no touches while it is
///   insensitive;
/// - its superview is the view of the nearest ancestor widget that has one (the window's
///   view at the top), so binding a list and its rows in any order nests them as GTK does;
/// - a touch lands on the view of the widget GTK picks (`gtk_widget_pick`, which honours
///   can-target, clipping and popovers), or of its nearest ancestor with a view.
///
/// What GTK gets from it: touches its recognizers take (cancelsTouchesInView) are claimed
/// from the window, so the widgets' own gestures are cancelled; touches a recognizer delays
/// (delaysTouchesBegan) reach the widgets only if it fails (`GTKWindowInput`).
public final class GTKWidgetView: View {
    /// The widget, as GTK's `GtkWidget *` (any binding's pointer to it converts). Valid while
    /// the widget lives: the view does not keep it alive.
    public let widget: UnsafeMutableRawPointer
    /// The window input the view is in now (nil while its widget is in no window that has
    /// one).
    public internal(set) weak var windowInput: GTKWindowInput?
    /// The widget's bounds in its window's coordinates, as last pulled (at every touch-down
    /// and after every frame GTK paints).
    public internal(set) var windowFrame = Rect.zero

    /// A view for `widget`; its `id` (what traces and the engine's logs call it) is the name
    /// the app gave the widget: its GtkBuilder id, else its widget name
    /// (`gtk_widget_set_name`), else its type name ("GtkButton").
    init(widget: UnsafeMutableRawPointer) {
        self.widget = widget
        let name = gk_widget_id(widget).map { String(cString: $0) } ?? "GtkWidget"
        super.init(frame: .zero)
        id = name
    }

    /// The window's view hit-tests as GTK picks: the view of the widget GTK would give the
    /// event to, or of its nearest ancestor with a view.
    override public func hitTest(_ point: Point) -> View? {
        guard let windowInput, windowInput.windowView === self else { return super.hitTest(point) }
        return windowInput.pickedView(at: point)
    }

    override public func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        windowInput?.touchesReachedWidgets(touches)
        super.touchesBegan(touches, with: event)
    }

    override public func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        windowInput?.touchesEndedInWidgets(touches)
        super.touchesEnded(touches, with: event)
    }

    override public func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        windowInput?.touchesTakenFromWidgets(touches)
        super.touchesCancelled(touches, with: event)
    }
}
