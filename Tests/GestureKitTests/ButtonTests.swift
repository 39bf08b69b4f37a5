import Testing
import GestureKit
import GestureTestSupport

/// REPLAY.md, "Buttons": every pressed button is the pointer's touch, with its `buttonMask`;
/// tap and long press see the buttons of their `buttonMaskRequired`, the others the primary's.
@Suite("Pointer buttons")
struct ButtonTests {
    static let right = 0x111, middle = 0x112, side = 0x113

    @Test("a right click is a touch with the secondary button: a tap that requires it recognizes, the default tap and a pan do not see it")
    func rightClick() {
        let h = Harness()
        let menu = h.add(TapGestureRecognizer(name: "menu"))
        menu.buttonMaskRequired = .secondary
        h.add(TapGestureRecognizer(name: "tap"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var delivered: [ButtonMask] = []
        h.root.onTouches = { _, phase, touches in if phase == .began { delivered += touches.map(\.buttonMask) } }
        h.pointer(500, 500, at: 0)
        h.engine.send(.button(true, at: Point(x: 500, y: 500), time: Instant(seconds: 0.01), device: InputDeviceID(1), button: Self.right))
        h.engine.send(.button(false, at: Point(x: 500, y: 500), time: Instant(seconds: 0.08), device: InputDeviceID(1), button: Self.right))
        h.advance(to: 1)
        #expect(h.lines("menu") == ["0.080 menu: possible→ended"], "the right-click tap recognizes: \(h.lines("menu"))")
        #expect(h.lines("tap").isEmpty && pan.state == .possible, "the primary-button tap and the pan never see it: \(h.lines("tap"))")
        #expect(delivered == [.secondary], "the view receives the touch with its button: \(delivered)")
    }

    @Test("a second button pressed during a click joins the same touch, which ends when the last is released; a side button is no touch")
    func buttonsJoin() {
        let h = Harness()
        var masks: [ButtonMask] = []
        var phases: [TouchPhase] = []
        h.root.onTouches = { _, phase, touches in phases.append(phase); masks += touches.map(\.buttonMask) }
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        press.buttonMaskRequired = [.primary, .tertiary]
        press.cancelsTouchesInView = false
        h.engine.send(.button(true, at: Point(x: 400, y: 400), time: Instant(seconds: 0), device: InputDeviceID(1), button: Self.side))
        #expect(phases.isEmpty, "a side button is no touch")
        h.button(true, 400, 400, at: 0.01)
        h.engine.send(.button(true, at: Point(x: 400, y: 400), time: Instant(seconds: 0.1), device: InputDeviceID(1), button: Self.middle))
        h.pointer(402, 400, at: 0.2)
        h.button(false, 402, 400, at: 0.7)
        #expect(phases == [.began, .moved], "still one touch while the middle button is down: \(phases)")
        h.engine.send(.button(false, at: Point(x: 402, y: 400), time: Instant(seconds: 0.8), device: InputDeviceID(1), button: Self.middle))
        #expect(phases == [.began, .moved, .ended], "it ends at the last release: \(phases)")
        #expect(masks.first == .primary && masks.dropFirst().first == [.primary, .tertiary], "the mask grows: \(masks)")
        #expect(h.lines("press").first == "0.510 press: possible→began", "the long press took the primary click: \(h.lines("press"))")
    }

    @Test("a long press that requires the secondary button ignores a primary press, and a tap left at its default ignores a middle click")
    func requiredButtonsOnly() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        press.buttonMaskRequired = .secondary
        h.add(TapGestureRecognizer(name: "tap"))
        h.button(true, 500, 500, at: 0)
        h.advance(to: 1)
        h.button(false, 500, 500, at: 1)
        #expect(h.lines("press").isEmpty, "a primary press is not the secondary button: \(h.lines("press"))")
        h.clear()
        h.engine.send(.button(true, at: Point(x: 500, y: 500), time: Instant(seconds: 2), device: InputDeviceID(1), button: Self.middle))
        h.engine.send(.button(false, at: Point(x: 500, y: 500), time: Instant(seconds: 2.05), device: InputDeviceID(1), button: Self.middle))
        h.advance(to: 3)
        #expect(h.lines("tap").isEmpty, "a middle click is no primary tap: \(h.lines("tap"))")
    }
}

@Suite("Devices coming back")
struct DeviceReplugTests {
    @Test("a mouse unplugged and plugged back under the same id works again: its click taps, where before it stayed dead")
    func replugged() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        let mouse = InputDeviceInfo(id: InputDeviceID(1), name: "mouse", systemName: "event3", kind: .pointer,
                                    capabilities: [], sizeMillimetres: nil)
        h.engine.send(.deviceAdded(mouse))
        h.engine.send(.deviceRemoved(InputDeviceID(1), time: Instant(seconds: 0.1)))
        h.button(true, 500, 500, at: 0.2)
        #expect(h.ignored.last?.contains("which was removed") == true, "the unplugged mouse's press is ignored: \(h.ignored)")
        h.engine.send(.deviceAdded(mouse))
        h.button(true, 500, 500, at: 1)
        h.button(false, 500, 500, at: 1.05)
        h.advance(to: 2)
        #expect(h.lines("tap") == ["1.050 tap: possible→ended"], "the mouse plugged back in taps: \(h.lines("tap"))")
    }
}
