import GestureGTK
import GestureKit

/// What a photo app does when its gestures end: the app's own GTK code, in any binding.
struct PhotoActions {
    var goBack: () -> Void
    var openMenu: () -> Void
    var deleteRow: (_ row: UnsafeMutableRawPointer) -> Void
    var chooseMenuItem: (_ item: UnsafeMutableRawPointer) -> Void
}

/// A photo app's recognizers on its real GTK widgets. Every widget is a `GtkWidget *` from
/// the app's own GTK code (the C API, SwiftCrossUI, Adwaita for Swift), as a raw pointer.
/// Keep this object as long as the window lives.
final class PhotoGestures {
    let input: GTKWindowInput
    let actions: PhotoActions
    /// A swipe from the window's left edge: back.
    let edgeSwipe: ScreenEdgePanGestureRecognizer

    /// `window` is the app's `GtkWindow *` (from any of its widgets, `gtk_widget_get_root`).
    init(window: UnsafeMutableRawPointer, actions: PhotoActions) {
        input = GTKWindowInput(window: window)
        self.actions = actions
        edgeSwipe = ScreenEdgePanGestureRecognizer(edges: .left, name: "back") { edge in
            if edge.state == .ended { actions.goBack() }
        }
        // On the window's own view, the root of every widget's view: it sees every touch.
        input.windowView.addGestureRecognizer(edgeSwipe)
    }

    /// A `GtkButton`: a long press opens its menu. Once the long press has begun, the
    /// button's touch is cancelled in GTK (cancelsTouchesInView), so it never emits
    /// "clicked" for it; a tap still clicks.
    func bindMenuButton(_ button: UnsafeMutableRawPointer) {
        let hold = LongPressGestureRecognizer(name: "menu") { [actions] hold in
            if hold.state == .began { actions.openMenu() }
        }
        input.view(for: button).addGestureRecognizer(hold)
    }

    /// A row of a `GtkListBox` in a `GtkScrolledWindow`: a swipe left deletes it. The swipe
    /// holds its touch back from the list (delaysTouchesBegan), so neither the scrolled
    /// window nor the row sees a touch that swipes; when it fails (a vertical drag, a tap),
    /// they get the touch and the list scrolls or the row activates. It waits for the edge
    /// swipe to fail, so a swipe from the window's edge goes back instead.
    func bindRow(_ row: UnsafeMutableRawPointer) {
        let swipe = SwipeGestureRecognizer(direction: .left, name: "delete") { [actions] swipe in
            if swipe.state == .ended { actions.deleteRow(row) }
        }
        swipe.delaysTouchesBegan = true
        swipe.require(toFail: edgeSwipe)
        input.view(for: row).addGestureRecognizer(swipe)
    }

    /// An item of the menu (a `GtkButton` in the `GtkPopover` the app opened on the menu
    /// button): bound once the popover exists, like any widget of the window.
    func bindMenuItem(_ item: UnsafeMutableRawPointer) {
        let tap = TapGestureRecognizer(name: "menu item") { [actions] tap in
            if tap.state == .ended { actions.chooseMenuItem(item) }
        }
        input.view(for: item).addGestureRecognizer(tap)
    }
}
