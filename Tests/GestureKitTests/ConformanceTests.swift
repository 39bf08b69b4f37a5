import Foundation
import Testing
import GestureKit
import GestureTestSupport

/// The UIKit rules of SEMANTICS.md that a second reading of Apple's documentation added:
/// event sequences, exclusivity, multi-finger gestures, velocity, touch counts.
@Suite("UIKit conformance: event sequences, exclusivity, multi-finger gestures")
struct ConformanceTests {
    // MARK: Final states last until the event sequence ends

    @Test("a tap that failed with one finger still down does not recognize another finger's tap")
    func failedTapStaysFailed() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        h.down(0, 500, 500, at: 0)
        h.move(0, 540, 500, at: 0.05)
        #expect(h.lines("tap") == ["0.050 tap: possible→failed"])
        h.tap(1, 200, 200, at: 0.1)
        #expect(h.lines("tap") == ["0.050 tap: possible→failed"],
                "the second finger's tap is part of the same sequence: the failed tap must not recognize it")
        #expect(tap.state == .failed, "the tap stays failed while the first finger is down")
        h.up(0, 540, 500, at: 0.2)
        #expect(tap.state == .possible, "the tap is reset once every finger has lifted")
        h.tap(2, 300, 300, at: 0.3)
        #expect(h.lines("tap").last == "0.350 tap: possible→ended", "a tap after the sequence ended is recognized")
    }

    @Test("a long press that ended stays ended until every finger has lifted, then presses again")
    func endedStaysEnded() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.5)
        h.down(1, 700, 700, at: 0.6)
        h.up(0, 500, 500, at: 0.7)
        #expect(press.state == .ended, "the long press ended when its finger lifted and stays so while another is down")
        h.advance(to: 1.5)
        #expect(h.lines("press") == ["0.500 press: possible→began", "0.700 press: began→ended"],
                "the finger still down is part of the ended sequence: it does not start a new long press")
        h.up(1, 700, 700, at: 1.6)
        #expect(press.state == .possible)
        h.down(2, 500, 500, at: 2)
        h.advance(to: 2.5)
        #expect(h.lines("press").last == "2.500 press: possible→began")
    }

    @Test("a single tap whose double tap failed mid-sequence fires at once, not after another interval")
    func failedRequirementDoesNotBlock() throws {
        let h = Harness()
        let cell = View(id: "cell", frame: Rect(x: 0, y: 0, width: 300, height: 300))
        h.root.addSubview(cell)
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let single = h.add(TapGestureRecognizer(name: "single"), to: cell)
        single.require(toFail: double)
        h.down(0, 800, 800, at: 0)
        h.move(0, 850, 800, at: 0.05)
        #expect(h.lines("double") == ["0.050 double: possible→failed"])
        h.tap(1, 100, 100, at: 0.1)
        #expect(h.lines("single") == ["0.150 single: possible→ended"],
                "the double tap failed in this sequence and stays failed: the single tap does not wait for it again")
        h.up(0, 850, 800, at: 0.2)
        h.finish()
        #expect(h.lines("single") == ["0.150 single: possible→ended"])
    }

    // MARK: Exclusivity whatever the bookkeeping

    @Test("a tap on a cell fires the cell's single tap or its parent's, never both", arguments: [false, true])
    func exclusiveSingleTaps(delaysTouchesEnded: Bool) throws {
        let h = Harness()
        let cell = View(id: "cell", frame: Rect(x: 0, y: 0, width: 300, height: 300))
        h.root.addSubview(cell)
        let cellDouble = h.add(TapGestureRecognizer(taps: 2, name: "cellDouble"), to: cell)
        let cellSingle = h.add(TapGestureRecognizer(name: "cellSingle"), to: cell)
        let parentDouble = h.add(TapGestureRecognizer(taps: 2, name: "parentDouble"))
        let parentSingle = h.add(TapGestureRecognizer(name: "parentSingle"))
        cellSingle.require(toFail: cellDouble)
        parentSingle.require(toFail: parentDouble)
        for r in [cellDouble, cellSingle, parentDouble, parentSingle] { r.delaysTouchesEnded = delaysTouchesEnded }
        h.tap(0, 100, 100, at: 0)
        h.finish()
        let recognized = (h.lines("cellSingle") + h.lines("parentSingle")).filter { $0.hasSuffix("→ended") }
        #expect(recognized.count == 1, "one touch, two exclusive single taps: exactly one recognizes, got \(recognized)")
        #expect(h.lines("cellSingle").last?.hasSuffix("→ended") == true, "the cell's single tap, released first, wins")
        #expect(h.reasons["parentSingle"]?.last == "cellSingle recognized and they are not simultaneous")
    }

    @Test("a recognizer that began on other touches does not prevent one on a touch it does not track")
    func preventedOnlyByTrackers() {
        let h = Harness()
        let d = Delegate()
        // The tap never sees touches left of x = 200.
        d.receive = { $0.location.x >= 200 }
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        tap.delegate = d
        h.down(1, 400, 500, at: 0)
        // Disabled and enabled again while the first finger is down: the pan no longer tracks it.
        pan.isEnabled = false
        pan.isEnabled = true
        h.down(2, 100, 500, at: 0.03)
        h.move(2, 100, 560, at: 0.05)
        #expect(h.lines("pan").last == "0.050 pan: possible→began")
        h.up(1, 400, 500, at: 0.1)
        #expect(h.lines("tap") == ["0.100 tap: possible→ended"],
                "the pan does not track the first finger, so it does not prevent the tap on it")
    }
}

