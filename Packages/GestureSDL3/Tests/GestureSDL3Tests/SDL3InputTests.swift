import CSDL3
import GestureKit
import GestureSDL3
import Testing

/// SDL3's events into the engine's: nanosecond times, frames, each input once, pens.
@Suite struct SDL3InputTests {
    static let window = Size(width: 1000, height: 500)

    static func finger(_ type: SDL_EventType, ns: UInt64, id: UInt64, x: Float, y: Float, touch: UInt64 = 7) -> SDL_Event {
        var e = SDL_Event()
        e.tfinger.type = type
        e.tfinger.timestamp = ns
        e.tfinger.touchID = touch
        e.tfinger.fingerID = id
        e.tfinger.x = x
        e.tfinger.y = y
        return e
    }

    @Test("two fingers of one timestamp make one frame at SDL3's nanosecond time, in window points")
    func fingersMakeFrames() throws {
        var adapter = SDL3InputAdapter(windowSize: Self.window)
        adapter.convert(Self.finger(SDL_EVENT_FINGER_DOWN, ns: 1_234_567_891, id: 1, x: 0.25, y: 0.5))
        adapter.convert(Self.finger(SDL_EVENT_FINGER_DOWN, ns: 1_234_567_891, id: 2, x: 0.75, y: 0.5))
        adapter.convert(Self.finger(SDL_EVENT_FINGER_UP, ns: 1_284_567_891, id: 1, x: 0.25, y: 0.5))
        let events = adapter.take()
        guard events.count == 2, case let .touchFrame(first) = events[0], case let .touchFrame(second) = events[1] else {
            Issue.record("two frames expected: \(events)")
            return
        }
        #expect(first.time == Instant(nanoseconds: 1_234_567_891), "the event's own nanoseconds, not a millisecond")
        #expect(first.changes.map(\.location) == [Point(x: 250, y: 250), Point(x: 750, y: 250)])
        #expect(second.changes.map(\.phase) == [.ended])
    }

    @Test("mouse events SDL made of touches or pens are dropped; a real click is a click, with its evdev button")
    func eachInputOnce() {
        var adapter = SDL3InputAdapter(windowSize: Self.window)
        for which in [UInt32.max, UInt32.max - 1, 3] {
            var e = SDL_Event()
            e.button.type = SDL_EVENT_MOUSE_BUTTON_DOWN
            e.button.timestamp = 1_000_000
            e.button.which = which
            e.button.button = 3
            e.button.down = true
            e.button.x = 10
            e.button.y = 20
            adapter.convert(e)
        }
        let events = adapter.take()
        #expect(events.count == 1, "only the real mouse's press: \(events)")
        if case let .pointer(p) = events.first { #expect(p.button == 0x111 && p.pressed, "the right button, pressed") }
    }

    @Test("a pen: its axes kept, down with its pressure, moving, up and out; the eraser end is the eraser")
    func pen() {
        var adapter = SDL3InputAdapter(windowSize: Self.window)
        func pen(_ fill: (inout SDL_Event) -> Void) {
            var e = SDL_Event()
            fill(&e)
            adapter.convert(e)
        }
        pen { $0.pproximity.type = SDL_EVENT_PEN_PROXIMITY_IN; $0.pproximity.which = 5; $0.pproximity.timestamp = 1_000 }
        pen { $0.pmotion.type = SDL_EVENT_PEN_MOTION; $0.pmotion.which = 5; $0.pmotion.timestamp = 2_000; $0.pmotion.x = 100; $0.pmotion.y = 100 }
        pen { $0.paxis.type = SDL_EVENT_PEN_AXIS; $0.paxis.which = 5; $0.paxis.timestamp = 3_000; $0.paxis.axis = SDL_PEN_AXIS_PRESSURE; $0.paxis.value = 0.5 }
        pen { $0.ptouch.type = SDL_EVENT_PEN_DOWN; $0.ptouch.which = 5; $0.ptouch.timestamp = 3_000; $0.ptouch.x = 100; $0.ptouch.y = 100; $0.ptouch.down = true; $0.ptouch.eraser = true }
        pen { $0.pmotion.type = SDL_EVENT_PEN_MOTION; $0.pmotion.which = 5; $0.pmotion.timestamp = 4_000; $0.pmotion.x = 120; $0.pmotion.y = 100 }
        pen { $0.ptouch.type = SDL_EVENT_PEN_UP; $0.ptouch.which = 5; $0.ptouch.timestamp = 5_000; $0.ptouch.x = 120; $0.ptouch.y = 100; $0.ptouch.down = false; $0.ptouch.eraser = true }
        pen { $0.pproximity.type = SDL_EVENT_PEN_PROXIMITY_OUT; $0.pproximity.which = 5; $0.pproximity.timestamp = 6_000 }
        let events = adapter.take()
        let pens = events.compactMap { if case let .pen(p) = $0 { p } else { nil } }
        #expect(events.contains { if case .deviceAdded(let d) = $0 { d.kind == .pen } else { false } }, "the pen is announced as a pen")
        #expect(pens.map(\.phase) == [.hover, .down, .moved, .up, .out])
        #expect(pens[1].sample.force == 0.5 && pens[1].sample.tool == .eraser, "down with the pressure SDL said, the eraser end")
        #expect(pens[0].sample.force == 0, "no force hovering")
    }

    @Test("through SDL3's own queue (SDL_PushEvent, SDL_PollEvent): a finger's nanosecond timestamp is kept")
    func throughTheQueue() throws {
        SDL3InputAdapter.configureSDL()
        try #require(SDL_Init(SDL_INIT_EVENTS), "SDL_Init(SDL_INIT_EVENTS): \(String(cString: SDL_GetError()))")
        defer { SDL_Quit() }
        var e = Self.finger(SDL_EVENT_FINGER_DOWN, ns: 5_000_000_123, id: 1, x: 0.5, y: 0.5)
        #expect(SDL_PushEvent(&e))
        var adapter = SDL3InputAdapter(windowSize: Self.window)
        var event = SDL_Event()
        while SDL_PollEvent(&event) { adapter.convert(event) }
        let frames = adapter.take().compactMap { if case let .touchFrame(f) = $0 { f } else { nil } }
        #expect(frames.first?.time == Instant(nanoseconds: 5_000_000_123), "\(frames)")
    }
}
