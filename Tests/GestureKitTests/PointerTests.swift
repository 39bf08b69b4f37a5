import Testing
import GestureKit
import GestureTestSupport

/// The pointer in the engine: a click is a touch of type indirectPointer, a scroll drives the
/// pans that allow it, hover follows the pointer across views, and input that makes no sense
/// is ignored with its reason.
@Suite("Pointer")
struct PointerTests {
    @Test("a click taps, and its touch is an indirectPointer touch delivered at the pointer")
    func clickTaps() {
        let h = Harness()
        var types: [TouchType] = []
        h.root.onTouches = { _, _, touches in types += touches.map(\.type) }
        h.add(TapGestureRecognizer(name: "tap"))
        h.pointer(400, 300, at: 0)
        h.click(400, 300, at: 0.1)
        #expect(h.lines("tap") == ["0.170 tap: possible→ended"], "a click is a tap, recognized at the release")
        #expect(!types.isEmpty && types.allSatisfy { $0 == .indirectPointer }, "the view sees the click as an indirectPointer touch, got \(types)")
    }

    @Test("a double click double-taps")
    func doubleClick() {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let single = h.add(TapGestureRecognizer(name: "single"))
        single.require(toFail: double)
        h.click(500, 500, at: 0, duration: 0.06)
        h.click(500, 500, at: 0.18, duration: 0.06)
        h.finish()
        #expect(h.lines("double") == ["0.240 double: possible→ended"], "two clicks 120 ms apart are a double tap")
        #expect(h.lines("single") == ["0.240 single: possible→failed"], "the single tap waiting on the double fails")
    }

