import CGTK4
import GestureGTK
import GestureKit

// A GTK 4 app outside GestureKit, written as a GTK developer writes one: its window comes
// from a GtkBuilder description, it calls GTK through the `CGTK4` product (GTK's C API, the
// module GestureKit's own GTK code uses), and it puts UIKit's recognizers on the real widgets
// through `GTKWindowInput`. It shows its window, says which bound widget is under each
// button's centre, then quits: `scripts/check-downstream-toolkits.sh` runs it on Xvfb.

let description = """
<interface>
  <object class="GtkWindow" id="main">
    <property name="default-width">400</property>
    <property name="default-height">300</property>
    <child>
      <object class="GtkBox" id="toolbar">
        <property name="orientation">vertical</property>
        <child><object class="GtkButton" id="share"><property name="label">Share</property></object></child>
        <child><object class="GtkButton" id="delete"><property name="label">Delete</property></object></child>
        <child><object class="GtkButton"><property name="label">Unnamed</property></object></child>
      </object>
    </child>
  </object>
</interface>
"""

gtk_init()
let builder = gtk_builder_new_from_string(description, -1)!
@MainActor func object(_ id: String) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(gtk_builder_get_object(builder, id))! }
let window = object("main")

/// The app's handlers, written as a UIKit view controller's.
final class ToolbarController {
    func share(_ tap: TapGestureRecognizer) { print("share tapped") }
    func confirmDelete(_ press: LongPressGestureRecognizer) { if press.state == .began { print("delete held") } }
}
let controller = ToolbarController()

let input = GTKWindowInput(window: window)
// A tap on Share (the button's own "clicked" never follows a tap the recognizer takes) and
// a long press on Delete, the buttons found by their GtkBuilder ids.
let shareView = input.view(for: object("share"))
shareView.addGestureRecognizer(TapGestureRecognizer(target: controller, action: ToolbarController.share))
let deleteView = input.view(for: object("delete"))
deleteView.addGestureRecognizer(LongPressGestureRecognizer(target: controller, action: ToolbarController.confirmDelete))
// The third button, bound by its pointer from the box's last child, has no name: its type's.
let unnamedView = input.view(for: UnsafeMutableRawPointer(gtk_widget_get_last_child(gk_widget(object("toolbar"))))!)
input.onTouchDisposition = { disposition in print("input: \(disposition)") }

gtk_window_present(gk_window(window))
// Wait for GTK to lay the window out and paint it (the views' frames follow each frame).
let deadline = g_get_monotonic_time() + 10_000_000
while [shareView, deleteView, unnamedView].contains(where: { $0.windowFrame.height <= 0 }), g_get_monotonic_time() < deadline {
    g_main_context_iteration(nil, 1)
}
for view in [shareView, deleteView, unnamedView] {
    let centre = Point(x: view.windowFrame.midX, y: view.windowFrame.midY)
    let under = input.view(at: centre)
    print("\(view.id ?? "?"): laid out \(view.windowFrame.height > 0), under its centre \(under.id ?? "?"), in \(view.superview?.id ?? "no view")")
}
input.detach()
gtk_window_destroy(gk_window(window))
