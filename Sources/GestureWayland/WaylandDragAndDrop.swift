import CWaylandClient
import CWaylandProtocols
import GestureKit
#if canImport(Glibc)
import Glibc
#endif

/// Drag and drop between apps, through the compositor's data device (`wl_data_device`), for
/// a window's engine (rule 5 of the engine's drag-and-drop coordinator, stated there):
///
/// - **Out.** A drag of the app's (a `DragInteraction`'s session) whose touch or pointer
///   leaves the window is handed to the compositor: a `wl_data_source` offering the items'
///   content types, richest first, and `start_drag` with the serial of the press that began
///   it (`WaylandSeat.lastInputSerial`). The app it is dropped on asks for the data of a type
///   (`send`: the items' providers write it into the pipe); `dnd_finished` ends the session
///   with the operation that app chose, `cancelled` ends it with `.cancel`.
/// - **In.** Another app's drag over the window is a drop session (`DragSession.Origin.system`)
///   whose items have the offer's types: the engine finds the drop target under it as for
///   a touch, and its proposal is the app's answer (`accept` and `set_actions`: copy or move
///   when it performs, nothing when it cancels or forbids). At the drop the target performs
///   it; the data of a type is read from the other app while the drop is performed (UIKit:
///   load it in `performDrop`), then the drop is finished (`wl_data_offer.finish`).
/// - The app's own drag coming back over its window goes on as the same session, moved by
///   the compositor's positions; its drop there is an in-app drop.
///
/// Compositors differ for drags begun by a touch: sway (1.7–1.10) sends a touch drag's
/// targets no `enter` and cancels it; KWin and mutter carry it. A drag begun by the pointer
/// works on each.
public final class WaylandDragAndDrop: SystemDragPort {
    /// What the data device did, in words (the compositor's events and the bridge's answers),
    /// for a log: nil to say nothing.
    public var log: ((String) -> Void)?
    /// How long the data of a drop from another app may take to arrive (seconds), before
    /// loading it fails. The read blocks the window's loop meanwhile.
    static let dataReadLimit = 5.0 /* s */
    /// The most bytes a drop from another app may deliver for one type.
    static let dataSizeLimit = 64 << 20 /* bytes */

    private let connection: WaylandConnection
    private weak var window: WaylandWindow?
    private weak var engine: GestureEngine?
    /// The window's input run, whose clock the drags' steps are put on (the data device's
    /// events carry no time the engine could read).
    public weak var input: WaylandInput?
    private var device: OpaquePointer?
    /// The offers the compositor announced, with the types each offered so far.
    private var offers: [OpaquePointer: [String]] = [:]
    /// The offer under the window now, and the serial of its `enter`.
    private var current: (offer: OpaquePointer, serial: UInt32)?
    /// The app's drag the compositor carries, its source, and the action the compositor chose.
    private var outgoing: (source: OpaquePointer, session: DragSession, action: UInt32)?

    /// Binds the compositor's data device for `window`'s first seat, and carries `engine`'s
    /// drags out of the window and other apps' into it; `input`, the window's input run, gives
    /// their steps the run's time. Throws when the compositor has no data device manager or no
    /// seat.
    public init(connection: WaylandConnection, window: WaylandWindow, engine: GestureEngine,
                input: WaylandInput? = nil) throws {
        self.connection = connection
        self.window = window
        self.engine = engine
        self.input = input
        guard let manager = connection.dataDeviceManager else {
            throw WaylandError.missingGlobal("wl_data_device_manager")
        }
        guard let seat = connection.seats.first else { throw WaylandError.missingGlobal("wl_seat") }
        device = wl_data_device_manager_get_data_device(manager, seat.proxy)
        wl_data_device_add_listener(device, &DataDeviceListeners.device, Unmanaged.passUnretained(self).toOpaque())
        connection.dragAndDrops.append(WaylandConnection.WeakDragAndDrop(bridge: self))
        engine.dragAndDrop.systemDrags = self
        seat.inputBegan = { [weak self] in self?.inputBegan() }
    }

