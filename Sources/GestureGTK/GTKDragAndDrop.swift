import CGTK4
import GestureKit

/// Drag and drop between apps through GTK's own drag source and drop target (GDK's drags,
/// over the compositor's data device), for a widget whose coordinates are the engine's screen
/// coordinates (`GTKGestureWindow`'s drawing area). The rule of the engine's drag-and-drop
/// coordinator (rule 5) is stated there; here is how GTK carries it:
///
/// - **Out.** A drag of the engine's whose location leaves the widget is handed to GDK
///   (`gdk_drag_begin` on the widget's surface with the seat's pointer: GDK starts it with the
///   serial of the touch down, or the button press, that began it). Its content is the items'
///   data of each of their types, read when the drag leaves (a type whose provider delivers
///   later is not offered). The drag's `dnd-finished` ends the session with the action the
///   other app chose; its `cancel` ends it with `.cancel`. Touches down when it leaves are
///   the compositor's from then on: they are cancelled.
/// - **In.** A `GtkDropTargetAsync` on the widget: another app's drag is a drop session whose
///   one item has the drop's MIME types, the proposal of the drop target under it is GTK's
///   answer (copy or move, or none), and at the drop each type asked for is read from the
///   other app (`gdk_drop_read_async`); the drop is finished (`gdk_drop_finish`) once every
///   read has ended. The app's own drag coming back over the widget goes on as itself.
public final class GTKDragAndDrop: SystemDragPort {
    /// The widget drags leave and other apps' drags come over.
    let widget: UnsafeMutableRawPointer
    private weak var engine: GestureEngine?
    private weak var input: GTKGestureInput?
    private var target: OpaquePointer?
    private var handlers: [gulong] = []
    /// The app's drag GDK carries.
    private var outgoing: (drag: OpaquePointer, session: DragSession, handlers: [gulong])?
    /// The drop under the widget now, and its reads still under way.
    private var incoming: (drop: OpaquePointer, reads: Int, finished: GdkDragAction?)?
    /// What the bridge did, in words, for a log: nil to say nothing.
    public var log: ((String) -> Void)?

