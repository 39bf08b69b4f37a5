import Foundation
import GestureInput
import GestureKit
import GestureRecording
import GestureTraces
import GestureLibinput
import GestureWayland
import GestureSDL
import PhotoWallApp
import PhotoWallRender

#if canImport(Glibc)
import Glibc
#endif

/// The live wall: `LiveInput` runs the loop (libinput's fd, the wall's next deadline — a long
/// press's duration, a double tap's interval, the display link's next frame while the content
/// decelerates or bounces — and, with a window, a tick for its events,
/// waited on together, nothing blocking); after each batch of events the wall is drawn, if
/// anything changed, and shown.
final class LiveWall: LiveInputClient {
    let wall: PhotoWall
    let canvas: Canvas
    let frames: FrameWriter
    /// With a window: how often its events (close, keys) are read when nothing else happens.
    static let windowTick = Duration.milliseconds(50)

    private var dirty = true
    private var stats = DrawStatistics()
    /// A frame could not be saved: the run stops and this is thrown.
    private var failure: (any Error)?

    init(wall: PhotoWall, canvas: Canvas, frames: FrameWriter) {
        self.wall = wall
        self.canvas = canvas
        self.frames = frames
    }

    func handle(_ event: InputEvent) {
        if case .deviceAdded = event { return }
        wall.send(event)
        dirty = true
    }

    var nextDeadline: Instant? { wall.nextDeadline }

    /// Deadlines up to `now` fire on the real clock: a recognizer's, and while the content
    /// moves on its own the display link's frames (`frameRate` a second), so a fling animates
    /// live. A frame that moved the content is drawn and shown in `batchHandled`.
    func advance(to now: Instant) {
        let offset = wall.collectionView.contentOffset, scrolling = wall.isScrolling
        wall.advance(to: now)
        if wall.collectionView.contentOffset != offset || wall.isScrolling != scrolling { dirty = true }
    }

    /// After a batch: report the events (and save their frames), draw, show.
    func batchHandled(by input: LiveInputRun) {
        for event in wall.takeEvents() {
            do { try frames.record(event, wall: wall) } catch {
                failure = failure ?? error
                input.stop()
            }
            dirty = true
        }
        if canvas.hasWindow, canvas.pollQuit() { input.stop() }
        guard dirty else { return }
        dirty = false
        stats.count(wall)
        canvas.draw(wall.render())
        canvas.present()
    }

    func finish() { wall.finish() }

    /// `devicesOpened`: called once libinput has opened the devices (`LiveInput.onDevicesOpened`).
    /// `untilDevicesGone`: the run ends once every device has vanished, `duration` being only a
    /// limit that, reached, is a failure (`LibinputListener.stopWhenDevicesGone`).
    func run(source: LibinputListener.Source, mapping: TouchMapping = .identity, duration: Double?,
             untilDevicesGone: Bool = false, record: String? = nil, devicesOpened: (() throws -> Void)? = nil) throws {
        var listener = LibinputListener(source: source, screenSize: wall.screen, mapping: mapping,
                                        timeLimit: duration.map(Duration.init(seconds:)))
        listener.stopWhenDevicesGone = untilDevicesGone
        let input = LiveInput(listener, idleTick: canvas.hasWindow ? LiveWall.windowTick : nil)
        input.onDevicesOpened = devicesOpened
        // With --record, the recorder sits between libinput's loop and the wall.
        let recorder = try record.map { try GestureRecorder(recordingTo: $0, source: .libinput, screen: wall.screen, passingTo: self) }
        let client: any LiveInputClient = recorder ?? self
        let reason = try input.run(client)
        if let failure { throw failure }
        if untilDevicesGone, reason == .duration {
            throw LiveWallFailure.devicesStayed(duration: duration)
        }
        for event in wall.takeEvents() { try frames.record(event, wall: wall) }
        try frames.finish(wall: wall)
        frames.report(stats)
    }
}

enum LiveWallFailure: Error, CustomStringConvertible {
    case devicesStayed(duration: Double?)

    var description: String {
        switch self {
        case let .devicesStayed(duration):
            return "--until-devices-gone: a device was still there after --duration (\(duration.map { "\($0) s" } ?? "none")): its recording did not play to its end"
        }
    }
}

/// How many frames a live run drew, and how many of them while the content moved on its own
/// (a fling decelerating or bouncing: the display link's frames on the real clock).
struct DrawStatistics {
    var frames = 0
    var animationFrames = 0

    mutating func count(_ wall: PhotoWall) {
        frames += 1
        if wall.collectionView.isMovingOnItsOwn { animationFrames += 1 }
    }
}

