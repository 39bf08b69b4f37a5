import CGTK4
import GestureInput
import GestureKit

/// GestureKit inside a GTK 4 widget: the widget's input (touches, pointer, scrolling, touchpad
/// gestures, pens, modifier keys) goes to a `LiveInputClient` (a `GestureEngine`, a scene's
/// session), on GTK's own main loop.
///
/// - Input: a `GtkEventControllerLegacy` on the widget, in the capture phase, sees every
///   event aimed at the widget or its children before they do; `GDKEventReader` turns each
///   into the engine's input.
/// - Time: the client's clock is GDK's event time (CLOCK_MONOTONIC) less the first event's,
///   as every live source's; its deadlines (a long press's duration, a double tap's interval,
///   a fling's frames) are a GLib timeout at the next one, set again after every event and
///   every deadline. Nothing here reads a clock but to schedule that timeout.
/// - Claiming: GTK lets the gestures of a widget and of its ancestors all see a touch
///   sequence until one claims it. GtkGesture's documentation ("States of a sequence"): a
///   claim sets the sequence denied in the other gestures of the widget and in the gestures of
///   its parents (GTK 4.8 to 4.18 deny there only the gestures that had claimed it
///   themselves), cancels it in the gestures of the widgets underneath, and stops the
///   propagation of its events after the claiming gesture's widget. A `GtkGestureZoom` of
///   ours, in the capture phase, tracks every sequence on the widget: once a recognizer of
///   `engine` has begun (or recognized) on the touches down, their sequences are claimed, so
///   the gestures of the parents' bubble phase (the default phase) no longer see them.
///   A parent's capture-phase gesture (a `GtkScrolledWindow`'s drag) that claims a sequence
///   takes it: claimed before the widget saw it, the widget never does; claimed later, GTK
///   cancels it in our gesture and the touch is cancelled in the engine (UIKit's
///   touchesCancelled), so nothing is left down. Without an engine nothing is claimed.
/// - The end: the widget's `unrealize` (its window closed or destroyed), or `detach()`,
///   cancels the touches down and a touchpad gesture under way, ends hovering, takes a pen out
///   of proximity, and finishes the client, so every recognizer ends in a final state.
public final class GTKGestureInput {
    /// The widget, as GTK's `GtkWidget *` (any binding's pointer to it converts).
    public let widget: UnsafeMutableRawPointer
    public let client: any LiveInputClient
    /// The engine whose recognizers claim the touch sequences they take (see above).
    public weak var engine: GestureEngine?
    /// Called after every batch of input and every deadline: where the app asks to redraw
    /// (`gtk_widget_queue_draw`).
    public var afterInput: (() -> Void)?
    /// The widget's scale factor: device pixels a point on its output (GTK's integer scale;
    /// locations are in points whatever it is).
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(gk_widget(widget))) }
    /// The monotonic time of the first event: zero on the client's clock.
    public var origin: Instant? { clock.origin }
    /// Whether the host has ended (the widget unrealized, or `detach()`).
    public private(set) var isDetached = false

    private var reader = GDKEventReader()
    /// The client's clock: where this host rebases GDK's times, as the live loop does a
    /// source's.
    private var clock = ClientClock()
    private var unfinished = UnfinishedGestures()
    private var legacy: UnsafeMutableRawPointer?
    private var claimer: UnsafeMutableRawPointer?
    private var eventHandler: gulong = 0
    private var cancelHandler: gulong = 0
    private var unrealizeHandler: gulong = 0
    private var timeout: guint = 0
    private var claimed: Set<OpaquePointer> = []

    /// Attaches to `widget` (a `GtkWidget *`, which the host keeps a reference to). Input flows
    /// until the widget is unrealized or `detach()`; keep a reference to the host.
    public init(widget: UnsafeMutableRawPointer, client: any LiveInputClient, engine: GestureEngine? = nil) {
        self.widget = gk_object_ref(widget)!   // held until the host goes, so detaching is always safe
        self.client = client
        self.engine = engine ?? (client as? GestureEngine)
        let me = Unmanaged.passUnretained(self).toOpaque()

        let legacy = UnsafeMutableRawPointer(gtk_event_controller_legacy_new())!
        gk_controller_set_capture(legacy)
        eventHandler = gk_signal_connect(legacy, "event", unsafeBitCast(gtkLegacyEvent, to: GCallback.self), me)
        gk_widget_add_controller(widget, legacy)
        self.legacy = legacy

        let claimer = UnsafeMutableRawPointer(gtk_gesture_zoom_new())!
        gk_controller_set_capture(claimer)
        cancelHandler = gk_signal_connect(claimer, "cancel", unsafeBitCast(gtkSequenceCancelled, to: GCallback.self), me)
        gk_widget_add_controller(widget, claimer)
        self.claimer = claimer

        unrealizeHandler = gk_signal_connect(widget, "unrealize", unsafeBitCast(gtkUnrealize, to: GCallback.self), me)
    }

    deinit {
        if !isDetached { detach() }
        gk_object_unref(widget)
    }

    /// Ends the host: what is in progress is cancelled, the client finished, the controllers
    /// removed from the widget.
    public func detach() {
        guard !isDetached else { return }
        isDetached = true
        let time = reader.time.now
        for event in reader.cancelAll(at: time) { deliver(event) }
        for event in unfinished.cancelAll(at: time) { deliver(event) }
        client.finish()
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        gk_signal_disconnect(widget, unrealizeHandler)
        if let legacy {
            gk_signal_disconnect(legacy, eventHandler)
            gk_widget_remove_controller(widget, legacy)
        }
        if let (root, controller, handler) = rootController {
            gk_signal_disconnect(controller, handler)
            gk_widget_remove_controller(root, controller)
            gk_object_unref(root)
            rootController = nil
        }
        if let claimer {
            gk_signal_disconnect(claimer, cancelHandler)
            gk_widget_remove_controller(widget, claimer)
        }
        (legacy, claimer) = (nil, nil)
        afterInput?()
    }

    // MARK: events

    /// GTK gives a tablet tool's proximity events to the window, not to the widget under the
    /// tool: a second controller, on the widget's root, passes those on (set up with the
    /// first event, once the widget is in a window).
    private var rootController: (root: UnsafeMutableRawPointer, controller: UnsafeMutableRawPointer, handler: gulong)?

    private func watchRoot() {
        guard rootController == nil, let root = gk_widget_root(widget) else { return }
        let controller = UnsafeMutableRawPointer(gtk_event_controller_legacy_new())!
        gk_controller_set_capture(controller)
        let handler = gk_signal_connect(controller, "event", unsafeBitCast(gtkRootEvent, to: GCallback.self),
                                        Unmanaged.passUnretained(self).toOpaque())
        gk_widget_add_controller(root, controller)
        rootController = (gk_object_ref(root)!, controller, handler)
    }

    fileprivate func handleAtRoot(_ event: OpaquePointer) -> Bool {
        let type = gdk_event_get_event_type(event)
        guard !isDetached, type == GDK_PROXIMITY_IN || type == GDK_PROXIMITY_OUT else { return false }
        return handle(event, atRoot: true)
    }

    fileprivate func handle(_ event: OpaquePointer, atRoot: Bool = false) -> Bool {
        // A popover of the widget (a context menu) is its own surface: its events are its own.
        guard !isDetached, atRoot || gk_event_on_widget_surface(widget, event) != 0 else { return false }
        watchRoot()
        let events = reader.read(event, widget: widget)
        guard !events.isEmpty else { return false }
        for e in events { deliver(e) }
        claimSequences()
        schedule()
        afterInput?()
        // The event goes on to the widget's own handlers and children: GestureKit observes,
        // and claims touch sequences through the claiming gesture.
        return false
    }

    private func deliver(_ event: InputEvent) {
        if let cancel = unfinished.cancel(before: event) { client.handle(clock.rebased(cancel)) }
        client.handle(clock.rebased(event))
    }

    /// The client's clock now.
    private var now: Instant {
        clock.clientTime(MonotonicClock.now()) ?? .zero
    }

    // MARK: deadlines

    private func schedule() {
        if timeout != 0 { g_source_remove(timeout) }
        timeout = 0
        guard !isDetached, let deadline = client.nextDeadline else { return }
        let wait = max(0, deadline.nanoseconds - now.nanoseconds)
        let ms = guint((wait + 999_999) / 1_000_000)
        timeout = g_timeout_add_full(G_PRIORITY_DEFAULT, ms, gtkDeadline,
                                     Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    fileprivate func deadlineFired() {
        timeout = 0
        guard !isDetached else { return }
        client.advance(to: now)
        claimSequences()
        schedule()
        afterInput?()
    }

    // MARK: claiming

    private func claimSequences() {
        guard let claimer, let engine, !reader.touches.isEmpty else {
            if reader.touches.isEmpty { claimed.removeAll() }
            return
        }
        guard Self.hasTakenInput(engine) else { return }
        for sequence in reader.sequences where !claimed.contains(sequence) {
            if gk_gesture_handles(claimer, sequence) != 0 {
                gk_gesture_claim(claimer, sequence)
                claimed.insert(sequence)
            }
        }
    }

    /// Whether a recognizer of the engine has begun or recognized (took the touches).
    static func hasTakenInput(_ engine: GestureEngine) -> Bool {
        var views = engine.roots
        while let view = views.popLast() {
            for recognizer in view.gestureRecognizers {
                switch recognizer.state {
                case .began, .changed, .ended: return true
                case .possible, .cancelled, .failed: break
                }
            }
            views += view.subviews
        }
        return false
    }

    /// GTK cancelled `sequence` in our claiming gesture: a gesture of another widget claimed
    /// it. Its touch is cancelled.
    fileprivate func sequenceCancelled(_ sequence: OpaquePointer?) {
        guard !isDetached, let sequence else { return }
        let time = reader.time.now
        let events = reader.cancel(sequence: sequence, at: time)
        guard !events.isEmpty else { return }
        claimed.remove(sequence)
        for e in events { deliver(e) }
        schedule()
        afterInput?()
    }

    fileprivate func unrealized() { detach() }
}

private let gtkLegacyEvent: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
    guard let event, let data else { return 0 }
    return Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().handle(event) ? 1 : 0
}

private let gtkUnrealize: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    guard let data else { return }
    Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().unrealized()
}

private let gtkDeadline: @convention(c) (gpointer?) -> gboolean = { data in
    guard let data else { return 0 }
    Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().deadlineFired()
    return 0   // G_SOURCE_REMOVE: the next deadline is a new timeout
}

private let gtkSequenceCancelled: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, sequence, data in
    guard let data else { return }
    Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().sequenceCancelled(sequence)
}

private let gtkRootEvent: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
    guard let event, let data else { return 0 }
    return Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().handleAtRoot(event) ? 1 : 0
}
