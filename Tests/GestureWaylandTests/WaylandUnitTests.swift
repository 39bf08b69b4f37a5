import Foundation
import GestureKit
import GestureInput
@testable import GestureWayland
import Testing
import GestureTestSupport

/// What needs no compositor.
@Suite struct WaylandUnitTests {
    static let wrap: Int64 = 1 << 32
    /// (stamp, the last time widened, what the stamp must become)
    static let cases: [(UInt32, Int64, Int64)] = [
        (1_000, 900, 1_000),
        (UInt32.max - 5, wrap + 10, wrap - 6),          // a stamp from just before the wrap
        (3, wrap - 2, wrap + 3),                        // just after it
        (500, 7 * wrap + 400, 7 * wrap + 500),
    ]

    @Test("a compositor's 32-bit millisecond stamps widen onto the 64-bit clock, across their wrap")
    func widening() {
        for (raw, reference, expected) in Self.cases {
            #expect(MillisecondStamps.widen(raw, near: reference) == expected, "\(raw) near \(reference)")
        }
    }

    @Test("a stamp of 0 (GDK's and X's \"no time\", GTK's Wayland pointer crossing) is now: a first one shifts no later stamp, and a later one is never before the last stamp")
    func zeroStampIsNow() {
        let now = Instant(seconds: 69_443)            // the machine's uptime
        var stamps = MillisecondStamps()
        #expect(stamps.instant(0, now: now) == now, "a first 0 is now")
        #expect(stamps.instant(69_443_380, now: now + .milliseconds(400)) == Instant(nanoseconds: 69_443_380 * 1_000_000),
                "the next real stamp (on CLOCK_MONOTONIC) is not shifted by the uptime")
        #expect(stamps.instant(0, now: now + .milliseconds(500)) == now + .milliseconds(500), "a later 0 is now")
        #expect(stamps.instant(0, now: now) == Instant(nanoseconds: 69_443_380 * 1_000_000),
                "a 0 read when now seems earlier than the last stamp is the last stamp's time")
    }

    @Test("listen --wayland with no compositor: exit status 2 and a message naming the display, never a crash")
    func noCompositor() throws {
        let run = try runProcess(Compositor.tool, ["listen", "--wayland", "--duration", "1"],
                                 environment: ["WAYLAND_DISPLAY": "gesturekit-no-such-display", "XDG_RUNTIME_DIR": NSTemporaryDirectory()],
                                 output: .discard)
        let message = run.errors
        #expect(run.status == 2, "exit status 2: \(message)")
        #expect(message.contains("cannot connect to the Wayland compositor gesturekit-no-such-display"), "\(message)")
    }

    /// A frame's axis events as compositors send them (WAYLAND_DEBUG dumps measured here and
    /// in ../notes' SECOND-COMPOSITOR), and the scroll it makes.
    static func scroll(_ build: (inout PointerAxisFrame) -> Void) -> PointerEvent? {
        var frame = PointerAxisFrame()
        build(&frame)
        return frame.finish(at: Point(x: 10, y: 20), device: InputDeviceID(2))
    }

    @Test("a wheel's forward detent scrolls 15 pt whatever the compositor's own axis value: sway 1.7 (discrete, 15), mutter (value120, 10 a detent), KWin and weston nested (the axis value alone)")
    func wheelDetents() {
        let t = Instant(seconds: 1)
        let sway = Self.scroll { f in f.source(.wheel); f.value120(.vertical, -1 * 120); f.axis(.vertical, value: -15, at: t) }
        let mutter = Self.scroll { f in f.source(.wheel); f.value120(.vertical, -120); f.axis(.vertical, value: -10, at: t) }
        let nested = Self.scroll { f in f.axis(.vertical, value: -15, at: t) }
        for (name, event) in [("sway", sway), ("mutter", mutter), ("nested", nested)] {
            #expect(event?.delta == Point(x: 0, y: 15) && event?.scrollType == .discrete,
                    "\(name): a forward detent drags the content 15 pt down: \(String(describing: event))")
        }
        let half = Self.scroll { f in f.source(.wheel); f.value120(.vertical, -60); f.axis(.vertical, value: -7.5, at: t) }
        #expect(half?.delta == Point(x: 0, y: 7.5), "a high-resolution wheel's half detent: 7.5 pt")
    }

    @Test("an axis the compositor says it inverted (natural scrolling, wl_seat 9) is turned back to the hand's direction, for a touchpad and a wheel; one it says is identical is taken as it is")
    func relativeDirection() {
        let t = Instant(seconds: 1)
        // Fingers moving down 6.25: without natural scrolling the value is +6.25; with it, -6.25
        // and the compositor says inverted.
        let plain = Self.scroll { f in f.source(.finger); f.relativeDirection(.vertical, inverted: false); f.axis(.vertical, value: 6.25, at: t) }
        let natural = Self.scroll { f in f.source(.finger); f.relativeDirection(.vertical, inverted: true); f.axis(.vertical, value: -6.25, at: t) }
        #expect(plain?.delta == Point(x: 0, y: 6.25) && natural?.delta == plain?.delta,
                "the content follows the fingers either way: \(String(describing: plain)) and \(String(describing: natural))")
        let wheel = Self.scroll { f in f.source(.wheel); f.relativeDirection(.vertical, inverted: true); f.value120(.vertical, 120); f.axis(.vertical, value: 15, at: t) }
        #expect(wheel?.delta == Point(x: 0, y: 15), "a wheel turned forward under natural scrolling still drags the content down: \(String(describing: wheel))")
    }

    @Test("a touchpad scroll's axis_stop ends its scroll; an empty frame makes no scroll")
    func stop() {
        let t = Instant(seconds: 2)
        let stop = Self.scroll { f in f.source(.finger); f.stop(.vertical, at: t) }
        #expect(stop?.scrollStop == true && stop?.delta == .zero && stop?.scrollType == .continuous)
        #expect(Self.scroll { _ in } == nil)
    }
}
