import GestureKit
import GestureWayland

// In a desktop session (GNOME, KDE, sway): the compositor hands the window its own touches,
// pointer and touchpad gestures, in the window's coordinates. No root, no input group.
let connection = try WaylandConnection()      // the session's WAYLAND_DISPLAY
let window = try WaylandWindow(connection: connection, title: "Photos", appID: "photos",
                               size: Size(width: 800, height: 480))

let engine = GestureEngine()
let photo = View(id: "photo", frame: Rect(origin: .zero, size: window.size))
engine.addRoot(photo)
window.onResize = { size in photo.frame = Rect(origin: .zero, size: size) }   // full screen, tiled
photo.addGestureRecognizer(TapGestureRecognizer(taps: 2) { _ in print("zoom") })
photo.addGestureRecognizer(PinchGestureRecognizer { pinch in
    if pinch.state == .changed { print("scale \(pinch.scale)") }
})

// Until the window is closed, Ctrl-C, or the compositor goes away (touches then cancelled):
// the connection and the engine's next deadline wait in one poll.
let reason = try WaylandInput(connection: connection, window: window).run(engine)
print("stopped: \(reason)")