/// The desktop wall: input from the window itself (SDL's touches, mouse and wheel, as the
/// windowing system hands them to the window: Wayland, X11), on SDL's clock. The loop sleeps
/// in `SDL_WaitEventTimeout` until an event or the wall's next deadline (a long press's
/// duration, a double tap's interval, the display link's next frame while the content moves on
/// its own), never busy; after each batch the wall is drawn, so a fling animates at the
/// display link's rate on the real clock.
///
/// Under Wayland the touches come from the compositor itself, on SDL's connection
/// (`WaylandConnection(sharing:)`), with the compositor's times: SDL2 stamps an event when the
/// window reads it, so touches that waited while the wall was drawing would all come with one
/// time, and a flick read that way has no velocity. The loop then runs on CLOCK_MONOTONIC (the
/// compositor's clock), SDL's mouse and wheel events moved onto it. Elsewhere (X11) SDL's
/// touches and clock are used as they are.
final class WindowWall {
    let wall: PhotoWall
    let canvas: Canvas
    let frames: FrameWriter

    init(wall: PhotoWall, canvas: Canvas, frames: FrameWriter, record: String? = nil) throws {
        self.wall = wall
        self.canvas = canvas
        self.frames = frames
        let client = WallInput(wall)
        // With --record, the recorder sits between the window's input and the wall.
        input = try record.map {
            try GestureRecorder(recordingTo: $0, source: .sdl2, screen: wall.screen, passingTo: client)
        } ?? client
    }

    /// `readyFile`: created once the first frame is presented; `duration` then counts from it.
    /// Where the window's input goes: the wall, or a recorder in front of it (--record).
    private var input: any LiveInputClient

    func run(duration: Double?, readyFile: String? = nil) throws {
        var adapter = SDLInputAdapter(windowSize: wall.screen)
        var compositor = canvas.waylandDisplay.flatMap { display -> WaylandConnection? in
            do {
                return try WaylandConnection(sharing: display)
            } catch {
                FileHandle.standardError.write(Data("photowall: the window's touches come through SDL, with SDL's times: \(error)\n".utf8))
                return nil
            }
        }
        // The loop's clock is chosen once: the engine's times stay on one clock even if the
        // compositor goes away mid-run.
        let onCompositorClock = compositor != nil
        var bridge = SDLClockBridge()
        adapter.takesTouches = !onCompositorClock
        frames.say(!onCompositorClock ? "touches: through SDL, on SDL's clock"
                                     : "touches: from the compositor (wl_touch on SDL's Wayland connection), with its times")
        func clockNow() -> Instant { onCompositorClock ? MonotonicClock.now() : SDLClock.ticks }
        var end = duration.map { clockNow() + Duration(seconds: $0) }
        var presented = false
        var dirty = true
        var stats = DrawStatistics()
        while true {
            if onCompositorClock {
                bridge.update()
                adapter.clockOffset = bridge.offset
            }
            let quit = canvas.pollEvents(into: &adapter)
            for event in adapter.take() {
                input.handle(event)
                dirty = true
            }
            if let connection = compositor {
                do {
                    try connection.dispatchPending { event in
                        if handleCompositorEvent(event) { dirty = true }
                    }
                } catch {
                    // The compositor went away: the touches it had down are cancelled.
                    FileHandle.standardError.write(Data("photowall: \(error)\n".utf8))
                    connection.cancelAll { event in _ = handleCompositorEvent(event) }
                    compositor = nil
                    dirty = true
                }
            }
            let now = clockNow()
            if let deadline = wall.nextDeadline, deadline <= now {
                input.advance(to: now)
                dirty = true
            }
            for event in wall.takeEvents() {
                try frames.record(event, wall: wall)
                dirty = true
            }
            if dirty {
                stats.count(wall)
                canvas.draw(wall.render())
                canvas.present()
                dirty = false
                if !presented {
                    presented = true
                    if let readyFile {
                        guard FileManager.default.createFile(atPath: readyFile, contents: Data("ready\n".utf8)) else {
                            throw fail("\(readyFile): cannot create the ready file (\(String(cString: strerror(errno))))")
                        }
                        end = duration.map { clockNow() + Duration(seconds: $0) }
                    }
                }
            }
            if quit { break }
            if let end, now >= end { break }
            let wake = [wall.nextDeadline, end].compactMap { $0 }.min()
            canvas.waitForEvent(milliseconds: wake.map { Int(max(0, ($0.nanoseconds - now.nanoseconds + 999_999) / 1_000_000)) })
        }
        compositor?.disconnect()
        input.finish()
        for event in wall.takeEvents() { try frames.record(event, wall: wall) }
        try frames.finish(wall: wall)
        frames.report(stats, lateTouchEvents: adapter.lateTouchEvents, largestLateBatch: adapter.largestLateBatch)
    }

    /// The window's touches and touchpad gestures from the compositor (its mouse comes through
    /// SDL; SDL2 has no touchpad pinch); true when the wall got something.
    private func handleCompositorEvent(_ event: InputEvent) -> Bool {
        switch event {
        case .touchFrame, .touchpadGesture, .deviceRemoved:
            input.handle(event)
            return true
        default:
            return false
        }
    }
}

/// The wall as a live client: what `WindowWall`'s loop hands it, through a recorder or not.
final class WallInput: LiveInputClient {
    let wall: PhotoWall
    init(_ wall: PhotoWall) { self.wall = wall }
    func handle(_ event: InputEvent) { wall.send(event) }
    var nextDeadline: Instant? { wall.nextDeadline }
    func advance(to now: Instant) { wall.advance(to: now) }
    func finish() { wall.finish() }
}