    /// New input reached the window while the compositor carried the app's drag: the
    /// compositor's grab is over, though it said nothing of the drag's end (sway 1.10 sends a
    /// touch drag's source no drop and no `cancelled`). The drag ends with cancel.
    private func inputBegan() {
        guard let outgoing else { return }
        sourceEnded(outgoing.source, finished: false,
                    reason: "new input began, and the compositor had said nothing of the drag's end: cancel")
    }

    deinit { destroyProxies() }

    /// Destroys the device, the offers and a source still carried (before the connection
    /// goes).
    func destroyProxies() {
        if let outgoing { wl_data_source_destroy(outgoing.source) }
        outgoing = nil
        for offer in offers.keys { wl_data_offer_destroy(offer) }
        offers = [:]
        current = nil
        if let device {
            if connection.dataDeviceManagerVersion >= 2 { wl_data_device_release(device) } else { wl_data_device_destroy(device) }
        }
        device = nil
    }

    private var hasActions: Bool { connection.dataDeviceManagerVersion >= 3 }

    /// The engine's time moved to the run's now, before a step of a drag the compositor
    /// reports (the run's clock starts then if no input has started it).
    private func syncClock() {
        guard let engine, let now = input?.clientNow() else { return }
        if now > engine.now { engine.advance(to: now) }
    }

    // MARK: Out

    package func carriesOut(_ session: DragSession) -> Bool {
        guard outgoing == nil, let window, let device, let manager = connection.dataDeviceManager,
              let seat = connection.seats.first, let serial = seat.lastInputSerial else { return false }
        let p = session.location
        guard p.x < 0 || p.y < 0 || p.x >= window.size.width || p.y >= window.size.height else { return false }
        let types = session.contentTypes
        guard !types.isEmpty, let source = wl_data_device_manager_create_data_source(manager) else { return false }
        wl_data_source_add_listener(source, &DataDeviceListeners.source, Unmanaged.passUnretained(self).toOpaque())
        for type in types { wl_data_source_offer(source, type.rawValue) }
        if hasActions {
            var actions = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
            if session.allowsMoveOperation { actions |= WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue }
            wl_data_source_set_actions(source, actions)
        }
        wl_data_device_start_drag(device, source, window.surface, nil, serial)
        wl_display_flush(connection.display)
        outgoing = (source, session, 0)
        say("start_drag (serial \(serial), a \(seat.lastInputWasTouch ? "touch" : "pointer") drag) offering \(types.map(\.rawValue).joined(separator: ", "))")
        // The pointer's grab ends with a `leave`, which cancels its touch; a touch taken by the
        // drag gets no word at all from the compositor.
        if seat.lastInputWasTouch { seat.touchesTakenByDrag(on: window.surface) }
        return true
    }

    fileprivate func sourceSend(_ source: OpaquePointer?, type: String, fd: Int32) {
        guard let outgoing, outgoing.source == source else { close(fd); return }
        say("send \(type)")
        DragAndDropCoordinator.data(of: outgoing.session, for: ContentType(type)) { result in
            switch result {
            case let .success(bytes): PipeWriter.write(bytes, to: fd)
            case .failure: break
            }
            close(fd)
        }
    }

    fileprivate func sourceAction(_ source: OpaquePointer?, action: UInt32) {
        guard outgoing?.source == source else { return }
        outgoing?.action = action
    }

    fileprivate func sourceEnded(_ source: OpaquePointer?, finished: Bool,
                                 reason: String = "the compositor cancelled it: no app took it") {
        guard let outgoing, outgoing.source == source else { return }
        self.outgoing = nil
        wl_data_source_destroy(outgoing.source)
        guard let engine else { return }
        syncClock()
        if finished {
            let operation: DropOperation = outgoing.action == WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue ? .move : .copy
            say("dnd_finished (\(operation.rawValue))")
            engine.dragAndDrop.systemDragEnded(with: operation, reason: "dropped on another app, which took it (\(operation.rawValue))",
                                               engine: engine)
        } else {
            say("cancelled (\(reason))")
            engine.dragAndDrop.systemDragEnded(with: .cancel, reason: reason, engine: engine)
        }
    }

