import GestureKit
import GestureLibinput
import PhotoWallApp
import PhotoWallRender

#if canImport(Glibc)
import Glibc
#endif

/// The live frame loop: libinput's fd, the wall's next deadline (a long press's duration, a
/// double tap's interval) and, with a window, a frame tick for its events, all waited on
/// together by `InputEventLoop` (poll + timerfd). Nothing blocks on input or on a timer;
/// after each batch of events the wall is drawn, if anything changed, and shown.
final class LiveWall {
    let wall: PhotoWall
    let canvas: Canvas
    let frames: FrameWriter
    /// With a window: how often its events (close, keys) are read when nothing else happens.
    static let windowTickSeconds = 0.05

    /// The monotonic time of the first event: the wall's time zero.
    private var origin: Instant?
    private var dirty = true
    private var lastTick = MonotonicClock.now()

    init(wall: PhotoWall, canvas: Canvas, frames: FrameWriter) {
        self.wall = wall
        self.canvas = canvas
        self.frames = frames
    }

    private func wallTime(_ t: Instant) -> Instant {
        if origin == nil { origin = t }
        return Instant(nanoseconds: t.nanoseconds &- origin!.nanoseconds)
    }

    private func handle(_ event: LibinputInputEvent) {
        switch event {
        case var .touchFrame(frame):
            frame.time = wallTime(frame.time)
            wall.send(frame)
            dirty = true
        case var .touchpadGesture(gesture):
            gesture.time = wallTime(gesture.time)
            wall.engine.send(gesture)
            dirty = true
        case .deviceAdded:
            break
        case let .deviceRemoved(id):
            wall.engine.deviceRemoved(id, at: wall.engine.now)
            dirty = true
        }
    }

    /// The wall's next deadline on the monotonic clock.
    private var wallDeadline: Instant? {
        guard let origin, let d = wall.nextDeadline else { return nil }
        return Instant(nanoseconds: d.nanoseconds &+ origin.nanoseconds)
    }

    /// After a batch: report the events (and save their frames), draw, show.
    private func afterBatch(loop: InputEventLoop) {
        for event in wall.takeEvents() {
            do { try frames.record(event, wall: wall) } catch { loop.stop() }
            dirty = true
        }
        if canvas.hasWindow {
            if canvas.pollQuit() { loop.stop() }
            lastTick = MonotonicClock.now()
        }
        guard dirty else { return }
        dirty = false
        canvas.draw(wall.render())
        canvas.present()
    }

    func run(source: LibinputListener.Source, duration: Double?) throws {
        let size = wall.screen
        let context: LibinputContext
        switch source {
        case let .seat(seat): context = try LibinputContext(seat: seat, screenSize: size)
        case let .paths(paths): context = try LibinputContext(paths: paths, screenSize: size)
        }
        let loop = try InputEventLoop(context: context)
        try loop.stopOnSignals([SIGINT, SIGTERM])
        let end = duration.map { MonotonicClock.now().advanced(bySeconds: $0) }
        let window = canvas.hasWindow
        try loop.run(
            onEvent: { [unowned self] in handle($0) },
            nextDeadline: { [unowned self] in
                let tick = window ? lastTick.advanced(bySeconds: LiveWall.windowTickSeconds) : nil
                return [end, wallDeadline, tick].compactMap { $0 }.min()
            },
            advance: { [unowned self] now in
                if origin != nil { wall.advance(to: wallTime(now)) }
                if let end, now >= end { loop.stop() }
            },
            beforeWait: { [unowned self] in afterBatch(loop: loop) })
        context.suspend()
        try context.dispatch { [unowned self] in handle($0) }
        wall.finish()
        for event in wall.takeEvents() { try frames.record(event, wall: wall) }
        try frames.finish(wall: wall)
    }
}