    @Test("a recognizer limited to direct touches never sees a click, nor a touchpad contact")
    func directOnly() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        tap.allowedTouchTypes = .direct
        h.click(500, 500, at: 0)
        h.finish()
        #expect(h.lines("tap").isEmpty, "a click is not a direct touch: the tap must not hear of it")
        let other = Harness()
        let touchpadTap = other.add(TapGestureRecognizer(name: "tap"))
        touchpadTap.allowedTouchTypes = .direct
        other.engine.send(TouchFrame(time: .zero, device: InputDeviceID(3), deviceKind: .touchpad,
                                     changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 500, y: 500))]))
        other.engine.send(TouchFrame(time: Instant(seconds: 0.05), device: InputDeviceID(3), deviceKind: .touchpad,
                                     changes: [TouchChange(sourceID: 0, phase: .ended, location: Point(x: 500, y: 500))]))
        other.finish()
        #expect(other.lines("tap").isEmpty, "a touchpad contact is indirect: a direct-only tap must not hear of it")
    }

    @Test("a click-drag pans a pan that takes indirectPointer touches")
    func clickDrag() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.button(true, 300, 300, at: 0)
        h.pointer(320, 300, at: 0.05)
        h.pointer(360, 300, at: 0.1)
        h.button(false, 360, 300, at: 0.15)
        #expect(h.lines("pan") == ["0.050 pan: possible→began", "0.100 pan: began→changed", "0.150 pan: changed→ended"],
                "dragging with the button down pans")
    }

    @Test("a wheel pans a pan that allows discrete scrolling: began at the first detent, ended after the pause; a pan that does not is left alone")
    func wheelScroll() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.allowedScrollTypes = .discrete
        let other = View(id: "other", frame: Rect(x: 600, y: 0, width: 400, height: 1000))
        h.root.addSubview(other)
        h.add(PanGestureRecognizer(name: "plain"), to: other)
        var translations: [Double] = []
        pan.addTarget { translations.append($0.translation.y) }
        h.scroll(0, 15, .discrete, at: 0.0)
        h.scroll(0, 15, .discrete, at: 0.06)
        h.scroll(0, 15, .discrete, at: 0.12)
        h.finish()
        #expect(h.lines("pan") == ["0.000 pan: possible→began", "0.060 pan: began→changed", "0.120 pan: changed→changed",
                                   "0.320 pan: changed→ended"],
                "a wheel's scroll begins at its first detent and ends 0.2 s after its last")
        #expect(translations == [15, 30, 45, 45], "the translation adds up the detents, positive for a wheel turned forward")
        #expect(h.lines("plain").isEmpty, "a pan that allows no scrolling must not hear of the wheel")
        // Over the view whose pan allows none, nothing pans.
        let h2 = Harness()
        h2.add(PanGestureRecognizer(name: "plain"))
        h2.scroll(0, 15, .discrete, at: 0)
        h2.finish()
        #expect(h2.lines("plain").isEmpty, "a pan without allowedScrollTypes ignores the wheel")
    }

    @Test("a touchpad scroll pans a pan that allows continuous scrolling and ends at the scroll stop; a discrete-only pan is left alone")
    func continuousScroll() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.allowedScrollTypes = .continuous
        let child = View(id: "child", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        h.root.addSubview(child)
        let wheelOnly = h.add(PanGestureRecognizer(name: "wheelOnly"), to: child)
        wheelOnly.allowedScrollTypes = .discrete
        var translations: [Point] = []
        pan.addTarget { translations.append($0.translation) }
        h.scroll(0, 4, .continuous, at: 0)
        h.scroll(0, 6, .continuous, at: 0.01)
        h.scroll(0, 0, .continuous, at: 0.02, stop: true)
        h.finish()
        #expect(h.lines("pan") == ["0.000 pan: possible→began", "0.010 pan: began→changed", "0.020 pan: changed→ended"],
                "a touchpad scroll begins, changes and ends at its stop")
        #expect(translations.last == Point(x: 0, y: 10), "the translation is the sum of the scroll's deltas: \(translations)")
        #expect(h.lines("wheelOnly").isEmpty, "a pan allowing only the wheel must not hear of a touchpad scroll")
    }

    @Test("a pan says which scroll drives it, and its velocity at a scroll stop is the recent motion: zero once the fingers rested")
    func scrollTypeAndStopVelocity() {
        for rested in [false, true] {
            let h = Harness()
            let pan = h.add(PanGestureRecognizer(name: "pan"))
            pan.allowedScrollTypes = .all
            var types: [ScrollTypes] = []
            var endVelocity: Point?
            pan.addTarget { p in
                types.append(p.scrollType)
                if p.state == .ended, endVelocity == nil { endVelocity = p.velocity }   // the touchpad scroll's
            }
            for k in 0..<10 { h.scroll(0, 10, .continuous, at: Double(k) * 0.01) }
            // 1000 pt/s; the stop comes at once, or after the fingers rested 0.2 s.
            h.scroll(0, 0, .continuous, at: rested ? 0.29 : 0.1, stop: true)
            h.scroll(0, 15, .discrete, at: 1)
            h.finish()
            #expect(types.prefix(11).allSatisfy { $0 == .continuous } && types.last == .discrete,
                    "a touchpad's scroll is continuous, a wheel's discrete: \(types)")
            let v = endVelocity?.y ?? .nan
            if rested {
                #expect(v == 0, "fingers that rested 0.2 s before the stop leave no velocity: \(v)")
            } else {
                #expect(abs(v - 1000) < 50, "the velocity at an immediate stop is the scroll's, 1000 pt/s: \(v)")
            }
            #expect(pan.scrollType.isEmpty, "after the sequence the pan is driven by nothing")
        }
    }

    @Test("hover begins when the pointer enters its view, changes inside, ends when it leaves, and is cancelled when the mouse goes away")
    func hover() {
        let h = Harness()
        let cell = View(id: "cell", frame: Rect(x: 100, y: 100, width: 200, height: 200))
        h.root.addSubview(cell)
        let hover = h.add(HoverGestureRecognizer(name: "hover"), to: cell)
        h.pointer(50, 50, at: 0)
        h.pointer(150, 150, at: 0.1)
        h.pointer(160, 150, at: 0.2)
        h.pointer(400, 150, at: 0.3)
        h.pointer(200, 200, at: 0.4)
        h.engine.deviceRemoved(InputDeviceID(1), at: Instant(seconds: 0.5))
        h.pointer(210, 200, at: 0.6)
        #expect(h.lines("hover") == ["0.100 hover: possible→began", "0.200 hover: began→changed", "0.300 hover: changed→ended",
                                     "0.400 hover: possible→began", "0.500 hover: began→cancelled"],
                "hover follows the pointer into and out of the cell, and stops when the mouse is unplugged")
        #expect(hover.location(in: cell) == Point(x: 100, y: 100), "the hover's location is the pointer's, in the cell")
        #expect(h.reasons["hover"]?[1] == "pointer moved", "a hover changes because the pointer moved, not touches: \(h.reasons["hover"] ?? [])")
        #expect(h.ignored.contains { $0.contains("which was removed") }, "the event of the unplugged mouse is reported as ignored")
    }

    @Test("touches never hover, and a pressed button ends hovering")
    func hoverAndTouches() {
        let h = Harness()
        h.add(HoverGestureRecognizer(name: "hover"))
        h.tap(at: 0)
        #expect(h.lines("hover").isEmpty, "a finger on the screen does not hover")
        h.pointer(500, 500, at: 0.5)
        h.button(true, 500, 500, at: 0.6)
        h.pointer(510, 500, at: 0.7)
        h.button(false, 510, 500, at: 0.8)
        h.finish()
        #expect(h.lines("hover") == ["0.500 hover: possible→began", "0.600 hover: began→ended", "0.800 hover: possible→began",
                                     "0.800 hover: began→cancelled"],
                "pressing ends hovering; releasing over the view hovers again; the end of input cancels it")
    }

    @Test("bad pointer input: a release never pressed, a second press, events of a removed mouse: each ignored with its reason, nothing stuck")
    func badInput() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.button(false, 500, 500, at: 0)
        #expect(h.ignored.last?.contains("never pressed") == true, "a release without a press is ignored: \(h.ignored)")
        h.button(true, 500, 500, at: 0.1)
        h.button(true, 500, 500, at: 0.12, device: 2)
        #expect(h.ignored.last?.contains("while primary of device 1 is down") == true, "a second mouse's press is ignored: \(h.ignored)")
        h.engine.deviceRemoved(InputDeviceID(1), at: Instant(seconds: 0.15))
        h.button(false, 500, 500, at: 0.2)
        #expect(h.ignored.last?.contains("which was removed") == true, "the removed mouse's release is ignored: \(h.ignored)")
        #expect(h.lines("tap") == ["0.150 tap: possible→failed"], "the click of the removed mouse is cancelled, not stuck")
        h.click(500, 500, at: 1, device: 3)
        #expect(h.lines("tap").last == "1.070 tap: possible→ended", "another mouse clicks as usual afterwards")
        h.scroll(0, 0, .discrete, at: 2, device: 3)
        #expect(h.ignored.last?.contains("by nothing") == true, "an empty scroll is ignored")
        h.scroll(0, 0, .continuous, at: 2.1, stop: true, device: 3)
        #expect(h.ignored.last?.contains("no scroll under way") == true, "a scroll stop with no scroll is ignored")
    }

    @Test("a touchpad pinch located at the pointer lands on the view under the pointer")
    func pinchAtPointer() {
        let h = Harness()
        let left = View(id: "left", frame: Rect(x: 0, y: 0, width: 500, height: 1000))
        let right = View(id: "right", frame: Rect(x: 500, y: 0, width: 500, height: 1000))
        h.root.addSubview(left)
        h.root.addSubview(right)
        h.add(PinchGestureRecognizer(name: "leftPinch"), to: left)
        h.add(PinchGestureRecognizer(name: "rightPinch"), to: right)
        h.pointer(800, 400, at: 0)
        let at = h.engine.pointerLocation ?? .zero
        for (i, (phase, scale)) in [(TouchpadGestureEvent.Phase.begin, 1.0), (.update, 1.4), (.end, 1.4)].enumerated() {
            h.engine.send(TouchpadGestureEvent(kind: .pinch, phase: phase, time: Instant(seconds: 0.1 + 0.05 * Double(i)),
                                               device: InputDeviceID(1), fingers: 2, location: at, scale: scale))
        }
        #expect(h.lines("rightPinch").first == "0.100 rightPinch: possible→began", "the pinch lands on the view under the pointer")
        #expect(h.lines("leftPinch").isEmpty, "the other view's pinch hears nothing")
    }
}

