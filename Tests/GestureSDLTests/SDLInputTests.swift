import CSDL2
import GestureKit
import GestureSDL
import Testing

/// SDL's events into the engine's: coordinates, frames, and each input once.
@Suite struct SDLInputTests {
    static let window = Size(width: 1000, height: 500)

    static func finger(_ type: SDL_EventType, ms: UInt32, id: Int64, x: Float, y: Float, touch: Int64 = 7) -> SDL_Event {
        var e = SDL_Event()
        e.tfinger.type = type.rawValue
        e.tfinger.timestamp = ms
        e.tfinger.touchId = touch
        e.tfinger.fingerId = id
        e.tfinger.x = x
        e.tfinger.y = y
        return e
    }

    static func button(_ down: Bool, ms: UInt32, x: Int32, y: Int32, which: UInt32 = 0, button: UInt8 = 1) -> SDL_Event {
        var e = SDL_Event()
        e.button.type = (down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP).rawValue
        e.button.timestamp = ms
        e.button.which = which
        e.button.button = button
        e.button.x = x
        e.button.y = y
        return e
    }

    @Test("fingers of one timestamp make one frame, in window coordinates; a finger seen twice starts a new frame")
    func fingersToFrames() {
        var adapter = SDLInputAdapter(windowSize: Self.window)
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 100, id: 1, x: 0.25, y: 0.5))
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 100, id: 2, x: 0.75, y: 0.5))
        adapter.convert(Self.finger(SDL_FINGERMOTION, ms: 100, id: 1, x: 0.3, y: 0.5))
        adapter.convert(Self.finger(SDL_FINGERUP, ms: 116, id: 2, x: 0.75, y: 0.5))
        let out = adapter.take()
        guard out.count == 3, case let .touchFrame(a) = out[0], case let .touchFrame(b) = out[1],
              case let .touchFrame(c) = out[2] else {
            Issue.record("three frames expected: \(out)")
            return
        }
        #expect(a.changes.map(\.phase) == [.began, .began], "both fingers land in one frame")
        #expect(a.changes[0].location == Point(x: 250, y: 250), "normalized positions scale to the window")
        #expect(a.time == Instant(seconds: 0.1), "SDL's milliseconds")
        #expect(b.changes.map(\.phase) == [.moved])
        #expect(c.changes.map(\.phase) == [.ended] && c.time == Instant(seconds: 0.116))
    }

    @Test("touch events that waited while the window was busy (one finger, one SDL timestamp) are counted as late; fingers landing together are not")
    func lateTouchEvents() {
        var adapter = SDLInputAdapter(windowSize: Self.window)
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 100, id: 1, x: 0.5, y: 0.8))
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 100, id: 2, x: 0.6, y: 0.8))
        adapter.convert(Self.finger(SDL_FINGERMOTION, ms: 110, id: 1, x: 0.5, y: 0.7))
        #expect(adapter.lateTouchEvents == 0, "two fingers in one frame, then a move 10 ms later: all on time")
        // The window drew for 90 ms; three moves and the lift waited and were read at once.
        for y in [0.6, 0.5, 0.4] as [Float] {
            adapter.convert(Self.finger(SDL_FINGERMOTION, ms: 200, id: 1, x: 0.5, y: y))
        }
        adapter.convert(Self.finger(SDL_FINGERUP, ms: 200, id: 1, x: 0.5, y: 0.4))
        #expect(adapter.lateTouchEvents == 3, "the second, third and fourth event of finger 1 stamped 200 ms are late")
        #expect(adapter.largestLateBatch == 4, "four events of one finger came with one timestamp")
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 200, id: 1, x: 0.5, y: 0.8))
        #expect(adapter.lateTouchEvents == 3, "a new touch after a lift starts afresh")
    }

    @Test("with the touches read from the compositor, SDL's finger events are dropped and its mouse events moved onto the loop's clock")
    func touchesFromTheCompositor() {
        var adapter = SDLInputAdapter(windowSize: Self.window)
        adapter.takesTouches = false
        adapter.clockOffset = 5_000_000_000
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 100, id: 1, x: 0.5, y: 0.5))
        adapter.convert(Self.button(true, ms: 120, x: 100, y: 50))
        let out = adapter.take()
        #expect(out.count == 1, "only the click reaches the engine; the finger comes from the compositor: \(out)")
        if case let .pointer(p) = out.first {
            #expect(p.time == Instant(seconds: 5.12), "SDL's 120 ms plus the offset of 5 s")
        } else {
            Issue.record("a button press expected: \(out)")
        }
    }

    @Test("touches SDL made from the mouse and mouse events it made from touches are dropped: each input reaches the engine once")
    func noDuplicates() {
        var adapter = SDLInputAdapter(windowSize: Self.window)
        adapter.convert(Self.finger(SDL_FINGERDOWN, ms: 10, id: 0, x: 0.5, y: 0.5, touch: -1))    // SDL_MOUSE_TOUCHID
        adapter.convert(Self.button(true, ms: 10, x: 500, y: 250, which: UInt32.max))          // SDL_TOUCH_MOUSEID
        adapter.convert(Self.button(true, ms: 20, x: 100, y: 50))
        adapter.convert(Self.button(false, ms: 90, x: 100, y: 50))
        let out = adapter.take()
        #expect(out.count == 2, "only the real click: \(out)")
        if case let .pointer(p) = out.first {
            #expect(p.kind == .button && p.pressed && p.button == PointerEvent.primaryButton && p.location == Point(x: 100, y: 50))
        } else {
            Issue.record("a button press expected: \(out)")
        }
    }

    @Test("a wheel turned away from the user scrolls the content down 15 points a detent, as from libinput")
    func wheel() {
        var adapter = SDLInputAdapter(windowSize: Self.window)
        var e = SDL_Event()
        e.wheel.type = SDL_MOUSEWHEEL.rawValue
        e.wheel.timestamp = 5
        e.wheel.y = 1
        e.wheel.preciseY = 1
        adapter.convert(e)
        let out = adapter.take()
        guard case let .pointer(p) = out.first else {
            Issue.record("a scroll expected: \(out)")
            return
        }
        #expect(p.kind == .scroll && p.scrollType == .discrete && p.delta == Point(x: 0, y: 15))
    }
}
