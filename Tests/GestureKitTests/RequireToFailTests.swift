import Testing
import GestureKit
import GestureTestSupport

@Suite("require(toFail:)")
struct RequireToFailTests {
    func singleAndDouble() throws -> (Harness, TapGestureRecognizer, TapGestureRecognizer) {
        let h = Harness()
        let single = h.add(TapGestureRecognizer(name: "single"))
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        single.require(toFail: double)
        return (h, single, double)
    }

    @Test("a single tap waits for the double tap to fail, then fires at the end of its interval")
    func singleWaits() throws {
        let (h, _, _) = try singleAndDouble()
        h.tap(at: 0, duration: 0.05)
        #expect(h.lines("single").isEmpty, "the single tap fires nothing while the double tap is possible")
        h.finish()
        #expect(h.lines("single") == ["0.350 single: possible→ended"], "fires when the double tap fails, 0.3 s after the touch-up")
        #expect(h.lines("double") == ["0.350 double: possible→failed"])
        #expect(h.log.firstIndex(of: "0.350 double: possible→failed")! < h.log.firstIndex(of: "0.350 single: possible→ended")!,
                "the double tap's failure comes first")
    }

    @Test("a double tap makes the waiting single tap fail")
    func doubleWins() throws {
        let (h, _, _) = try singleAndDouble()
        h.tap(at: 0, duration: 0.05)
        h.tap(at: 0.2, duration: 0.05)
        h.finish()
        #expect(h.lines("double") == ["0.250 double: possible→ended"])
        #expect(h.lines("single") == ["0.250 single: possible→failed"])
        #expect(h.reasons["single"] == ["double recognized first"])
    }

    @Test("the single tap fires early when the double tap fails early")
    func earlyRelease() throws {
        let (h, _, _) = try singleAndDouble()
        h.tap(at: 0, duration: 0.05)
        // The second touch lands too far away: the double tap fails at once.
        h.down(1, 600, 500, at: 0.1)
        #expect(h.lines("double") == ["0.100 double: possible→failed"])
        #expect(h.lines("single") == ["0.100 single: possible→ended"], "released the moment the double tap fails")
    }

    @Test("three-deep chain: single ← double ← triple")
    func threeDeep() throws {
        let h = Harness()
        let single = h.add(TapGestureRecognizer(name: "single"))
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let triple = h.add(TapGestureRecognizer(taps: 3, name: "triple"))
        single.require(toFail: double)
        double.require(toFail: triple)

        h.tap(at: 0)
        h.tap(at: 0.2)
        h.finish()
        #expect(h.lines("triple") == ["0.550 triple: possible→failed"])
        #expect(h.lines("double") == ["0.550 double: possible→ended"], "double fires when triple fails")
        #expect(h.lines("single") == ["0.550 single: possible→failed"], "single fails because double recognized")

        let h3 = Harness()
        let s3 = h3.add(TapGestureRecognizer(name: "single"))
        let d3 = h3.add(TapGestureRecognizer(taps: 2, name: "double"))
        let t3 = h3.add(TapGestureRecognizer(taps: 3, name: "triple"))
        s3.require(toFail: d3)
        d3.require(toFail: t3)
        h3.tap(at: 0)
        h3.finish()
        #expect(h3.lines("single") == ["0.350 single: possible→ended"], "one tap: everything above fails, the single fires")
    }

    @Test("a requirement that closes a cycle is refused and reported in the trace as a programming error naming it, without throwing")
    func cycle() throws {
        let h = Harness()
        var errors: [String] { h.ignored.filter { $0.hasPrefix("programming error: ") }.map { String($0.dropFirst(19)) } }
        let a = h.add(TapGestureRecognizer(name: "a")), b = h.add(TapGestureRecognizer(name: "b")), c = h.add(TapGestureRecognizer(name: "c"))
        a.require(toFail: b)
        b.require(toFail: c)
        c.require(toFail: a)
        a.require(toFail: a)
        #expect(errors == ["c.require(toFail: a) refused: requireToFail cycle: c → a → b → c",
                           "a.require(toFail: a) refused: requireToFail cycle: a → a"],
                "expected both cycles reported, got \(errors)")
        #expect(c.failureRequirements.isEmpty && a.failureRequirements.map(\.name) == ["b"],
                "the refused requirements are not added")
        // The recognizers still work: a tap recognizes c, which nothing waits on.
        h.tap(at: 0)
        h.advance(to: 1)
        #expect(h.lines("c") == ["0.050 c: possible→ended"], "got \(h.lines("c"))")
    }

    @Test("a dependency that takes no part in the gesture does not hold anything back")
    func uninvolvedDependency() throws {
        let h = Harness()
        let other = View(id: "other", frame: Rect(x: 800, y: 800, width: 100, height: 100))
        h.root.addSubview(other)
        let single = h.add(TapGestureRecognizer(name: "single"))
        let elsewhere = h.add(TapGestureRecognizer(taps: 2, name: "elsewhere"), to: other)
        single.require(toFail: elsewhere)
        h.tap(0, 100, 100, at: 0)
        #expect(h.lines("single") == ["0.050 single: possible→ended"], "the double tap on another view never saw the touch")
    }

    @Test("a continuous recognizer waits too: a pan that requires a swipe to fail begins when the swipe fails")
    func continuousWaits() throws {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        let swipe = h.add(SwipeGestureRecognizer(direction: .right, name: "swipe"))
        pan.require(toFail: swipe)
        h.down(0, 500, 500, at: 0)
        h.move(0, 500, 520, at: 0.05)   // pan wants to begin; the swipe sees "down": fails at once
        #expect(h.lines("swipe") == ["0.050 swipe: possible→failed"])
        #expect(h.lines("pan") == ["0.050 pan: possible→began"])
    }
}
