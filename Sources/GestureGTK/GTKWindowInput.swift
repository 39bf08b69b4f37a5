import CGTK4
import GestureInput
import GestureKit

/// GestureKit on a whole GTK 4 window: one engine for the window, whose views follow the
/// window's real widgets (`GTKWidgetView`), so that recognizers go on an app's buttons, lists
/// and pictures and settle the conflicts with GTK's own gestures by UIKit's rules.
///
/// ```swift
/// let input = GTKWindowInput(window: window)
/// let buttonView = input.view(for: button)
/// buttonView.addGestureRecognizer(longPress)
/// ```
///
/// How UIKit's rules become GTK's mechanisms, stated once (GTK 4.8 to 4.18, all public API):
/// - **Input.** A `GtkEventControllerLegacy` on the window, in the capture phase with no
///   propagation limit, sees every event of the window and its popovers before any widget
///   does. `GDKEventReader` reads it in the window's coordinates; `GTKInputDriver` hands it to
///   the engine on GDK's times and runs its deadlines on GLib's main loop.
/// - **Hit-testing.** At touch-down the frames are pulled and the touch lands on the view of
///   the widget GTK picks (`gtk_widget_pick`), or of its nearest ancestor with a view.
/// - **cancelsTouchesInView** is a claim of the touch's sequence from the window
///   (`GTKSequenceClaims`): GTK cancels it in every widget's gestures (`::cancel`: a button
///   that was pressed never emits "clicked"), and its later events stop at the window.
/// - **A GTK gesture that claims first** (a scrolled window's drag, past its threshold) takes
///   the touch: the engine hears it cancelled (UIKit's touchesCancelled), so no recognizer
///   is left waiting for it. The gestures of the widgets under the touch are watched for that
///   (`GtkGesture::sequence-state-changed`) from touch-down to lift.
/// - **delaysTouchesBegan** is GTK's press emulation, for one touch at a time: a touch that a
///   delaying recognizer may take is claimed at its press by a second gesture of the window,
///   so no widget sees it; if the recognizer recognizes, nothing more; if it fails while the
///   touch is down, the claim is given up and GTK gives the widgets one press where the touch
///   is then, and the rest of the touch. A touch whose recognizers fail as it lifts is given
///   up before its lift reaches the widgets, so a tap still clicks.
/// - **What GTK cannot do.** delaysTouchesEnded (GTK cannot hold a lift back and deliver it
///   later: its pointer focus is gone by then), the moves made while a touch was delayed
///   (the widgets get one press at the latest position), a second delayed finger while one
///   is held (the delaying gesture takes one sequence), and events GTK routes to a modal
///   grab elsewhere.
/// - **Lifecycle.** A widget unmapped, made insensitive or destroyed cancels the touches that
///   landed in it or its descendants; a widget moved to another window takes its view (and
///   its recognizers) to that window's input, if it has one. Closing or destroying the
///   window, or `detach()`, cancels what is in progress and finishes the engine.
public final class GTKWindowInput {
    /// The window, as GTK's `GtkWindow *`.
    public let window: UnsafeMutableRawPointer
    public let engine: GestureEngine
    /// The view of the window itself: the root of the engine's views.
    public let windowView: GTKWidgetView
    /// Called after every batch of input and every deadline.
    public var afterInput: (() -> Void)?
    /// Whether the input has ended (the window unrealized, or `detach()`).
    public private(set) var isDetached = false
    /// Claims and gives up by this input, for tests and diagnostics ("claimed", "delayed",
    /// "released", "taken by GTK"), with the widget's type.
    package var onSequence: ((String, Int) -> Void)?