    // MARK: In

    fileprivate func offerAnnounced(_ offer: OpaquePointer?) {
        guard let offer else { return }
        offers[offer] = []
        wl_data_offer_add_listener(offer, &DataDeviceListeners.offer, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func offerType(_ offer: OpaquePointer?, _ type: String) {
        guard let offer, offers[offer] != nil else { return }
        offers[offer]?.append(type)
    }

    fileprivate func enter(serial: UInt32, surface: OpaquePointer?, at location: Point, offer: OpaquePointer?) {
        guard let window, surface == window.surface, let engine else {
            if let offer { forget(offer) }
            return
        }
        guard let offer else { return }   // a drag with no data (the source's own surface only)
        if let old = current, old.offer != offer { forget(old.offer) }
        current = (offer, serial)
        let types = offers[offer] ?? []
        syncClock()
        say("enter (serial \(serial)) at \(Int(location.x)),\(Int(location.y)) offering \(types.joined(separator: ", "))")
        let session = engine.dragAndDrop.systemDragEntered(items: { [unowned self] in items(of: offer, types: types) },
                                                           at: location, engine: engine)
        answer(session)
    }

    fileprivate func motion(to location: Point) {
        guard current != nil, let engine else { return }
        syncClock()
        engine.dragAndDrop.systemDragMoved(to: location, engine: engine)
        if let session = engine.dragAndDrop.session { answer(session) }
    }

    fileprivate func leave() {
        guard let left = current, let engine else { return }
        say("leave")
        syncClock()
        current = nil
        engine.dragAndDrop.systemDragLeft(engine: engine)
        forget(left.offer)
    }

    fileprivate func drop() {
        guard let dropped = current, let engine else { return }
        say("drop")
        syncClock()
        let operation = engine.dragAndDrop.systemDragDropped(engine: engine)
        current = nil
        if operation.performsDrop && hasActions { wl_data_offer_finish(dropped.offer) }
        forget(dropped.offer)
    }

    /// The target's proposal, told to the compositor.
    private func answer(_ session: DragSession) {
        guard let (offer, serial) = current else { return }
        let types = offers[offer] ?? []
        if session.operation.performsDrop, let type = types.first {
            wl_data_offer_accept(offer, serial, type)
            if hasActions {
                let action = session.operation == .move ? WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE : WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY
                wl_data_offer_set_actions(offer, action.rawValue, action.rawValue)
            }
        } else {
            wl_data_offer_accept(offer, serial, nil)
            if hasActions { wl_data_offer_set_actions(offer, 0, 0) }
        }
    }

    /// One item with the offer's types, each loaded from the other app when asked for,
    /// while the offer lasts.
    private func items(of offer: OpaquePointer, types: [String]) -> [DragItem] {
        let provider = ItemProvider()
        for type in types {
            provider.registerDataRepresentation(for: ContentType(type)) { [weak self] completion in
                guard let self, self.offers[offer] != nil else {
                    completion(.failure(.loadFailed(ContentType(type), reason: "the drop is over: data from another app loads while its drop is performed")))
                    return
                }
                completion(self.receive(type, from: offer))
            }
        }
        return [DragItem(itemProvider: provider)]
    }

    private func receive(_ type: String, from offer: OpaquePointer) -> Result<[UInt8], ItemProviderError> {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            return .failure(.loadFailed(ContentType(type), reason: "no pipe: \(String(cString: strerror(errno)))"))
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wl_data_offer_receive(offer, type, fds[1])
        close(fds[1])
        wl_display_flush(connection.display)
        defer { close(fds[0]) }
        say("receive \(type)")
        return PipeReader.read(fds[0], limit: Self.dataSizeLimit, seconds: Self.dataReadLimit)
            .mapError { .loadFailed(ContentType(type), reason: $0.reason) }
    }

    private func forget(_ offer: OpaquePointer) {
        guard offers.removeValue(forKey: offer) != nil else { return }
        wl_data_offer_destroy(offer)
    }

    fileprivate func selection(_ offer: OpaquePointer?) {
        // The clipboard's offer: not used here.
        if let offer, current?.offer != offer { forget(offer) }
    }

    private func say(_ message: String) { log?("data device: \(message)") }
}

/// Reads a pipe to its end, within a size and a time limit.
enum PipeReader {
    struct Failure: Error { let reason: String }

    static func read(_ fd: Int32, limit: Int, seconds: Double) -> Result<[UInt8], Failure> {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let deadline = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9 + seconds
        while true {
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let left = deadline - (Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9)
            guard left > 0 else { return .failure(Failure(reason: "the other app sent \(data.count) bytes and no end within \(seconds) s")) }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(left * 1000) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(reason: "poll: \(String(cString: strerror(errno)))"))
            }
            if ready == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(Failure(reason: "read: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { return .success(data) }
            data += buffer[0..<n]
            if data.count > limit { return .failure(Failure(reason: "the other app sent more than \(limit) bytes")) }
        }
    }
}

/// Writes into a pipe another app reads, without the process's SIGPIPE when that app has
/// closed it: the signal is blocked in this thread for the write and a pending one taken.
enum PipeWriter {
    static func write(_ bytes: [UInt8], to fd: Int32) {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &old)
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        let wasPending = sigismember(&pendingBefore, SIGPIPE) == 1
        var offset = 0
        var broken = false
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    broken = errno == EPIPE
                    return
                }
                offset += n
            }
        }
        if broken && !wasPending {
            var zero = timespec()
            _ = sigtimedwait(&block, nil, &zero)
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }
}

