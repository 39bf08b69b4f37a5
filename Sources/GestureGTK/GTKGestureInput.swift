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
/// - Time and deadlines: `GTKInputDriver`'s rules (GDK's event times rebased; one GLib
///   timeout at the client's next deadline).
/// - Claiming: GTK lets the gestures of a widget and of its ancestors all see a touch
///   sequence until one claims it. Once a recognizer of `engine` has begun (or recognized)
///   on the touches down, every one of their sequences is claimed by a gesture of ours in
///   the capture phase (`GTKSequenceClaims`, whatever the number of fingers), and their later
///   events stop at the widget, so the gestures of the parents' bubble phase (the default
///   phase) no longer see them. A parent's capture-phase gesture (a `GtkScrolledWindow`'s
///   drag) that claims a sequence takes it: claimed before the widget saw it, the widget
///   never does; claimed later, GTK cancels it in our gesture and the touch is cancelled in
///   the engine (UIKit's touchesCancelled), so nothing is left down. Without an engine
///   nothing is claimed. Recognizers on real widgets (buttons, lists) are
///   `GTKWindowInput`'s.
/// - The end: the widget's `unrealize` (its window closed or destroyed), or `detach()`,
///   cancels the touches down and a touchpad gesture under way, ends hovering, takes a pen out
///   of proximity, and finishes the client, so every recognizer ends in a final state.
public final class GTKGestureInput {
    /// The widget, as GTK's `GtkWidget *` (any binding's pointer to it converts).
    public let widget: UnsafeMutableRawPointer
    public var client: any LiveInputClient { driver.client }
    /// The engine whose recognizers claim the touch sequences they take (see above).
    public weak var engine: GestureEngine?
    /// Called after every batch of input and every deadline: where the app asks to redraw
    /// (`gtk_widget_queue_draw`).
    public var afterInput: (() -> Void)?
    /// The widget's scale factor: device pixels a point on its output (GTK's integer scale;
    /// locations are in points whatever it is).
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(gk_widget(widget))) }
    /// The monotonic time of the first event: zero on the client's clock.
    public var origin: Instant? { driver.origin }
    /// Whether the host has ended (the widget unrealized, or `detach()`).
    public private(set) var isDetached = false

    private let driver: GTKInputDriver
    private var legacy: UnsafeMutableRawPointer?
    private var claims: GTKSequenceClaims?
    private var eventHandler: gulong = 0
    private var cancelHandler: gulong = 0
    private var unrealizeHandler: gulong = 0

    /// Attaches to `widget` (a `GtkWidget *`, which the host keeps a reference to). Input flows
    /// until the widget is unrealized or `detach()`; keep a reference to the host.
    public init(widget: UnsafeMutableRawPointer, client: any LiveInputClient, engine: GestureEngine? = nil) {
        self.widget = gk_object_ref(widget)!   // held until the host goes, so detaching is always safe
        self.driver = GTKInputDriver(client: client)
        self.engine = engine ?? (client as? GestureEngine)
        let me = Unmanaged.passUnretained(self).toOpaque()

        let legacy = UnsafeMutableRawPointer(gtk_event_controller_legacy_new())!
        gk_controller_set_capture(legacy)
        eventHandler = gk_signal_connect(legacy, "event", unsafeBitCast(gtkLegacyEvent, to: GCallback.self), me)
        gk_widget_add_controller(widget, legacy)
        self.legacy = legacy

        let claims = GTKSequenceClaims()
        cancelHandler = gk_signal_connect(claims.gesture, "cancel", unsafeBitCast(gtkSequenceCancelled, to: GCallback.self), me)
        gk_widget_add_controller(widget, claims.gesture)
        self.claims = claims
        driver.afterDeadline = { [unowned self] in
            claimSequences()
            afterInput?()
        }

        unrealizeHandler = gk_signal_connect(widget, "unrealize", unsafeBitCast(gtkUnrealize, to: GCallback.self), me)
    }

    deinit {
        if !isDetached { detach() }
        gk_object_unref(widget)
    }

    /// A drag the compositor now carries took the touches down (it sends them no more, not
    /// even their lift): they are cancelled at GLib's next idle turn, after the event being
    /// handled.
    func touchesTakenByDrag() {
        let box = Unmanaged.passRetained(GTKCallback { [weak self] in
            guard let self, !isDetached else { return }
            driver.cancelTouches()
            afterInput?()
        }).toOpaque()
        _ = g_idle_add_full(G_PRIORITY_DEFAULT, gtkCallbackOnce, box, gtkCallbackRelease)
    }

    /// Whether touches are down (a drag begun now is a touch's).
    var hasTouchesDown: Bool { !driver.touchSequences.isEmpty }

    /// Ends the host: what is in progress is cancelled, the client finished, the controllers
    /// removed from the widget.
    public func detach() {
        guard !isDetached else { return }
        isDetached = true
        driver.finish()
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
        if let claims {
            gk_signal_disconnect(claims.gesture, cancelHandler)
            gk_widget_remove_controller(widget, claims.gesture)
        }
        (legacy, claims) = (nil, nil)
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
        let type = gdk_event_get_event_type(event)
        let sequence = GDKEventReader.isTouch(type) ? gdk_event_get_event_sequence(event) : nil
        // A claimed sequence's later events stop here: the widget's parents never see them.
        let stop = sequence.map { claims?.isClaimed($0) ?? false } ?? false
        if let sequence, type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL { claims?.forget(sequence) }
        guard driver.read(event, widget: widget) else { return stop }
        claimSequences()
        driver.schedule()
        afterInput?()
        return stop
    }

    // MARK: claiming

    private func claimSequences() {
        guard let claims else { return }
        guard !driver.reader.touches.isEmpty else {
            if claims.count > 0 { claims.reset() }   // its points of sequences whose end it never saw
            return
        }
        guard let engine, Self.hasTakenInput(engine) else { return }
        for sequence in driver.reader.sequences { claims.claim(sequence) }
    }

    /// How many touch sequences are claimed now (for the tests' three-finger check).
    package var claimedSequences: Int { claims?.count ?? 0 }

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
        guard !isDetached, let sequence, driver.cancel(sequence: sequence) else { return }
        claims?.forget(sequence)
        driver.schedule()
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

private let gtkSequenceCancelled: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, sequence, data in
    guard let data else { return }
    Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().sequenceCancelled(sequence)
}

private let gtkRootEvent: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
    guard let event, let data else { return 0 }
    return Unmanaged<GTKGestureInput>.fromOpaque(data).takeUnretainedValue().handleAtRoot(event) ? 1 : 0
}