    private let driver: GTKInputDriver
    /// The window's reading and claiming controllers, and a popover's: GTK starts an event's
    /// propagation at an open popover's grab, so a popover with bound widgets gets its own.
    private final class NativeInput {
        let native: UnsafeMutableRawPointer
        let legacy: UnsafeMutableRawPointer
        let claims = GTKSequenceClaims()
        var handlers: [(object: UnsafeMutableRawPointer, handler: gulong)] = []
        init(native: UnsafeMutableRawPointer) {
            self.native = native
            legacy = UnsafeMutableRawPointer(gtk_event_controller_legacy_new())!
            gk_controller_set_capture(legacy)
            gk_controller_set_limit_none(legacy)
        }
    }
    private var natives: [UnsafeMutableRawPointer: NativeInput] = [:]
    private var windowNative: NativeInput { natives[window]! }
    /// The event last handled: with no grab, the window's and a popover's controllers both
    /// see an event in the popover, and the first reads it.
    private var lastEvent: (event: OpaquePointer, time: UInt32, type: GdkEventType)?
    /// The gesture that holds a touch back from the widgets while a delaying recognizer may
    /// take it (GTK's press emulation gives it to them if it is given up).
    private let delayer: UnsafeMutableRawPointer
    private var handlers: [(object: UnsafeMutableRawPointer, handler: gulong)] = []
    private var frameClock: (clock: UnsafeMutableRawPointer, handler: gulong)?

    /// A touch (or the mouse's press, the nil sequence) from its press to its lift.
    private struct Contact {
        var view: GTKWidgetView?
        /// The claims of the controllers that read its press.
        let claims: GTKSequenceClaims
        var reachedWidgets = false
        var delayed = false
        var takenByGTK = false
    }
    private var contacts: [UnsafeMutableRawPointer?: Contact] = [:]
    /// The view a touch-down being handled lands on (the engine's hit test asks for it).
    private var pickedAtTouchDown: GTKWidgetView??
    /// The gestures of the widgets under the touches, watched for claims.
    private var watched: [UnsafeMutableRawPointer: gulong] = [:]
    private var views: [UnsafeMutableRawPointer: GTKWidgetView] = [:]

    /// The input of `widget`'s window, if it has one (`gtk_widget_get_root`).
    public static func of(_ widget: UnsafeMutableRawPointer) -> GTKWindowInput? {
        guard let root = gk_widget_root(widget), let data = gk_object_get_data(root, key) else { return nil }
        return Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue()
    }

    private static let key = "gesturekit-window-input"

    /// GestureKit on `window` (a `GtkWindow *`; from any widget, `gtk_widget_get_root`).
    /// Keep a reference to the input: it runs until the window is unrealized or `detach()`.
    /// `client` receives the input instead of the engine (a recorder passing it on).
    public init(window: UnsafeMutableRawPointer, engine: GestureEngine = GestureEngine(),
                client: (any LiveInputClient)? = nil) {
        precondition(gk_is_window(window) != 0, "GTKWindowInput needs a GtkWindow: \(String(cString: gk_type_name(window)))")
        precondition(GTKWindowInput.of(window) == nil, "the window already has a GTKWindowInput")
        self.window = gk_object_ref(window)!
        self.engine = engine
        self.driver = GTKInputDriver(client: client ?? engine)
        windowView = GTKWidgetView(widget: window)
        delayer = gk_claimer_new(1)!
        gk_controller_set_limit_none(delayer)
        windowView.windowInput = self
        views[window] = windowView
        engine.addRoot(windowView)
        let me = Unmanaged.passUnretained(self).toOpaque()
        gk_object_set_data(window, Self.key, me)

        // GTK 4.8 to 4.18 run a widget's controllers last added first. In that order, on the
        // window: the claiming gesture sees a press before the engine (so that a claim at once
        // can be made); the delaying gesture after it (so that it knows whether the press was
        // held back; `delayerBegan` copes with the other order).
        connect(delayer, "begin", unsafeBitCast(gtkDelayerBegin, to: GCallback.self))
        gk_widget_add_controller(window, delayer)
        watchNative(window)
        connect(window, "unrealize", unsafeBitCast(gtkWindowUnrealize, to: GCallback.self))
        connect(window, "realize", unsafeBitCast(gtkWindowRealize, to: GCallback.self))
        watchFrames()
        driver.afterDeadline = { [unowned self] in afterInput?() }
    }