/// A pointer that leaves the window (a compositor's `wl_pointer.leave`).
@Suite("The pointer leaving the window")
struct PointerLeaveTests {
    @Test("leaving ends the hover (pointer left the view) and cancels a button still held, so nothing stays pressed")
    func leave() {
        let h = Harness()
        h.add(HoverGestureRecognizer(name: "hover"))
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        h.pointer(300, 300, at: 0)
        h.pointer(310, 300, at: 0.05)
        h.engine.send(.leave(at: Point(x: 310, y: 300), time: Instant(seconds: 0.1), device: InputDeviceID(1)))
        #expect(h.lines("hover").last == "0.100 hover: changed→ended", "the hover ends: \(h.lines("hover"))")
        #expect(h.reasons["hover"]?.last == "pointer left the view")
        h.pointer(300, 300, at: 0.2)
        h.button(true, 300, 300, at: 0.3)
        h.engine.send(.leave(at: Point(x: 300, y: 300), time: Instant(seconds: 0.4), device: InputDeviceID(1)))
        h.advance(to: 2)
        #expect(!h.lines("press").contains { $0.hasSuffix("→began") }, "the held button's touch is cancelled at the leave: no long press at 0.8 s: \(h.lines("press"))")
        h.button(false, 300, 300, at: 2.1)
        #expect(h.ignored.contains { $0.contains("never pressed") }, "the release that follows is one of a button no longer held: \(h.ignored)")
        #expect(press.state == .possible)
    }
}
