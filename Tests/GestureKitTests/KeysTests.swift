import Testing
import GestureKit
import GestureTestSupport

/// REPLAY.md, "Keys": the modifier keys held are every recognizer's `modifierFlags` and ride
/// on its transitions; a wheel turned with shift held scrolls sideways.
@Suite("Modifier keys")
struct KeysTests {
    static let keyboard = InputDeviceID(7)

    static func keys(_ h: Harness, _ flags: ModifierFlags, at t: Double, device: InputDeviceID = keyboard) {
        h.engine.send(.modifiers(time: Instant(seconds: t), device: device, flags))
    }

    @Test("a key's press holds its modifier until its release; either shift key holds shift; autorepeat changes nothing; Caps Lock toggles alphaShift at each press")
    func tracker() {
        var k = ModifierKeyTracker()
        var changed = k.key(42, value: 1)
        #expect(changed && k.flags == .shift, "left shift pressed")
        changed = k.key(42, value: 2)
        #expect(!changed, "autorepeat is no change")
        changed = k.key(54, value: 1)
        #expect(!changed && k.flags == .shift, "right shift as well: still shift")
        changed = k.key(42, value: 0)
        #expect(!changed && k.flags == .shift, "left released, right still held")
        changed = k.key(54, value: 0)
        #expect(changed && k.flags == [], "both released")
        changed = k.key(58, value: 1)
        #expect(changed && k.flags == .alphaShift, "Caps Lock on at its press")
        changed = k.key(58, value: 0)
        #expect(!changed && k.flags == .alphaShift, "and stays on when released")
        changed = k.key(58, value: 1)
        #expect(changed && k.flags == [], "off at the next press")
        k.key(29, value: 1)
        k.key(56, value: 1)
        k.key(125, value: 1)
        #expect(k.flags.names == ["control", "alternate", "command"], "ctrl, alt and super, in the contract's order: \(k.flags.names)")
        changed = k.key(30, value: 1)
        #expect(!changed, "a letter is no modifier")
    }

    @Test("a click with Ctrl held: the tap's transition carries control, and the recognizer's modifierFlags reads it in its action")
    func controlClick() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        var inAction: ModifierFlags = []
        tap.addTarget { r in inAction = r.modifierFlags }
        Self.keys(h, .control, at: 0)
        h.click(500, 500, at: 0.1)
        #expect(inAction == .control, "the action reads control: \(inAction)")
        #expect(h.transitions.last?.modifierFlags == .control, "the transition records it")
        Self.keys(h, [], at: 0.3)
        h.click(500, 500, at: 0.4)
        #expect(inAction == [], "released, the next click has none: \(inAction)")
    }

    @Test("two keyboards: the flags are the union of what each holds; a keyboard unplugged holds nothing any more")
    func twoKeyboards() {
        let h = Harness()
        Self.keys(h, .shift, at: 0)
        Self.keys(h, .command, at: 0.1, device: InputDeviceID(8))
        #expect(h.engine.modifierFlags == [.shift, .command])
        h.engine.deviceRemoved(Self.keyboard, at: Instant(seconds: 0.2))
        #expect(h.engine.modifierFlags == .command, "the unplugged keyboard's shift is gone: \(h.engine.modifierFlags)")
    }

    @Test("a wheel turned with shift held scrolls sideways: a forward detent gives a positive translation x, and none in y")
    func shiftWheel() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "wheel"))
        pan.allowedScrollTypes = .discrete
        var translations: [Point] = []
        pan.addTarget { r in translations.append(r.translation(in: nil)) }
        Self.keys(h, .shift, at: 0)
        h.scroll(0, 15, .discrete, at: 0.1)
        h.scroll(0, 15, .discrete, at: 0.15)
        h.advance(to: 1)
        #expect(translations.last == Point(x: 30, y: 0), "two forward detents with shift: (30, 0), got \(String(describing: translations.last))")
        Self.keys(h, [], at: 1.1)
        translations.removeAll()
        h.scroll(0, 15, .discrete, at: 1.2)
        h.advance(to: 2)
        #expect(translations.last == Point(x: 0, y: 15), "without shift the wheel scrolls vertically: \(String(describing: translations.last))")
    }

    @Test("shift does not turn a touchpad's two-finger scroll: it keeps both axes as the fingers moved")
    func shiftTouchpad() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "scroll"))
        pan.allowedScrollTypes = .continuous
        var translation = Point.zero
        pan.addTarget { r in translation = r.translation(in: nil) }
        Self.keys(h, .shift, at: 0)
        h.scroll(0, 10, .continuous, at: 0.1)
        h.scroll(0, 10, .continuous, at: 0.12)
        #expect(translation == Point(x: 0, y: 20), "a touchpad scroll keeps its axes: \(translation)")
    }
}