    deinit {
        if !isDetached { detach() }
        gk_object_unref(window)
    }

    private func connect(_ object: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback) {
        handlers.append((object, gk_signal_connect(object, signal, callback, Unmanaged.passUnretained(self).toOpaque())))
    }

    /// Ends the input: what is in progress is cancelled, the engine finished, the views
    /// unbound and the controllers removed from the window.
    public func detach() {
        guard !isDetached else { return }
        isDetached = true
        driver.finish()
        unwatchGestures()
        for (object, handler) in handlers { gk_signal_disconnect(object, handler) }
        handlers.removeAll()
        if let (clock, handler) = frameClock { gk_signal_disconnect(clock, handler) }
        frameClock = nil
        for view in views.values where view !== windowView { unbind(view, keepingRecognizers: true) }
        for input in natives.values {
            for (object, handler) in input.handlers { gk_signal_disconnect(object, handler) }
            gk_widget_remove_controller(input.native, input.legacy)
            gk_widget_remove_controller(input.native, input.claims.gesture)
        }
        natives.removeAll()
        gk_widget_remove_controller(window, delayer)
        gk_object_set_data(window, Self.key, nil)
        afterInput?()
    }

    // MARK: views

    /// The view that follows `widget` (a `GtkWidget *` in this window, or in a popover of
    /// it), made the first time it is asked for: its superview is the view of the nearest
    /// ancestor widget that has one.
    public func view(for widget: UnsafeMutableRawPointer) -> GTKWidgetView {
        if let view = views[widget] { return view }
        if let data = gk_object_get_data(widget, GTKWindowInput.viewKey) {
            // Bound in another window before: it comes here, recognizers and all.
            let view = Unmanaged<GTKWidgetView>.fromOpaque(data).takeUnretainedValue()
            if let other = view.windowInput, other !== self { other.unbind(view, keepingRecognizers: true) }
            bind(view)
            return view
        }
        let view = GTKWidgetView(widget: widget)
        bind(view)
        return view
    }

    static let viewKey = "gesturekit-view"

    private func bind(_ view: GTKWidgetView) {
        let widget = view.widget
        views[widget] = view
        view.windowInput = self
        gk_object_set_data(widget, Self.viewKey, Unmanaged.passUnretained(view).toOpaque())
        connect(widget, "unmap", unsafeBitCast(gtkWidgetUnmapped, to: GCallback.self))
        connect(widget, "destroy", unsafeBitCast(gtkWidgetDestroyed, to: GCallback.self))
        for signal in ["state-flags-changed", "notify::root"] {
            connect(widget, signal, unsafeBitCast(gtkWidgetChanged, to: GCallback.self))
        }
        place(view)
        // Views bound before under this widget now nest in it.
        for other in views.values where other !== view && other !== windowView { place(other) }
        sync(view)
    }

    /// Reads the events of `native` (the window, or a popover of a bound widget) from now on.
    private func watchNative(_ native: UnsafeMutableRawPointer) {
        guard natives[native] == nil else { return }
        let input = NativeInput(native: native)
        let me = Unmanaged.passUnretained(self).toOpaque()
        input.handlers.append((input.legacy, gk_signal_connect(input.legacy, "event", unsafeBitCast(gtkWindowEvent, to: GCallback.self), me)))
        gk_widget_add_controller(native, input.legacy)
        gk_widget_add_controller(native, input.claims.gesture)   // runs first (see init)
        if native != window {
            input.handlers.append((native, gk_signal_connect(native, "destroy", unsafeBitCast(gtkNativeDestroyed, to: GCallback.self), me)))
        }
        natives[native] = input
    }

    fileprivate func nativeDestroyed(_ native: UnsafeMutableRawPointer) {
        natives[native] = nil
    }