    /// Carries `engine`'s drags out of `widget` and other apps' drags into it; `input` is the
    /// widget's host, whose touches a drag takes. The bridge becomes the engine's
    /// `systemDrags` (held weakly there: keep it).
    public init(widget: UnsafeMutableRawPointer, engine: GestureEngine, input: GTKGestureInput? = nil) {
        self.widget = gk_object_ref(widget)!
        self.engine = engine
        self.input = input
        let me = Unmanaged.passUnretained(self).toOpaque()
        let target = gtk_drop_target_async_new(nil, GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))!
        handlers = [
            gk_signal_connect(UnsafeMutableRawPointer(target), "accept", unsafeBitCast(gtkDropAccept, to: GCallback.self), me),
            gk_signal_connect(UnsafeMutableRawPointer(target), "drag-enter", unsafeBitCast(gtkDropEnter, to: GCallback.self), me),
            gk_signal_connect(UnsafeMutableRawPointer(target), "drag-motion", unsafeBitCast(gtkDropMotion, to: GCallback.self), me),
            gk_signal_connect(UnsafeMutableRawPointer(target), "drag-leave", unsafeBitCast(gtkDropLeave, to: GCallback.self), me),
            gk_signal_connect(UnsafeMutableRawPointer(target), "drop", unsafeBitCast(gtkDropDrop, to: GCallback.self), me),
        ]
        gk_widget_add_controller(widget, UnsafeMutableRawPointer(target))
        self.target = target
        engine.dragAndDrop.systemDrags = self
    }

    deinit {
        if let target {
            for handler in handlers { gk_signal_disconnect(UnsafeMutableRawPointer(target), handler) }
            gk_widget_remove_controller(widget, UnsafeMutableRawPointer(target))
        }
        if let outgoing { release(outgoing.drag, outgoing.handlers) }
        if let incoming { g_object_unref(UnsafeMutableRawPointer(incoming.drop)) }
        gk_object_unref(widget)
    }

    private func say(_ message: String) { log?("GTK drag and drop: \(message)") }

    // MARK: Out

    package func carriesOut(_ session: DragSession) -> Bool {
        let width = Double(gtk_widget_get_width(gk_widget(widget))), height = Double(gtk_widget_get_height(gk_widget(widget)))
        let p = session.location
        guard outgoing == nil, p.x < 0 || p.y < 0 || p.x >= width || p.y >= height,
              let native = gtk_widget_get_native(gk_widget(widget)), let surface = gtk_native_get_surface(native),
              let seat = gdk_display_get_default_seat(gtk_widget_get_display(gk_widget(widget))),
              let pointer = gdk_seat_get_pointer(seat) else { return false }
        var providers: [UnsafeMutablePointer<GdkContentProvider>?] = []
        var offered: [String] = []
        for type in session.contentTypes {
            var data: [UInt8]?
            DragAndDropCoordinator.data(of: session, for: type) { if case let .success(bytes) = $0 { data = bytes } }
            guard let data else { continue }
            let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            providers.append(gdk_content_provider_new_for_bytes(type.rawValue, bytes))
            g_bytes_unref(bytes)
            offered.append(type.rawValue)
        }
        guard !providers.isEmpty else { return false }
        let content = providers.withUnsafeMutableBufferPointer { gdk_content_provider_new_union($0.baseAddress, gsize($0.count)) }
        var actions = GDK_ACTION_COPY.rawValue
        if session.allowsMoveOperation { actions |= GDK_ACTION_MOVE.rawValue }
        let byTouch = input?.hasTouchesDown ?? false
        let drag = gdk_drag_begin(surface, pointer, content, GdkDragAction(rawValue: actions), 0, 0)
        g_object_unref(UnsafeMutableRawPointer(content))
        guard let drag else { return false }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let raw = UnsafeMutableRawPointer(drag)
        outgoing = (drag, session, [
            gk_signal_connect(raw, "dnd-finished", unsafeBitCast(gtkDragFinished, to: GCallback.self), me),
            gk_signal_connect(raw, "cancel", unsafeBitCast(gtkDragCancelled, to: GCallback.self), me),
        ])
        say("gdk_drag_begin (a \(byTouch ? "touch" : "pointer") drag) offering \(offered.joined(separator: ", "))")
        if byTouch { input?.touchesTakenByDrag() }
        return true
    }

    private func release(_ drag: OpaquePointer, _ handlers: [gulong]) {
        for handler in handlers { gk_signal_disconnect(UnsafeMutableRawPointer(drag), handler) }
        g_object_unref(UnsafeMutableRawPointer(drag))
    }

    fileprivate func dragEnded(_ drag: OpaquePointer?, finished: Bool, reason: String) {
        guard let outgoing, outgoing.drag == drag else { return }
        self.outgoing = nil
        let action = gdk_drag_get_selected_action(outgoing.drag).rawValue
        gdk_drag_drop_done(outgoing.drag, finished ? 1 : 0)
        release(outgoing.drag, outgoing.handlers)
        guard let engine else { return }
        let operation: DropOperation = !finished ? .cancel : action == GDK_ACTION_MOVE.rawValue ? .move : .copy
        say("\(finished ? "dnd-finished" : "cancel") (\(operation.rawValue))")
        engine.dragAndDrop.systemDragEnded(
            with: operation,
            reason: finished ? "dropped on another app, which took it (\(operation.rawValue))" : reason, engine: engine)
    }

    // MARK: In

    fileprivate func entered(_ drop: OpaquePointer?, at location: Point) -> GdkDragAction {
        guard let drop, let engine else { return GdkDragAction(rawValue: 0) }
        if let old = incoming, old.drop != drop { g_object_unref(UnsafeMutableRawPointer(old.drop)) }
        if incoming?.drop != drop {
            g_object_ref(UnsafeMutableRawPointer(drop))
            incoming = (drop, 0, nil)
        }
        let types = Self.mimeTypes(of: drop)
        say("drag-enter at \(Int(location.x)),\(Int(location.y)) offering \(types.joined(separator: ", "))")
        let session = engine.dragAndDrop.systemDragEntered(items: { [unowned self] in items(of: drop, types: types) },
                                                           at: location, engine: engine)
        return Self.action(for: session.operation)
    }

    fileprivate func moved(to location: Point) -> GdkDragAction {
        guard incoming != nil, let engine else { return GdkDragAction(rawValue: 0) }
        engine.dragAndDrop.systemDragMoved(to: location, engine: engine)
        return Self.action(for: engine.dragAndDrop.session?.operation ?? .cancel)
    }

    /// Before a drop: the drag left the widget. After one (its reads under way or done):
    /// nothing more.
    fileprivate func left() {
        guard let current = incoming, current.finished == nil, let engine else { return }
        say("drag-leave")
        incoming = nil
        engine.dragAndDrop.systemDragLeft(engine: engine)
        g_object_unref(UnsafeMutableRawPointer(current.drop))
    }

    fileprivate func dropped(_ drop: OpaquePointer?, at location: Point) -> Bool {
        guard let drop, let engine else { return false }
        say("drop at \(Int(location.x)),\(Int(location.y))")
        if incoming?.drop != drop {
            // No drag-enter for it (or a drag-leave before it): the drop enters first.
            _ = entered(drop, at: location)
        } else {
            engine.dragAndDrop.systemDragMoved(to: location, engine: engine)
        }
        let operation = engine.dragAndDrop.systemDragDropped(engine: engine)
        guard var current = incoming, current.drop == drop else { return false }
        current.finished = Self.action(for: operation)
        incoming = current
        finishIfRead()
        return operation.performsDrop
    }

    /// The drop is finished once its reads have ended (at once when none began).
    private func finishIfRead() {
        guard let current = incoming, let action = current.finished, current.reads == 0 else { return }
        incoming = nil
        gdk_drop_finish(current.drop, action)
        g_object_unref(UnsafeMutableRawPointer(current.drop))
        say("gdk_drop_finish")
    }

    private static func action(for operation: DropOperation) -> GdkDragAction {
        switch operation {
        case .copy: GDK_ACTION_COPY
        case .move: GDK_ACTION_MOVE
        case .cancel, .forbidden: GdkDragAction(rawValue: 0)
        }
    }

    private static func mimeTypes(of drop: OpaquePointer) -> [String] {
        var count: gsize = 0
        guard let formats = gdk_drop_get_formats(drop), let types = gdk_content_formats_get_mime_types(formats, &count) else { return [] }
        return (0..<Int(count)).compactMap { types[$0].map { String(cString: $0) } }
    }

    /// One item with the drop's types, each read from the other app when asked for, while
    /// the drop lasts.
    private func items(of drop: OpaquePointer, types: [String]) -> [DragItem] {
        let provider = ItemProvider()
        for type in types {
            provider.registerDataRepresentation(for: ContentType(type)) { [weak self] completion in
                guard let self, var current = incoming, current.drop == drop, current.finished == nil else {
                    completion(.failure(.loadFailed(ContentType(type), reason: "the drop is over: data from another app loads while its drop is performed")))
                    return
                }
                current.reads += 1
                incoming = current
                say("gdk_drop_read_async \(type)")
                DropRead.start(drop, type: type) { [weak self] result in
                    completion(result.mapError { .loadFailed(ContentType(type), reason: $0.reason) })
                    guard let self, var current = incoming, current.drop == drop else { return }
                    current.reads -= 1
                    incoming = current
                    finishIfRead()
                }
            }
        }
        return [DragItem(itemProvider: provider)]
    }
}

