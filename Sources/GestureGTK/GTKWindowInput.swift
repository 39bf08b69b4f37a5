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
/// How UIKit's rules become GTK's mechanisms, stated once (GTK 4.8 to 4.18, public API; one
/// call deprecated since 4.10):
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
/// - **delaysTouchesBegan** (and delaysTouchesEnded) hold the touch's events back: a touch
///   that lands where a recognizer may still take it reaches no widget (the window's
///   controller stops its events) until the engine lets it through; then its events so far
///   are given back to GTK in order (`gdk_display_put_event`), which picks its target again
///   and delivers them, and its later events go on as usual. A touch whose recognizers fail
///   as it lifts, or after (a double tap's interval), reaches the widgets whole, late; one a
///   recognizer takes never reaches them.
/// - **A GTK gesture that decides at the lift** (a click claims the touch at its release),
///   standing as a recognizer (`recognizer(for:)`) that a recognizer still possible requires
///   to fail: the touch's lift is not held from the widgets (delaysTouchesEnded), since GTK's
///   gesture decides only on it and the recognizer waits for that decision.
/// - **What GTK cannot do.** Give an event back other than through
///   `gdk_display_put_event`, deprecated since GTK 4.10 (its press emulation, the documented
///   way, places the press off by the target widget's offset in its window, 4.8 to 4.18);
///   hold back the lift of a touch the widgets already have (its pointer focus goes with
///   it); and show the window's controllers events GTK routes to a modal grab elsewhere (an
///   open popover's grab is read by controllers on the popover itself).
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
    /// Told what the input does with each touch between the window and its widgets, as it
    /// does it: held back, given to the widgets, claimed from them, its lift held or given
    /// back, taken by a gesture of GTK's own.
    public var onTouchDisposition: ((GTKTouchDisposition) -> Void)?
    /// Draws the engine's context menus as `GtkPopoverMenu`s over the window
    /// (`ContextMenuInteraction` on any view of it); the menu key (GDK's `Menu`, or shift+F10)
    /// opens the menu of the focused widget's view, or of the view under the pointer.
    public private(set) var contextMenus: GTKContextMenuPresenter!
    /// The same, as text ("claimed GtkButton") with the claimed count: the example app's.
    package var onSequence: ((String, Int) -> Void)?

    private let driver: GTKInputDriver
    /// The window's controllers, and a popover's (GTK starts an event's propagation at an
    /// open popover's grab, so a popover with bound widgets gets its own), in the order GTK
    /// runs them (GTK 4.8 to 4.18 run a widget's controllers last added first): the reader,
    /// which reads each event and decides where it goes; the claiming gesture
    /// (`GTKSequenceClaims`), which follows every sequence the reader lets by, so that a touch
    /// can be claimed as its lift is read, before the gesture drops it; and the stopper, which
    /// stops a claimed touch's events once the claiming gesture has seen them.
    private final class NativeInput {
        let native: UnsafeMutableRawPointer
        let reader: UnsafeMutableRawPointer
        let claims = GTKSequenceClaims()
        let stopper: UnsafeMutableRawPointer
        var handlers: [(object: UnsafeMutableRawPointer, handler: gulong)] = []
        init(native: UnsafeMutableRawPointer) {
            self.native = native
            (reader, stopper) = (UnsafeMutableRawPointer(gtk_event_controller_legacy_new())!,
                                 UnsafeMutableRawPointer(gtk_event_controller_legacy_new())!)
            for controller in [reader, stopper] {
                gk_controller_set_capture(controller)
                gk_controller_set_limit_none(controller)
            }
        }
        var controllers: [UnsafeMutableRawPointer] { [stopper, claims.gesture, reader] }
    }
    private var natives: [UnsafeMutableRawPointer: NativeInput] = [:]
    /// The event last handled: with no grab, the window's and a popover's controllers both
    /// see an event in the popover, and the first reads it.
    private var lastEvent: (event: OpaquePointer, time: UInt32, type: GdkEventType)?
    private var handlers: [(object: UnsafeMutableRawPointer, handler: gulong)] = []
    private var frameClock: (clock: UnsafeMutableRawPointer, handler: gulong)?

    /// A touch (or the mouse's press, the nil sequence) from its press until the widgets are
    /// done with it: its lift reached them, or a recognizer took it from them.
    private struct Contact {
        var view: GTKWidgetView?
        /// The claims of the controllers that read its press.
        let claims: GTKSequenceClaims
        /// Its sequence (nil: the mouse's).
        let key: UnsafeMutableRawPointer?
        /// Its press (a reference): a held lift is given back after it.
        let press: OpaquePointer
        /// The reader's number for the touch and its device (the engine's `Touch.sourceID`
        /// and `device`), kept to its lift: the reader forgets a touch as it reads its end.
        var touch: (id: Int, device: InputDeviceID)?
        /// The engine's identity for it: GTK and the reader both reuse their numbers.
        var touchID: TouchID?
        /// Its view had touchesBegan.
        var reachedWidgets = false
        /// Its view had touchesEnded as its lift was read.
        var endedInView = false
        var takenByGTK = false
        /// Taken from the widgets by a recognizer: claimed from them, or taken before they
        /// saw it.
        var taken: Taken?
        enum Taken { case claimed, unseen }
        /// Held back from the widgets, with its events so far: a delaying recognizer may take
        /// it, or it is `queued` behind a held lift of the same sequence.
        var holding = false
        var queued = false
        var held: [OpaquePointer] = []
        /// Just given back: the event being read is among those replayed.
        var replayed = false
        /// Its lift, held back from the widgets (delaysTouchesEnded).
        var lift: OpaquePointer?
    }
    private var contacts: [UnsafeMutableRawPointer?: Contact] = [:]
    /// The touches (nil: the mouse's press) that closed a context menu's popover by
    /// landing outside it: their events stop at the window.
    private var outsideMenu: Set<UnsafeMutableRawPointer?> = []
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
        windowView.windowInput = self
        views[window] = windowView
        engine.addRoot(windowView)
        contextMenus = GTKContextMenuPresenter(parent: window, engine: engine)
        // A context menu's popover is read as the window is: GTK sends it the touches while
        // it is open (its grab), and the touch that opened it, which a recognizer claimed,
        // must stop there too (GtkPopover pops down at a release outside it).
        contextMenus.willShowPopover = { [unowned self] popover in watchNative(popover) }
        contextMenus.autohide = false
        let me = Unmanaged.passUnretained(self).toOpaque()
        gk_object_set_data(window, Self.key, me)

        watchNative(window)
        connect(window, "unrealize", unsafeBitCast(gtkWindowUnrealize, to: GCallback.self))
        connect(window, "realize", unsafeBitCast(gtkWindowRealize, to: GCallback.self))
        watchFrames()
        driver.afterDeadline = { [unowned self] in
            denyWhatTheEngineTook()
            dropUndeliverable()
            afterInput?()
        }
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
            for controller in input.controllers { gk_widget_remove_controller(input.native, controller) }
        }
        natives.removeAll()
        for contact in Array(contacts.values) + lifted + heldLifts { release(contact) }
        contacts.removeAll()
        lifted.removeAll()
        heldLifts.removeAll()
        for (_, kept) in replaying.values { gk_event_unref(kept) }
        for kept in focusOnly.values { gk_event_unref(kept) }
        replaying.removeAll()
        focusOnly.removeAll()
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
        input.handlers.append((input.reader, gk_signal_connect(input.reader, "event", unsafeBitCast(gtkWindowEvent, to: GCallback.self), me)))
        input.handlers.append((input.stopper, gk_signal_connect(input.stopper, "event", unsafeBitCast(gtkWindowEventAfterClaims, to: GCallback.self), me)))
        for controller in input.controllers { gk_widget_add_controller(native, controller) }
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

    /// The view of the bound widget under `point` of the window: the widget GTK picks there
    /// (`gtk_widget_pick`), or its nearest ancestor with a view; the window's view where no
    /// bound widget is.
    public func view(at point: Point) -> GTKWidgetView {
        guard let widget = gtk_widget_pick(gk_widget(window), point.x, point.y, GTK_PICK_DEFAULT) else { return windowView }
        return nearestView(of: UnsafeMutableRawPointer(widget)) ?? windowView
    }

    /// The view `touch` landed on (UIKit's `UITouch.view`): of the widget GTK picked at its
    /// touch-down, or of its nearest ancestor with a view. Nil once the input is done with
    /// the touch (it lifted and the widgets had its lift, or it was cancelled).
    public func view(of touch: Touch) -> GTKWidgetView? {
        if let contact = contacts.values.first(where: { $0.touchID == touch.id })
            ?? heldLifts.first(where: { $0.touchID == touch.id }) ?? lifted.first(where: { $0.touchID == touch.id }) {
            return contact.view ?? windowView
        }
        return nil
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

    /// What becomes of an event once read: it goes on to the widgets, stops before the
    /// claiming gesture sees it (the widgets never saw its touch, or will see it later), or
    /// stops right after it (a claimed touch: the claiming gesture follows the sequence to its
    /// end, so that its points are GTK's own and nothing of the touch is left in it).
    private enum Passage { case on, stop, stopAfterClaims }

    fileprivate func handle(_ event: OpaquePointer, at native: UnsafeMutableRawPointer) -> Bool {
        let pointer = UnsafeMutableRawPointer(event)
        // A held lift's press, given back only so that GTK finds the touch's widget again for
        // the lift that follows it (`giveBack`): it goes no further.
        if let kept = focusOnly.removeValue(forKey: pointer) {
            gk_event_unref(kept)
            return true
        }
        // An event held back and now given to the widgets: it goes on, read once already.
        if let (key, kept) = replaying.removeValue(forKey: pointer) {
            pendingReplays[key, default: 1] -= 1
            if pendingReplays[key] == 0 { pendingReplays[key] = nil }
            // A popover's controller further down sees it too: as read.
            lastEvent = (event, gdk_event_get_time(event), gdk_event_get_event_type(event))
            gk_event_unref(kept)
            return false
        }
        guard !isDetached, gk_surface_window(gdk_event_get_surface(event)) == window,
              let reading = natives[native] else { return false }
        let type = gdk_event_get_event_type(event)
        let time = gdk_event_get_time(event)
        if let last = lastEvent, last.event == event, last.time == time, last.type == type { return false }
        lastEvent = (event, time, type)
        if type == GDK_KEY_PRESS { return menuKey(event) }
        let isTouch = GDKEventReader.isTouch(type)
        let sequence = isTouch ? gdk_event_get_event_sequence(event) : nil
        let key = sequence.map(UnsafeMutableRawPointer.init)
        let press = type == GDK_TOUCH_BEGIN || (type == GDK_BUTTON_PRESS && gdk_button_event_get_button(event) == 1)
        let end = type == GDK_TOUCH_END || (type == GDK_BUTTON_RELEASE && gdk_button_event_get_button(event) == 1)
        let lift = end || type == GDK_TOUCH_CANCEL
        let moved = type == GDK_TOUCH_UPDATE || (type == GDK_MOTION_NOTIFY && contacts[nil] != nil)
        // A press (a touch, any button) outside an open context menu's popover closes it and
        // goes no further, as a tap outside UIKit's menu does and GTK's own autohide would;
        // the rest of its touch or click stops at the window too.
        if type == GDK_TOUCH_BEGIN || type == GDK_BUTTON_PRESS, let popover = contextMenus.popover,
           gk_event_on_widget_surface(popover, event) == 0 {
            outsideMenu.insert(key)
            engine.presentedContextMenu?.interaction.dismissMenu(because: .custom("a press outside the popover"))
            afterInput?()
            return true
        }
        if outsideMenu.contains(key) {
            if type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL || type == GDK_BUTTON_RELEASE { outsideMenu.remove(key) }
            return true
        }
        if press {
            syncFrames()
            let target = gk_pick_for_event(event)
            let view = nearestView(of: target)
            if let stale = contacts.removeValue(forKey: key) { release(stale) }   // a press twice: GDK sends none
            var contact = Contact(view: view, claims: reading.claims, key: key, press: gk_event_ref(event))
            // GTK names a finger's sequence after its slot, so a new touch may carry the
            // sequence of one whose lift is still held: the widgets' gestures could not tell
            // the two apart, so it waits behind it.
            contact.queued = heldLifts.contains { $0.key == key }
            contact.holding = contact.queued
            contacts[key] = contact
            pickedAtTouchDown = .some(view)
            watchGestures(from: target)
        }
        let ofContact = press || moved || lift
        if ofContact, contacts[key]?.holding == true { contacts[key]?.held.append(gk_event_ref(event)) }
        pressBeingRead = press ? .some(key) : nil
        readingEvent = true
        let delivered = driver.read(event, widget: window)
        readingEvent = false
        pickedAtTouchDown = nil
        pressBeingRead = nil
        if press { identify(key, sequence: sequence) }
        denyWhatTheEngineTook()
        var passage = Passage.on
        if ofContact, var contact = contacts[key] {
            if press, contact.view != nil, !contact.reachedWidgets, delivered, contact.taken == nil, !contact.holding {
                // No recognizer let the press through to the view: a delaying one may take it.
                // The widgets see none of the touch's events until it is let go.
                contact.holding = true
                contact.held = [gk_event_ref(event)]
                report(.delayed, contact.view)
            }
            if contact.holding || contact.replayed {
                // Held (or just given back, with this event among those replayed): this one
                // reaches the widgets through the replay, if at all.
                passage = .stop
                contact.replayed = false
            } else if let taken = contact.taken {
                // A recognizer took the touch: no widget sees the rest of it.
                passage = taken == .claimed ? .stopAfterClaims : .stop
            } else if pendingReplays[key] != nil {
                // The touch's replay is still on its way round: this event follows it, so that
                // the widgets get the touch in order.
                put(event, of: key)
                passage = .stop
            } else if end, delivered, contact.view != nil, !contact.takenByGTK, !contact.endedInView, !liftAwaitedByGTK(key) {
                // delaysTouchesEnded: the view's touchesEnded is held back while a recognizer
                // may still take the touch, so the widgets' lift is too.
                contact.lift = gk_event_ref(event)
                passage = .stop
                report(.liftHeld, contact.view)
            }
            contacts[key] = contact
        }
        if lift, let contact = contacts.removeValue(forKey: key) {
            if contact.lift != nil {
                heldLifts.append(contact)
            } else if contact.holding {
                // A touch still held as it lifts stays held: its recognizers may yet fail (a
                // double tap waiting for its second tap), and the widgets then get it whole.
                lifted.append(contact)
            } else {
                release(contact)
            }
        }
        if lift { settleIfIdle() }
        if delivered { driver.schedule() }
        dropUndeliverable()
        afterInput?()
        switch passage {
        case .on: return false
        case .stop: return true
        case .stopAfterClaims:
            stopAfterClaims.insert(pointer)
            return false
        }
    }

    /// The menu key (GDK's `Menu`, or shift+F10, GTK's own keys for a context menu) opens
    /// the context menu of the focused widget's view, or of the view under the pointer; the
    /// key stops at the window when a menu opened. Other keys go on.
    private func menuKey(_ event: OpaquePointer) -> Bool {
        let keyval = gdk_key_event_get_keyval(event)
        let shift = (gdk_event_get_modifier_state(event).rawValue & GDK_SHIFT_MASK.rawValue) != 0
        guard keyval == UInt32(GDK_KEY_Menu) || (keyval == UInt32(GDK_KEY_F10) && shift) else { return false }
        let focused = gk_root_focus(window).flatMap { nearestView(of: $0) }
        let before = engine.presentedContextMenu?.time
        engine.sendMenuKey(at: driver.clientNow, focusedView: focused === windowView ? nil : focused)
        afterInput?()
        return engine.presentedContextMenu != nil && engine.presentedContextMenu?.time != before
    }

    /// The window's last controller: stops the events of claimed touches once the claiming
    /// gesture has seen them.
    fileprivate func handleAfterClaims(_ event: OpaquePointer) -> Bool {
        stopAfterClaims.remove(UnsafeMutableRawPointer(event)) != nil
    }

    /// The engine's identity of the touch whose press was just read.
    private func identify(_ key: UnsafeMutableRawPointer?, sequence: OpaquePointer?) {
        guard var contact = contacts[key] else { return }
        var match: (id: Int, device: InputDeviceID)?
        if let sequence, let down = driver.reader.touches.first(where: { $0.sequence == sequence }) {
            contact.touch = (down.id, down.device)
            match = contact.touch
        }
        if contact.touchID == nil {
            contact.touchID = engine.allTouches().first { touch in
                guard touch.phase == .began else { return false }
                if let match { return touch.sourceID == match.id && touch.device == match.device }
                return key == nil && Self.isMouse(touch)
            }?.id
        }
        contacts[key] = contact
    }

    /// Events GestureGTK gives back to GTK (`gdk_display_put_event`), kept until they come
    /// round, with their contact's key, which its controllers let through; and how many of
    /// each contact's are still on their way.
    private var replaying: [UnsafeMutableRawPointer: (key: UnsafeMutableRawPointer?, event: OpaquePointer)] = [:]
    private var pendingReplays: [UnsafeMutableRawPointer?: Int] = [:]
    /// Presses given back only to set GTK's pointer focus, which the window stops.
    private var focusOnly: [UnsafeMutableRawPointer: OpaquePointer] = [:]
    /// Events read whose passage ends after the claiming gesture (`Passage.stopAfterClaims`).
    private var stopAfterClaims: Set<UnsafeMutableRawPointer> = []
    /// The key of the contact whose press is being read.
    private var pressBeingRead: UnsafeMutableRawPointer??
    /// An event is being read into the engine.
    private var readingEvent = false

    private func put(_ event: OpaquePointer, of key: UnsafeMutableRawPointer?, stoppingAfterClaims: Bool = false) {
        let pointer = UnsafeMutableRawPointer(event)
        replaying[pointer] = (key, gk_event_ref(event))
        pendingReplays[key, default: 0] += 1
        if stoppingAfterClaims { stopAfterClaims.insert(pointer) }
        gk_event_put(event)
    }

    /// Touches that lifted while held back, kept until their recognizers let them go (the
    /// widgets then get them whole) or nothing can any more.
    private var lifted: [Contact] = []
    /// Touches whose lift is held back (delaysTouchesEnded), kept until the engine ends or
    /// cancels them in their view.
    private var heldLifts: [Contact] = []

    /// Gives `contact`'s held events back to GTK, in order: the widgets get the touch as it
    /// happened (GTK picks its target again at its press).
    private func replay(_ contact: inout Contact, key: UnsafeMutableRawPointer?) {
        guard contact.holding, !contact.queued else { return }
        contact.holding = false
        contact.replayed = true
        for event in contact.held {
            put(event, of: key)
            gk_event_unref(event)
        }
        contact.held.removeAll()
        report(.released, contact.view)
    }

    /// Gives a held lift back to GTK: its press first, which sets GTK's pointer focus for the
    /// sequence again (the focus went as GTK handled the lift the first time) and which the
    /// window stops, then the lift itself, which GTK delivers to the touch's widget. Claimed
    /// (the engine cancelled it in its view), the lift stops right after the claiming gesture,
    /// which it clears of the sequence. Touches queued behind it then go on.
    private func giveBack(_ contact: Contact, claimed: Bool) {
        guard let lift = contact.lift else { return }
        if contact.key != nil {
            focusOnly[UnsafeMutableRawPointer(contact.press)] = gk_event_ref(contact.press)
            gk_event_put(contact.press)
        }
        put(lift, of: contact.key, stoppingAfterClaims: claimed)
        report(claimed ? .claimed : .liftGivenBack, contact.view, lifted: claimed)
        release(contact)
        for (key, var queued) in contacts where queued.queued && key == contact.key {
            queued.queued = false
            if queued.reachedWidgets { replay(&queued, key: key) }
            contacts[key] = queued
        }
        var index = 0
        while index < lifted.count {
            guard lifted[index].queued, lifted[index].key == contact.key else {
                index += 1
                continue
            }
            lifted[index].queued = false
            guard lifted[index].reachedWidgets else {
                index += 1
                continue
            }
            var queued = lifted.remove(at: index)
            replay(&queued, key: queued.key)
            release(queued)
        }
    }

    /// Drops the references a contact holds.
    private func release(_ contact: Contact) {
        gk_event_unref(contact.press)
        if let lift = contact.lift { gk_event_unref(lift) }
        for event in contact.held { gk_event_unref(event) }
    }

    /// Held touches that lifted are dropped once the engine can no longer let them go, and
    /// held lifts cancelled: no touch down and no deadline pending (a recognizer that took
    /// them recognized, or their view went).
    private func dropUndeliverable() {
        guard !lifted.isEmpty || !heldLifts.isEmpty, contacts.isEmpty, driver.client.nextDeadline == nil else { return }
        for contact in lifted { release(contact) }
        lifted.removeAll()
        let lifts = heldLifts
        heldLifts.removeAll()
        for contact in lifts {
            contact.claims.claim(contact.key.map(OpaquePointer.init))
            giveBack(contact, claimed: true)
        }
        settleIfIdle()
    }

    /// With no touch down and none held, the claiming gestures are cleared (GTK's gesture of
    /// any points whose end it never saw) and GTK's gestures no longer watched.
    private func settleIfIdle() {
        guard contacts.isEmpty, heldLifts.isEmpty else { return }
        unwatchGestures()
        for input in natives.values { input.claims.reset() }
    }

    /// Where a touch the engine delivered is: down, lifted while held whole, or lifted with
    /// its lift held.
    private enum Location { case down(UnsafeMutableRawPointer?), lifted(Int), heldLift(Int) }

    private func locate(_ touch: Touch) -> Location? {
        if let (key, _) = contacts.first(where: { $0.value.touchID == touch.id }) { return .down(key) }
        if let index = heldLifts.firstIndex(where: { $0.touchID == touch.id }) { return .heldLift(index) }
        if let index = lifted.firstIndex(where: { $0.touchID == touch.id }) { return .lifted(index) }
        // A press being read, not yet identified: the reader has just numbered it.
        guard let key = pressBeingRead, contacts[key]?.touchID == nil else { return nil }
        if Self.isMouse(touch) ? key != nil
            : !driver.reader.touches.contains(where: { $0.id == touch.sourceID && $0.device == touch.device && UnsafeMutableRawPointer($0.sequence) == key }) {
            return nil
        }
        contacts[key]?.touchID = touch.id
        return .down(key)
    }

    /// The engine delivered touches to a view: those held back are given to the widgets.
    func touchesReachedWidgets(_ touches: Set<Touch>) {
        for touch in touches {
            switch locate(touch) {
            case .down(let key):
                guard var contact = contacts[key] else { continue }
                contact.reachedWidgets = true
                replay(&contact, key: key)
                contacts[key] = contact
            case .lifted(let index):
                lifted[index].reachedWidgets = true
                guard !lifted[index].queued else { continue }
                var contact = lifted.remove(at: index)
                replay(&contact, key: contact.key)
                release(contact)
            case .heldLift, nil:
                continue
            }
        }
    }

    /// The engine ended touches in a view (their recognizers failed, or never held them):
    /// their lift goes on to the widgets, now if it is being read, or given back if it was
    /// held.
    func touchesEndedInWidgets(_ touches: Set<Touch>) {
        for touch in touches {
            switch locate(touch) {
            case .down(let key):
                contacts[key]?.endedInView = true
            case .heldLift(let index):
                giveBack(heldLifts.remove(at: index), claimed: false)
            case .lifted, nil:
                continue   // held whole: its replay carries its lift
            }
        }
        settleIfIdle()
    }

    /// A recognizer that cancels touches in view took these: their sequences are claimed
    /// from the window (the widgets' gestures are cancelled). Touches still held back stay
    /// held: the widgets never saw them. The newest go first: a touch queued behind the held
    /// lift of an older one (a double tap's second tap) is dropped before that lift is given
    /// back, which would otherwise let it through.
    func touchesTakenFromWidgets(_ touches: Set<Touch>) {
        for touch in touches.sorted(by: { $0.id > $1.id }) {
            switch locate(touch) {
            case .down(let key):
                guard var contact = contacts[key], !contact.takenByGTK, contact.taken == nil else { continue }
                if contact.holding {
                    // The widgets never saw it: they never will.
                    for event in contact.held { gk_event_unref(event) }
                    contact.held.removeAll()
                    (contact.holding, contact.queued, contact.taken) = (false, false, .unseen)
                } else if contact.claims.claim(key.map(OpaquePointer.init)) {
                    contact.taken = .claimed
                    contacts[key] = contact
                    report(.claimed, contact.view)
                } else if pressBeingRead == .some(key) {
                    // Taken as its press is read, before the claiming gesture has it: the press
                    // stops at the window, and no widget sees the touch.
                    contact.taken = .unseen
                    report(.takenAtPress, contact.view)
                } else {
                    // GTK refused the claim: a widget's gesture claimed the sequence first (its
                    // press reached the widgets), and the claiming gesture was denied it. The
                    // widgets' gestures that track it are cancelled one by one, as the claim
                    // would have cancelled them (UIKit: touchesCancelled), so that none is left
                    // holding a touch whose later events stop at the window.
                    contact.taken = .unseen
                    gk_cancel_sequence_in_tree(window, contact.claims.gesture, key.map(OpaquePointer.init))
                    report(.claimRefused, contact.view)
                }
                contacts[key] = contact
            case .heldLift(let index):
                let contact = heldLifts.remove(at: index)
                contact.claims.claim(contact.key.map(OpaquePointer.init))
                giveBack(contact, claimed: true)
            case .lifted(let index):
                release(lifted.remove(at: index))
            case nil:
                continue
            }
        }
        settleIfIdle()
    }

    /// A pointer's or a pen's touch: GTK's mouse sequence (nil).
    static func isMouse(_ touch: Touch) -> Bool { touch.deviceKind == .pointer || touch.deviceKind == .pen }

    /// Tells the observers; `lifted`: the touch claimed is one that lifted (its lift held),
    /// counted with those down.
    private func report(_ kind: GTKTouchDisposition.Kind, _ view: GTKWidgetView?, lifted: Bool = false) {
        guard onTouchDisposition != nil || onSequence != nil else { return }
        let disposition = GTKTouchDisposition(kind: kind, view: view, claimedTouches: claimedSequences + (lifted ? 1 : 0))
        onTouchDisposition?(disposition)
        onSequence?(disposition.description, disposition.claimedTouches)
    }

    /// How many touches down the window (and its popovers) have claimed now.
    public var claimedSequences: Int { contacts.values.filter { $0.taken == .claimed }.count }

    // MARK: GTK's own gestures as recognizers

    /// The recognizers standing for GTK's gestures (`recognizer(forScrollingOf:)`,
    /// `recognizer(for:)`), held weakly: their views hold them.
    private var gtkRecognizers: [WeakGTKRecognizer] = []
    private struct WeakGTKRecognizer { weak var recognizer: GTKGestureRecognizer? }

    /// The recognizer standing for `scrolledWindow`'s touch drag (a `GtkScrolledWindow *` in
    /// this window): UIKit's `UIScrollView.panGestureRecognizer`. It is on the scrolled
    /// window's view, made the first time it is asked for; nil if the widget is no scrolled
    /// window or has no touch drag. Its state is the drag's: began when the drag claims the
    /// touch (past GTK's drag threshold, then the list scrolls), failed when it is denied
    /// (the window cannot scroll, or the finger rested for GTK's long press) or the touch
    /// lifts first. Its group (pan, swipe, long press: the kinetic scrolling) shares it.
    public func recognizer(forScrollingOf scrolledWindow: UnsafeMutableRawPointer) -> GTKGestureRecognizer? {
        guard gk_is_scrolled_window(scrolledWindow) != 0, let drag = gk_scrolled_window_drag(scrolledWindow) else { return nil }
        return recognizer(forGesture: drag, on: scrolledWindow, decidesBeforeLift: true)
    }

    /// The recognizer standing for `gesture` (a `GtkGesture *` on a widget of this window: a
    /// `GtkGestureClick`, `GtkGestureSwipe`, `GtkGestureLongPress`, a text field's press), on
    /// its widget's view, made the first time it is asked for. Its state follows the
    /// gesture's claim of the touch (`GTKGestureRecognizer`).
    public func recognizer(for gesture: UnsafeMutableRawPointer) -> GTKGestureRecognizer? {
        guard gk_is_gesture(gesture) != 0, let widget = gk_controller_widget(gesture) else { return nil }
        return recognizer(forGesture: gesture, on: widget, decidesBeforeLift: false)
    }

    private func recognizer(forGesture gesture: UnsafeMutableRawPointer, on widget: UnsafeMutableRawPointer,
                            decidesBeforeLift: Bool) -> GTKGestureRecognizer {
        gtkRecognizers.removeAll { $0.recognizer == nil }
        if let known = gtkRecognizers.lazy.compactMap(\.recognizer).first(where: { $0.gesture == gesture }) { return known }
        let recognizer = GTKGestureRecognizer(gesture: gesture, widget: widget, decidesBeforeLift: decidesBeforeLift, input: self)
        recognizer.name = String(cString: gk_widget_id(widget)) + "." + recognizer.gtkTypeName
        view(for: widget).addGestureRecognizer(recognizer)
        gtkRecognizers.append(WeakGTKRecognizer(recognizer: recognizer))
        return recognizer
    }

    /// GTK's sequence of `touch` (nil inside: the mouse's), while the input follows it.
    func sequenceKey(of touch: Touch) -> UnsafeMutableRawPointer?? {
        switch locate(touch) {
        case .down(let key): return .some(key)
        case .heldLift(let index): return .some(heldLifts[index].key)
        case .lifted(let index): return .some(lifted[index].key)
        case nil: return nil
        }
    }

    /// A GTK gesture that has a recognizer claimed `key`'s touch: GTK took it from the
    /// widgets under that gesture's widget, and no recognizer claims it back from the window
    /// (which would cancel GTK's gesture).
    func gtkGestureTook(_ key: UnsafeMutableRawPointer?) {
        guard var contact = contacts[key], !contact.takenByGTK, contact.taken == nil else { return }
        contact.takenByGTK = true
        contacts[key] = contact
        report(.takenByGTK, contact.view)
    }

    /// A GTK gesture's recognizer changed its state outside the reading of an event: the
    /// engine's deadlines and the app's drawing follow.
    func gtkGestureDecided() {
        guard !isDetached, !readingEvent else { return }
        denyWhatTheEngineTook()
        driver.schedule()
        afterInput?()
    }

    /// GTK's gestures whose recognizers the engine failed are denied their touches.
    private func denyWhatTheEngineTook() {
        for entry in gtkRecognizers { entry.recognizer?.denyWhatTheEngineTook() }
    }

    /// Whether a GTK gesture that decides on `key`'s touch only at its lift stands as a
    /// recognizer that a recognizer still possible requires to fail (`require(toFail:)`):
    /// holding the lift from the widgets would leave both waiting.
    private func liftAwaitedByGTK(_ key: UnsafeMutableRawPointer?) -> Bool {
        let awaiting = gtkRecognizers.compactMap(\.recognizer).filter { $0.awaitsLift(of: key) }
        guard !awaiting.isEmpty else { return false }
        let recognizers = views.values.flatMap(\.gestureRecognizers)   // the window's view among them
        return recognizers.contains { waiting in
            waiting.state == .possible && waiting.failureRequirements.contains { required in awaiting.contains { $0 === required } }
        }
    }

    /// Whether `gesture` has a recognizer (it, or a gesture of its group).
    private func hasRecognizer(_ gesture: UnsafeMutableRawPointer) -> Bool {
        gtkRecognizers.contains { $0.recognizer?.covers(gesture) == true }
    }

    // MARK: GTK's own claims

    /// Watches the gestures of `target` and its ancestors for a claim of the touches down.
    private func watchGestures(from target: UnsafeMutableRawPointer?) {
        var widget = target
        var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        while let w = widget {
            let n = Int(gk_widget_gestures(w, &buffer, Int32(buffer.count)))
            for gesture in buffer[..<n].compactMap({ $0 })
            where !natives.values.contains(where: { $0.claims.gesture == gesture }) && watched[gesture] == nil {
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
    fileprivate func sequenceStateChanged(_ gesture: UnsafeMutableRawPointer?, _ sequence: OpaquePointer?, claimed: Bool) {
        let key = sequence.map(UnsafeMutableRawPointer.init)
        // A gesture with a recognizer of its own: the engine weighs its claim with the others.
        if let gesture, hasRecognizer(gesture) { return }
        guard !isDetached, claimed, var contact = contacts[key], !contact.takenByGTK, contact.taken == nil,
              !contact.holding else { return }
        contact.takenByGTK = true
        contacts[key] = contact
        if let sequence, driver.cancel(sequence: sequence) {
            report(.takenByGTK, contact.view)
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
            if driver.cancel(sequence: sequence) { cancelled = true }
        }
        // Held lifts of touches in it: its widgets' gestures are cancelled.
        let going = heldLifts.filter { contact in contact.view.map { $0 === view || $0.isDescendant(of: view) } ?? false }
        heldLifts.removeAll { contact in going.contains { $0.press == contact.press } }
        for contact in going {
            contact.claims.claim(contact.key.map(OpaquePointer.init))
            giveBack(contact, claimed: true)
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

private let gtkWindowEventAfterClaims: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
    guard let event, let data else { return 0 }
    return Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().handleAfterClaims(event) ? 1 : 0
}

private let gtkNativeDestroyed: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { native, data in
    guard let native, let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue().nativeDestroyed(native)
}

private let gtkSequenceStateChanged: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, GtkEventSequenceState, gpointer?) -> Void = { gesture, sequence, state, data in
    guard let data else { return }
    Unmanaged<GTKWindowInput>.fromOpaque(data).takeUnretainedValue()
        .sequenceStateChanged(gesture, sequence, claimed: state == GTK_EVENT_SEQUENCE_CLAIMED)
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