    /// Puts `view` under the view of the nearest ancestor widget that has one.
    private func place(_ view: GTKWidgetView) {
        if let native = gk_widget_native(view.widget), native != window { watchNative(native) }
        var ancestor = gk_widget_parent(view.widget)
        while let a = ancestor, views[a] == nil { ancestor = gk_widget_parent(a) }
        let superview = ancestor.flatMap { views[$0] } ?? windowView
        if view.superview !== superview { superview.addSubview(view) }
    }

    /// Takes `view` out of this window: touches in it are cancelled. It keeps its recognizers
    /// (and the widget its view, `keepingRecognizers`, for the window it goes to).
    private func unbind(_ view: GTKWidgetView, keepingRecognizers: Bool) {
        cancelTouches(in: view)
        views[view.widget] = nil
        handlers.removeAll { entry in
            guard entry.object == view.widget else { return false }
            gk_signal_disconnect(entry.object, entry.handler)
            return true
        }
        view.removeFromSuperview()
        view.windowInput = nil
        if !keepingRecognizers { gk_object_set_data(view.widget, Self.viewKey, nil) }
    }

    /// Every bound widget's frame, visibility and sensitivity now.
    func syncFrames() {
        sync(windowView)
        var pending = windowView.subviews
        while let view = pending.popLast() {
            if let view = view as? GTKWidgetView { sync(view) }
            pending += view.subviews
        }
    }

    private func sync(_ view: GTKWidgetView) {
        var x = 0.0, y = 0.0, w = 0.0, h = 0.0
        if view === windowView {
            let size = Size(width: Double(gtk_widget_get_width(gk_widget(window))), height: Double(gtk_widget_get_height(gk_widget(window))))
            view.windowFrame = Rect(origin: .zero, size: size)
            view.frame = view.windowFrame
            return
        }
        let mapped = gk_widget_mapped(view.widget) != 0
        if mapped, gk_widget_bounds_in_window(view.widget, window, &x, &y, &w, &h) != 0 {
            view.windowFrame = Rect(x: x, y: y, width: w, height: h)
        }
        view.isHidden = !mapped
        view.isUserInteractionEnabled = gk_widget_sensitive(view.widget) != 0
        let origin = (view.superview as? GTKWidgetView)?.windowFrame.origin ?? .zero
        view.frame = view.windowFrame.offsetBy(dx: -origin.x, dy: -origin.y)
    }

    /// Frames are pulled after every frame GTK paints (its layout comes before).
    private func watchFrames() {
        guard frameClock == nil, let clock = gk_widget_frame_clock(window) else { return }
        let handler = gk_signal_connect(clock, "after-paint", unsafeBitCast(gtkAfterPaint, to: GCallback.self),
                                        Unmanaged.passUnretained(self).toOpaque())
        frameClock = (clock, handler)
    }

    fileprivate func realized() { watchFrames() }

    fileprivate func painted() {
        guard !isDetached else { return }
        syncFrames()
    }

    /// The engine's hit test for a point of the window: at a touch-down, the view of the
    /// widget GTK picked for the event; otherwise the view of the widget GTK picks there.
    func pickedView(at point: Point) -> View? {
        if let picked = pickedAtTouchDown { return picked.flatMap(usable) }
        guard let widget = gtk_widget_pick(gk_widget(window), point.x, point.y, GTK_PICK_DEFAULT) else { return nil }
        return nearestView(of: UnsafeMutableRawPointer(widget)).flatMap(usable)
    }

    /// `view`, or its nearest ancestor, that takes touches as UIKit's hit test would reach
    /// it: none of its ancestors hidden or with user interaction off.
    private func usable(_ view: GTKWidgetView) -> View? {
        var candidate: View? = view
        var v: View? = view
        while let current = v {
            if current.isHidden || !current.isUserInteractionEnabled { candidate = current.superview }
            v = current.superview
        }
        return candidate
    }