@Suite("UIKit conformance: delivery, touch counts")
struct ConformanceDeliveryTests {
    @Test("a finger that lands on a button in the middle of a scroll is not delivered to the button")
    func laterTouchesAreCancelledInView() {
        let h = Harness()
        let button = View(id: "button", frame: Rect(x: 600, y: 600, width: 200, height: 200))
        h.root.addSubview(button)
        h.add(PanGestureRecognizer(name: "scroll"))
        h.down(0, 200, 200, at: 0)
        h.move(0, 200, 260, at: 0.05)
        #expect(h.lines("scroll") == ["0.050 scroll: possible→began"])
        h.tap(1, 700, 700, at: 0.1)
        #expect(h.lines("button").isEmpty,
                "the scroll tracks the second finger from its touch-down: the button gets none of it, got \(h.lines("button"))")
        h.up(0, 200, 300, at: 0.3)
        h.tap(2, 700, 700, at: 0.4)
        #expect(h.lines("button") == ["0.400 button: touchesBegan [3]", "0.450 button: touchesEnded [3]"],
                "after the scroll, a tap reaches the button")
    }

    @Test("a recognizer that does not cancel touches in view lets a later finger through")
    func laterTouchesKeptWithoutCancelling() {
        let h = Harness()
        let button = View(id: "button", frame: Rect(x: 600, y: 600, width: 200, height: 200))
        h.root.addSubview(button)
        let scroll = h.add(PanGestureRecognizer(name: "scroll"))
        scroll.cancelsTouchesInView = false
        scroll.delaysTouchesEnded = false
        h.down(0, 200, 200, at: 0)
        h.move(0, 200, 260, at: 0.05)
        h.tap(1, 700, 700, at: 0.1)
        #expect(h.lines("button") == ["0.100 button: touchesBegan [2]", "0.150 button: touchesEnded [2]"])
    }

    @Test("a two-finger tap's action sees two touches, lifted ones included")
    func numberOfTouchesIncludesLifted() {
        let h = Harness()
        var seen: [Int] = []
        h.add(TapGestureRecognizer(touches: 2, name: "tap2") { seen.append($0.numberOfTouches) })
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        h.up(0, 400, 500, at: 0.05)
        h.up(1, 600, 500, at: 0.08)
        #expect(seen == [2], "the action runs once, with both touches counted")
    }
}
