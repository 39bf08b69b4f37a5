import Testing
import GestureKit
import GestureTestSupport

/// Rule 7: a failure requirement the delegate supplies (`shouldRequireFailureOf` on the
/// waiter's delegate, `shouldBeRequiredToFailBy` on the required one's) behaves exactly as
/// `require(toFail:)` does. Each scenario runs three times, with the requirement made each
/// way, and the three logs must be the same, line for line.
@Suite("Delegate-supplied failure requirements behave as require(toFail:)")
struct DelegateRequirementTests {
    enum How: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case requireToFail, shouldRequireFailureOf, shouldBeRequiredToFailBy
        var testDescription: String { rawValue }
    }

    /// Makes `waiter` wait for `required` to fail, the way `how` says. The delegate is kept
    /// alive by the returned value.
    static func make(_ waiter: GestureRecognizer, require required: GestureRecognizer, _ how: How) -> Delegate? {
        let d = Delegate()
        switch how {
        case .requireToFail:
            waiter.require(toFail: required)
            return nil
        case .shouldRequireFailureOf:
            d.requireFailureOf = [ObjectIdentifier(required)]
            waiter.delegate = d
        case .shouldBeRequiredToFailBy:
            d.requiredToFailBy = [ObjectIdentifier(waiter)]
            required.delegate = d
        }
        return d
    }

    /// Two views side by side: "left" and "right" (no touch is shared between them).
    static func sideBySide(_ h: Harness) -> (left: View, right: View) {
        let left = View(id: "left", frame: Rect(x: 0, y: 0, width: 500, height: 1000))
        let right = View(id: "right", frame: Rect(x: 500, y: 0, width: 500, height: 1000))
        h.root.addSubview(left)
        h.root.addSubview(right)
        return (left, right)
    }

    /// The transitions of the recognizers, with their reasons.
    static func log(_ h: Harness) -> [String] {
        h.transitions.map { "\(ms($0.time)) \($0.recognizer.name): \($0.from.rawValue)→\($0.to.rawValue) (\($0.reason))" }
    }

    /// A scenario's log with the requirement made each way.
    static func logs(_ scenario: (Harness, How) -> Void) -> [How: [String]] {
        var result: [How: [String]] = [:]
        for how in How.allCases {
            let h = Harness()
            scenario(h, how)
            result[how] = log(h)
        }
        return result
    }

    @Test("a single tap waits for a double tap on the same view", arguments: How.allCases)
    func sameView(_ how: How) {
        let h = Harness()
        let single = h.add(TapGestureRecognizer(name: "single"))
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let d = Self.make(single, require: double, how)
        h.tap(at: 0)
        #expect(single.state == .possible && h.lines("single").isEmpty, "the single tap waits while the double tap may still come")
        h.tap(at: 1)
        h.finish()
        #expect(h.lines("single") == ["0.350 single: possible→ended", "1.350 single: possible→ended"],
                "\(how): each single tap fires when the double tap's interval runs out, sequence after sequence")
        withExtendedLifetime(d) {}
    }

    @Test("a tap on one view waits for a long press held on another view, and fails when it begins", arguments: How.allCases)
    func otherViewWaits(_ how: How) {
        let h = Harness()
        let (left, right) = Self.sideBySide(h)
        let tap = h.add(TapGestureRecognizer(name: "tap"), to: left)
        let press = h.add(LongPressGestureRecognizer(name: "press"), to: right)
        let d = Self.make(tap, require: press, how)
        h.down(0, 800, 500, at: 0)          // held on the right: the press is under way
        h.tap(1, 200, 500, at: 0.1)         // a tap on the left meanwhile
        #expect(h.lines("tap").isEmpty, "\(how): the tap waits for the press, which is still possible")
        h.advance(to: 0.6)
        #expect(h.lines("press") == ["0.500 press: possible→began"])
        #expect(h.lines("tap") == ["0.500 tap: possible→failed"], "\(how): the press began, so the tap fails")
        #expect(h.reasons["tap"] == ["press recognized first"])
        h.up(0, 800, 500, at: 0.7)
        withExtendedLifetime(d) {}
    }

    @Test("a pan on one view fails when a tap it requires to fail recognizes, though the tap has reset before the pan moves", arguments: How.allCases)
    func acrossTheRequiredOnesReset(_ how: How) {
        let h = Harness()
        let (left, right) = Self.sideBySide(h)
        let pan = h.add(PanGestureRecognizer(name: "pan"), to: left)
        let tap = h.add(TapGestureRecognizer(name: "tap"), to: right)
        let d = Self.make(pan, require: tap, how)
        h.down(0, 200, 500, at: 0)          // on the left: the pan tracks it
        h.tap(1, 800, 500, at: 0.1)         // a tap on the right recognizes, then resets
        #expect(h.lines("tap") == ["0.150 tap: possible→ended"])
        #expect(h.lines("pan") == ["0.150 pan: possible→failed"], "\(how): the tap recognized, so the pan fails at once")
        h.move(0, 260, 500, at: 0.3)
        #expect(pan.state == .failed, "\(how): moving the finger later does not begin it: it waits for its finger to lift")
        h.up(0, 260, 500, at: 0.4)
        #expect(pan.state == .possible)
        withExtendedLifetime(d) {}
    }

    @Test("a pan simultaneous with a long press it requires to fail fails when the press begins", arguments: How.allCases)
    func simultaneousButRequired(_ how: How) {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        pan.recognizeSimultaneously(with: press)
        let d = Self.make(pan, require: press, how)
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.6)
        #expect(h.lines("press") == ["0.500 press: possible→began"])
        #expect(h.lines("pan") == ["0.500 pan: possible→failed"], "\(how): the pan fails when the press begins, not later when it moves")
        h.move(0, 560, 500, at: 0.7)
        h.up(0, 560, 500, at: 0.8)
        #expect(h.lines("pan") == ["0.500 pan: possible→failed"])
        withExtendedLifetime(d) {}
    }

    @Test("every scenario gives the same log, line for line, whichever way the requirement is made")
    func sameLogs() {
        let scenarios: [(String, (Harness, How) -> Void)] = [
            ("other view", { h, how in
                let (left, right) = Self.sideBySide(h)
                let tap = h.add(TapGestureRecognizer(name: "tap"), to: left)
                let press = h.add(LongPressGestureRecognizer(name: "press"), to: right)
                let d = Self.make(tap, require: press, how)
                h.down(0, 800, 500, at: 0)
                h.tap(1, 200, 500, at: 0.1)
                h.up(0, 800, 500, at: 0.3)      // the press fails: the tap fires then
                h.tap(1, 200, 500, at: 1)       // and alone, at once
                h.finish()
                withExtendedLifetime(d) {}
            }),
            ("double tap chain", { h, how in
                let single = h.add(TapGestureRecognizer(name: "single"))
                let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
                let triple = h.add(TapGestureRecognizer(taps: 3, name: "triple"))
                let d1 = Self.make(single, require: double, how)
                let d2 = Self.make(double, require: triple, how)
                for t in [0.0, 0.2, 1.0, 1.2, 1.4, 3.0] { h.tap(at: t) }
                h.finish()
                withExtendedLifetime((d1, d2)) {}
            }),
        ]
        for (name, scenario) in scenarios {
            let logs = Self.logs(scenario)
            let reference = logs[.requireToFail] ?? []
            #expect(!reference.isEmpty)
            for how in How.allCases where how != .requireToFail {
                #expect(logs[how] == reference, "\(name), \(how): \(logs[how] ?? []) vs require(toFail:) \(reference)")
            }
        }
    }
}