    private func nearestView(of widget: UnsafeMutableRawPointer?) -> GTKWidgetView? {
        var w = widget
        while let current = w {
            if let view = views[current] { return view }
            w = gk_widget_parent(current)
        }
        return nil
    }

    // MARK: events

    fileprivate func handle(_ event: OpaquePointer, at native: UnsafeMutableRawPointer) -> Bool {
        guard !isDetached, gk_surface_window(gdk_event_get_surface(event)) == window,
              let reading = natives[native] else { return false }
        let type = gdk_event_get_event_type(event)
        let time = gdk_event_get_time(event)
        if let last = lastEvent, last.event == event, last.time == time, last.type == type { return false }
        lastEvent = (event, time, type)
        let isTouch = GDKEventReader.isTouch(type)
        let sequence = isTouch ? gdk_event_get_event_sequence(event) : nil
        let key = sequence.map(UnsafeMutableRawPointer.init)
        let press = type == GDK_TOUCH_BEGIN || (type == GDK_BUTTON_PRESS && gdk_button_event_get_button(event) == 1)
        let lift = type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL || (type == GDK_BUTTON_RELEASE && gdk_button_event_get_button(event) == 1)
        let moved = type == GDK_TOUCH_UPDATE || (type == GDK_MOTION_NOTIFY && contacts[nil] != nil)
        if press {
            syncFrames()
            let target = gk_pick_for_event(event)
            let view = nearestView(of: target)
            contacts[key] = Contact(view: view, claims: reading.claims)
            pickedAtTouchDown = .some(view)
            watchGestures(from: target)
        }
        let delivered = driver.read(event, widget: window)
        pickedAtTouchDown = nil
        let claims = contacts[key]?.claims ?? reading.claims
        let claimed = claims.isClaimed(sequence)
        if press, var contact = contacts[key], contact.view != nil, !contact.reachedWidgets, delivered, !claimed {
            // No recognizer let the press through to the view: a delaying one may take it.
            contact.delayed = true
            contacts[key] = contact
            if claimedEarly.remove(key) != nil { report("delayed", contact.view) }
        } else if press, claimedEarly.remove(key) != nil, gk_gesture_is_claimed(delayer, sequence) != 0 {
            // Claimed before the engine read it, which let it through: given back at once
            // (GTK emulates the press; the press itself stops at the window).
            gk_gesture_deny(delayer, sequence)
        }
        if lift {
            contacts[key] = nil
            claims.forget(sequence)
            claimedEarly.remove(key)
            if contacts.isEmpty {
                unwatchGestures()
                for input in natives.values { input.claims.reset() }
            }
        }
        if delivered { driver.schedule() }
        afterInput?()
        // A claimed sequence's later events stop at the window: no widget sees them (a
        // delayed one's are stopped by the delaying gesture itself, which must see them).
        if claimed && (moved || lift) {
            if lift && contacts.isEmpty { gk_controller_reset(delayer) }
            return true
        }
        return false
    }