/// One type's data read from a drop: `gdk_drop_read_async`, then the stream spliced into
/// memory; `completion` runs once, on GLib's main loop.
private final class DropRead {
    struct Failure: Error { let reason: String }
    let completion: (Result<[UInt8], Failure>) -> Void
    var memory: OpaquePointer?

    init(_ completion: @escaping (Result<[UInt8], Failure>) -> Void) { self.completion = completion }

    static func start(_ drop: OpaquePointer, type: String, completion: @escaping (Result<[UInt8], Failure>) -> Void) {
        let read = Unmanaged.passRetained(DropRead(completion)).toOpaque()
        type.withCString { mime in
            var types: [UnsafePointer<CChar>?] = [mime, nil]
            types.withUnsafeMutableBufferPointer {
                gdk_drop_read_async(drop, $0.baseAddress, G_PRIORITY_DEFAULT, nil, gtkDropReadReady, read)
            }
        }
    }

    func fail(_ error: UnsafeMutablePointer<GError>?, _ what: String) {
        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
        if let error { g_error_free(error) }
        completion(.failure(Failure(reason: "\(what): \(message)")))
    }
}

private let gtkDropReadReady: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, result, data in
    guard let data else { return }
    let read = Unmanaged<DropRead>.fromOpaque(data)
    var error: UnsafeMutablePointer<GError>?
    guard let stream = gdk_drop_read_finish(OpaquePointer(source), result, nil, &error) else {
        read.takeRetainedValue().fail(error, "gdk_drop_read_async")
        return
    }
    let memory = g_memory_output_stream_new_resizable()
    read.takeUnretainedValue().memory = OpaquePointer(memory)
    let flags = GOutputStreamSpliceFlags(rawValue: G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE.rawValue | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET.rawValue)
    g_output_stream_splice_async(memory, stream, flags, G_PRIORITY_DEFAULT, nil, gtkDropSpliced, data)
    g_object_unref(UnsafeMutableRawPointer(stream))
}