/// The data device's listener tables (a field left zero would be a NULL handler libwayland
/// aborts on: every event of version 3 is set).
enum DataDeviceListeners {
    static func bridge(_ data: UnsafeMutableRawPointer?) -> WaylandDragAndDrop {
        Unmanaged<WaylandDragAndDrop>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) static var device: wl_data_device_listener = {
        var listener = wl_data_device_listener()
        listener.data_offer = { data, _, offer in bridge(data).offerAnnounced(offer) }
        listener.enter = { data, _, serial, surface, x, y, offer in
            bridge(data).enter(serial: serial, surface: surface,
                               at: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)), offer: offer)
        }
        listener.leave = { data, _ in bridge(data).leave() }
        listener.motion = { data, _, _, x, y in
            bridge(data).motion(to: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        }
        listener.drop = { data, _ in bridge(data).drop() }
        listener.selection = { data, _, offer in bridge(data).selection(offer) }
        return listener
    }()

    nonisolated(unsafe) static var offer: wl_data_offer_listener = {
        var listener = wl_data_offer_listener()
        listener.offer = { data, offer, type in
            if let type { bridge(data).offerType(offer, String(cString: type)) }
        }
        listener.source_actions = { _, _, _ in }
        listener.action = { _, _, _ in }
        return listener
    }()

    nonisolated(unsafe) static var source: wl_data_source_listener = {
        var listener = wl_data_source_listener()
        listener.target = { _, _, _ in }
        listener.send = { data, source, type, fd in
            if let type { bridge(data).sourceSend(source, type: String(cString: type), fd: fd) } else { close(fd) }
        }
        listener.cancelled = { data, source in bridge(data).sourceEnded(source, finished: false) }
        listener.dnd_drop_performed = { _, _ in }
        listener.dnd_finished = { data, source in bridge(data).sourceEnded(source, finished: true) }
        listener.action = { data, source, action in bridge(data).sourceAction(source, action: action) }
        return listener
    }()
}