    /// The delaying gesture recognized a press (it is recognized with one): it claims it if
    /// the press was held back from the view. GTK runs a widget's controllers in an order it
    /// does not document (4.8 runs the last added first): when this comes before the engine
    /// read the press, the press is claimed if a recognizer over the widget delays touches,
    /// and given back as soon as the engine lets it through (`handle`).
    fileprivate func delayerBegan(_ sequence: OpaquePointer?) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        guard !isDetached else { return }
        if let contact = contacts[key] {
            guard contact.delayed, !contact.reachedWidgets else { return }
            if gk_gesture_try_claim(delayer, sequence) != 0 {
                report("delayed", contact.view)
            } else {
                contacts[key]?.delayed = false
            }
            return
        }
        guard let event = gk_gesture_last_event(delayer, sequence),
              let view = nearestView(of: gk_pick_for_event(event)), Self.delaysTouches(over: view),
              gk_gesture_try_claim(delayer, sequence) != 0 else { return }
        claimedEarly.insert(key)
    }

    /// Presses the delaying gesture claimed before the engine read them.
    private var claimedEarly: Set<UnsafeMutableRawPointer?> = []

    /// Whether an enabled recognizer on `view` or a view above it delays touches began.
    static func delaysTouches(over view: View) -> Bool {
        var v: View? = view
        while let current = v {
            if current.gestureRecognizers.contains(where: { $0.isEnabled && $0.delaysTouchesBegan }) { return true }
            v = current.superview
        }
        return false
    }

    /// The engine delivered touches to a view: those still held back are given up, and GTK
    /// emulates their press for the widgets.
    func touchesReachedWidgets(_ touches: Set<Touch>) {
        for touch in touches {
            guard let key = key(of: touch), var contact = contacts[key] else { continue }
            contact.reachedWidgets = true
            let wasDelayed = contact.delayed
            contact.delayed = false
            contacts[key] = contact
            let sequence = key.map(OpaquePointer.init)
            if wasDelayed, gk_gesture_is_claimed(delayer, sequence) != 0 {
                gk_gesture_deny(delayer, sequence)
                report("released", contact.view)
            }
        }
    }

    /// A recognizer that cancels touches in view took these: their sequences are claimed
    /// from the window (the widgets' gestures are cancelled). Touches still held back stay
    /// held: the widgets never saw them.
    func touchesTakenFromWidgets(_ touches: Set<Touch>) {
        for touch in touches {
            guard let key = key(of: touch), let contact = contacts[key], !contact.takenByGTK else { continue }
            let sequence = key.map(OpaquePointer.init)
            if contact.delayed && gk_gesture_is_claimed(delayer, sequence) != 0 { continue }
            if contact.claims.claim(sequence) { report("claimed", contact.view) }
        }
    }

    /// The contact of a touch the engine delivered: a finger's sequence, or the mouse's
    /// (nil) for a pointer's or a pen's touch. Nil when it is not down any more.
    private func key(of touch: Touch) -> UnsafeMutableRawPointer?? {
        if touch.deviceKind == .pointer || touch.deviceKind == .pen {
            return contacts[nil] != nil ? .some(nil) : nil
        }
        guard let down = driver.reader.touches.first(where: { $0.id == touch.sourceID && $0.device == touch.device }) else { return nil }
        return .some(UnsafeMutableRawPointer(down.sequence))
    }

    private func report(_ what: String, _ view: GTKWidgetView?) {
        onSequence?(what + " " + (view?.id ?? "window"), claimedSequences)
    }

    /// How many sequences the window (and its popovers) have claimed now.
    package var claimedSequences: Int { natives.values.reduce(0) { $0 + $1.claims.count } }

    // MARK: GTK's own claims

    /// Watches the gestures of `target` and its ancestors for a claim of the touches down.
    private func watchGestures(from target: UnsafeMutableRawPointer?) {
        var widget = target
        var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        while let w = widget {
            let n = Int(gk_widget_gestures(w, &buffer, Int32(buffer.count)))
            for gesture in buffer[..<n].compactMap({ $0 })
            where gesture != delayer && !natives.values.contains(where: { $0.claims.gesture == gesture }) && watched[gesture] == nil {
                watched[gk_object_ref(gesture)!] = gk_signal_connect(
                    gesture, "sequence-state-changed", unsafeBitCast(gtkSequenceStateChanged, to: GCallback.self),
                    Unmanaged.passUnretained(self).toOpaque())
            }
            widget = gk_widget_parent(w)
        }
    }

    private func unwatchGestures() {
        for (gesture, handler) in watched {
            gk_signal_disconnect(gesture, handler)
            gk_object_unref(gesture)
        }
        watched.removeAll()
    }

    /// A widget's gesture changed a sequence's state: if it claimed a touch down, GTK gave
    /// it that touch, and the engine hears it cancelled.
    fileprivate func sequenceStateChanged(_ sequence: OpaquePointer?, claimed: Bool) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        guard !isDetached, claimed, var contact = contacts[key], !contact.takenByGTK, !contact.claims.isClaimed(sequence),
              !(contact.delayed && gk_gesture_is_claimed(delayer, sequence) != 0) else { return }
        contact.takenByGTK = true
        contacts[key] = contact
        if let sequence, driver.cancel(sequence: sequence) {
            report("taken by GTK", contact.view)
            driver.schedule()
            afterInput?()
        }
    }

    // MARK: lifecycle

    /// A bound widget was unmapped, made insensitive, taken out of the window or moved.
    fileprivate func widgetChanged(_ widget: UnsafeMutableRawPointer) {
        guard !isDetached, let view = views[widget] else { return }
        let root = gk_widget_root(widget)
        if root == nil {
            // Out of every window (removed, maybe to be put in another): out of the views,
            // still bound, so that it comes back where it is put.
            cancelTouches(in: view)
            view.removeFromSuperview()
        } else if root != window {
            // In another window: it and the bound widgets under it go to that window's
            // input, with their recognizers (if it has none, they wait unbound).
            let moving = views.values.filter { $0 !== windowView && gk_widget_is_ancestor($0.widget, widget) != 0 }
            for v in moving { unbind(v, keepingRecognizers: true) }
            if let root, let other = GTKWindowInput.of(root) {
                for v in moving { _ = other.view(for: v.widget) }
            }
        } else {
            place(view)
            let touchable = gk_widget_mapped(widget) != 0 && gk_widget_sensitive(widget) != 0
            if !touchable { cancelTouches(in: view) }
            sync(view)
        }
    }

    /// A bound widget is being destroyed: its view leaves the engine for good.
    fileprivate func widgetDestroyed(_ widget: UnsafeMutableRawPointer) {
        guard !isDetached, let view = views[widget] else { return }
        unbind(view, keepingRecognizers: false)
    }

    /// Cancels the touches that landed in `view` or a view under it.
    private func cancelTouches(in view: GTKWidgetView) {
        var cancelled = false
        for (key, contact) in contacts {
            guard let hit = contact.view, hit === view || hit.isDescendant(of: view), !contact.takenByGTK,
                  let sequence = key.map(OpaquePointer.init) else { continue }
            contacts[key]?.takenByGTK = true
            contact.claims.forget(sequence)
            if driver.cancel(sequence: sequence) { cancelled = true }
        }
        if cancelled {
            driver.schedule()
            afterInput?()
        }
    }

    fileprivate func unrealized() { detach() }
}