private let gtkDropSpliced: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, result, data in
    guard let data else { return }
    let read = Unmanaged<DropRead>.fromOpaque(data).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let memory = read.memory.map { UnsafeMutableRawPointer($0) }
    defer { if let memory { g_object_unref(memory) } }
    guard g_output_stream_splice_finish(OpaquePointer(source).map { UnsafeMutablePointer<GOutputStream>($0) }, result, &error) >= 0,
          let memory else {
        read.fail(error, "reading the drop")
        return
    }
    let bytes = g_memory_output_stream_steal_as_bytes(memory.assumingMemoryBound(to: GMemoryOutputStream.self))
    var size: gsize = 0
    let base = g_bytes_get_data(bytes, &size)
    let received = base.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(size))) } ?? []
    g_bytes_unref(bytes)
    read.completion(.success(received))
}

private func bridge(_ data: gpointer?) -> GTKDragAndDrop {
    Unmanaged<GTKDragAndDrop>.fromOpaque(data!).takeUnretainedValue()
}

private let gtkDropAccept: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, _, _ in 1 }

private let gtkDropEnter: @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double, gpointer?) -> GdkDragAction = { _, drop, x, y, data in
    bridge(data).entered(drop, at: Point(x: x, y: y))
}

private let gtkDropMotion: @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double, gpointer?) -> GdkDragAction = { _, _, x, y, data in
    bridge(data).moved(to: Point(x: x, y: y))
}

private let gtkDropLeave: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    bridge(data).left()
}

private let gtkDropDrop: @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double, gpointer?) -> gboolean = { _, drop, x, y, data in
    bridge(data).dropped(drop, at: Point(x: x, y: y)) ? 1 : 0
}

private let gtkDragFinished: @convention(c) (OpaquePointer?, gpointer?) -> Void = { drag, data in
    bridge(data).dragEnded(drag, finished: true, reason: "")
}

private let gtkDragCancelled: @convention(c) (OpaquePointer?, GdkDragCancelReason, gpointer?) -> Void = { drag, reason, data in
    let why = switch reason {
    case GDK_DRAG_CANCEL_NO_TARGET: "GTK cancelled it: no app took it"
    case GDK_DRAG_CANCEL_USER_CANCELLED: "GTK cancelled it: the user did"
    default: "GTK cancelled it: an error"
    }
    bridge(data).dragEnded(drag, finished: false, reason: why)
}
