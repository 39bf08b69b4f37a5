import CGTK4

/// GTK's dispatch of every input event, made one function a profiler can name
/// (`gtk-widgets --count-dispatch`): the measure of the cost comparison in
/// Benchmarks/README.md ("GTK's gestures and GestureGTK's").
///
/// GTK hands a window's events to its surface's "event" signal, whose handler (GtkWindow's,
/// private to GTK) runs the whole dispatch: picking the widget, the controllers of every
/// phase, GTK's gestures, and GestureGTK's reader when there is one. That handler is blocked,
/// and `gtkWidgetsDispatchEvent`, connected in its place, emits the signal again with it
/// unblocked; so the profile's inclusive cost of `gtkWidgetsDispatchEvent` is GTK's dispatch
/// of each event, whichever gestures it runs, and none of the drawing (the frame clock's, a
/// source of its own). `events` counts the events dispatched.
final class DispatchCount {
    private let surface: OpaquePointer
    private let signal: guint
    private let gtkHandler: gulong
    private var handler: gulong = 0
    private(set) var events = 0

    /// Nil when `window` has no surface yet, or GTK's handler of its events is not found.
    init?(window: Widget) {
        guard let native = gtk_widget_get_native(gtk(window)), let surface = gtk_native_get_surface(native) else { return nil }
        let signal = g_signal_lookup("event", gdk_surface_get_type())
        // GtkWindow connects its handler with the window as its data.
        let gtkHandler = g_signal_handler_find(UnsafeMutableRawPointer(surface), GSignalMatchType(rawValue: G_SIGNAL_MATCH_ID.rawValue | G_SIGNAL_MATCH_DATA.rawValue),
                                               signal, 0, nil, nil, window)
        guard signal != 0, gtkHandler != 0 else { return nil }
        (self.surface, self.signal, self.gtkHandler) = (surface, signal, gtkHandler)
        g_signal_handler_block(UnsafeMutableRawPointer(surface), gtkHandler)
        handler = gk_signal_connect(UnsafeMutableRawPointer(surface), "event", unsafeBitCast(gtkWidgetsDispatchEvent, to: GCallback.self),
                                    Unmanaged.passUnretained(self).toOpaque())
    }

    /// GTK's handler back in its place.
    func stop() {
        guard handler != 0 else { return }
        gk_signal_disconnect(UnsafeMutableRawPointer(surface), handler)
        g_signal_handler_unblock(UnsafeMutableRawPointer(surface), gtkHandler)
        handler = 0
    }

    /// Emits the surface's "event" again for `event`, with GTK's handler in place of this one
    /// (so that the profile sees no recursion); whether it was handled.
    fileprivate func dispatch(_ event: OpaquePointer) -> gboolean {
        events += 1
        let instance = UnsafeMutableRawPointer(surface)
        g_signal_handler_block(instance, handler)
        g_signal_handler_unblock(instance, gtkHandler)
        defer {
            g_signal_handler_block(instance, gtkHandler)
            g_signal_handler_unblock(instance, handler)
        }
        let pointerType = GType(17) << GType(G_TYPE_FUNDAMENTAL_SHIFT)    // G_TYPE_POINTER
        let booleanType = GType(5) << GType(G_TYPE_FUNDAMENTAL_SHIFT)     // G_TYPE_BOOLEAN
        var parameters = [GValue(), GValue()]
        var result = GValue()
        parameters.withUnsafeMutableBufferPointer { values in
            g_value_init(&values[0], gdk_surface_get_type())
            g_value_set_object(&values[0], UnsafeMutableRawPointer(surface))
            g_value_init(&values[1], pointerType)
            g_value_set_pointer(&values[1], UnsafeMutableRawPointer(event))
            g_value_init(&result, booleanType)
            g_signal_emitv(values.baseAddress, signal, 0, &result)
            g_value_unset(&values[0])
            g_value_unset(&values[1])
        }
        let handled = g_value_get_boolean(&result)
        g_value_unset(&result)
        return handled
    }
}

/// The surface's "event" handler in GTK's place (`DispatchCount`); its name is what the
/// cost comparison reads in the profile.
private let gtkWidgetsDispatchEvent: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
    guard let event, let data else { return 0 }
    return Unmanaged<DispatchCount>.fromOpaque(data).takeUnretainedValue().dispatch(event)
}