private let gtkWindowEvent: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> gboolean = { controller, event, data in
    guard let controller, let event, let data, let native = gk_controller_widget(controller) else { return 0 }
    return Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().handle(event, at: native) ? 1 : 0
}

private let gtkNativeDestroyed: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { native, data in
    guard let native, let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().nativeDestroyed(native)
}

private let gtkDelayerBegin: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> Void = { _, sequence, data in
    guard let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().delayerBegan(sequence)
}

private let gtkSequenceStateChanged: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, GtkEventSequenceState, gpointer?) -> Void = { _, sequence, state, data in
    guard let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue()
        .sequenceStateChanged(sequence, claimed: state == GTK_EVENT_SEQUENCE_CLAIMED)
}

private let gtkWidgetUnmapped: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { widget, data in
    guard let widget, let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().widgetChanged(widget)
}

private let gtkWidgetDestroyed: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { widget, data in
    guard let widget, let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().widgetDestroyed(widget)
}

private let gtkWidgetChanged: @convention(c) (UnsafeMutableRawPointer?, gpointer?, gpointer?) -> Void = { widget, _, data in
    guard let widget, let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().widgetChanged(widget)
}

private let gtkWindowUnrealize: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    guard let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().unrealized()
}

private let gtkWindowRealize: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    guard let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().realized()
}

private let gtkAfterPaint: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    guard let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().painted()
}

