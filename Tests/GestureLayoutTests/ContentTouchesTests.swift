import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// A collection view's content touches (UIKit's `delaysContentTouches`,
/// `canCancelContentTouches`) and touches on moving content.
@Suite("CollectionView: content touches while scrolling")
struct ContentTouchesTests {
    /// Down on item 7, a 5 pt wiggle, then a drag that begins the scroll at 0.1 s.
    static func drag(_ script: Harness, from t: Double = 0) {
        script.down(0, 200, 300, at: t)
        script.move(0, 200, 295, at: t + 0.05)
        script.move(0, 200, 280, at: t + 0.1)
        script.move(0, 200, 250, at: t + 0.15)
        script.up(0, 200, 250, at: t + 0.3)
    }

    @Test("with content touches delayed (the default), a drag never highlights the cell")
    func dragDoesNotHighlight() {
        let (cv, _, model, script) = gridCollection(items: 60, delaysContentTouches: true)
        Self.drag(script)
        script.finish()
        #expect(script.lines("collection.pan").first == "0.100 collection.pan: possible→began")
        #expect(model.events.isEmpty, "no highlight then unhighlight: \(model.events)")
        #expect(script.lines("cell").isEmpty, "the cell never saw the touch")
        #expect(cv.contentOffset.y > 0)
    }

    @Test("without the delay, the cell is highlighted at once and the drag cancels it")
    func withoutDelayTheDragCancels() {
        let (_, _, model, script) = gridCollection(items: 60, delaysContentTouches: false)
        Self.drag(script)
        script.finish()
        #expect(model.events == ["0.000 highlight [0, 7]", "0.100 unhighlight [0, 7]"])
    }

    @Test("a still press highlights after 150 ms; the release selects")
    func stillPressHighlightsLate() {
        let (cv, _, model, script) = gridCollection(items: 60, delaysContentTouches: true)
        let (x, y) = center(4)
        script.down(0, x, y, at: 0)
        script.advance(to: 0.149)
        #expect(cv.indexPathForHighlightedItem == nil, "not before the delay")
        script.advance(to: 0.3)
        #expect(cv.indexPathForHighlightedItem == LayoutIndexPath(item: 4, section: 0))
        script.up(0, x, y, at: 0.4)
        script.finish()
        #expect(model.events == ["0.150 highlight [0, 4]", "0.400 unhighlight [0, 4]", "0.400 select [0, 4]"])
    }

    @Test("a drag that begins after the delay cancels the highlight; without canCancelContentTouches it does not begin")
    func canCancelContentTouches() {
        for canCancel in [true, false] {
            let (cv, _, model, script) = gridCollection(items: 60, delaysContentTouches: true)
            cv.canCancelContentTouches = canCancel
            script.down(0, 200, 300, at: 0)
            script.move(0, 200, 250, at: 0.3)
            script.move(0, 200, 240, at: 0.32)
            script.up(0, 200, 240, at: 0.35)
            script.finish()
            if canCancel {
                #expect(model.events == ["0.150 highlight [0, 7]", "0.300 unhighlight [0, 7]"])
                #expect(cv.contentOffset.y > 0)
            } else {
                #expect(script.lines("collection.pan") == ["0.300 collection.pan: possible→failed"])
                #expect(cv.contentOffset == .zero, "the content had the touch: no scrolling")
                #expect(model.events == ["0.150 highlight [0, 7]", "0.350 unhighlight [0, 7]", "0.350 select [0, 7]"],
                        "the cell kept the touch (it stayed inside it) and the release selects")
            }
        }
    }

    @Test("a tap on moving content stops it without highlighting or selecting; a tap on still content selects",
          arguments: [true, false])
    func tapOnMovingContent(delays: Bool) {
        let (cv, _, model, script) = gridCollection(items: 300, delaysContentTouches: delays)
        script.down(0, 200, 700, at: 0)
        for k in 1...20 { script.move(0, 200, 700 - 25 * Double(k), at: Double(k) * 0.01) }
        script.up(0, 200, 175, at: 0.21)
        script.advance(to: 0.5)
        #expect(cv.isDecelerating)
        let offset = cv.contentOffset
        model.events.removeAll()
        let (x, y) = center(4)
        script.tap(1, x, y, at: 0.5)
        #expect(!cv.isDecelerating && cv.contentOffset == offset, "stopped where it was")
        #expect(model.events.isEmpty, "no highlight, no selection: \(model.events)")
        script.advance(to: 3)
        #expect(cv.contentOffset == offset, "and stays stopped")
        script.tap(2, x, y, at: 4)
        script.finish()
        #expect(model.events.contains { $0.hasPrefix("4.050 select") }, "a tap on still content selects: \(model.events)")
    }

    @Test("a tap-and-wiggle on a list that fits stays a tap")
    func wiggleOnShortList() {
        let (cv, _, model, script) = gridCollection(items: 6, delaysContentTouches: true)
        let (x, y) = center(4)
        script.down(0, x, y, at: 0)
        script.move(0, x, y + 15, at: 0.03)
        script.move(0, x, y - 15, at: 0.06)
        script.up(0, x, y, at: 0.09)
        script.finish()
        #expect(script.lines("collection.pan") == ["0.030 collection.pan: possible→failed"])
        #expect(model.events == ["0.090 highlight [0, 4]", "0.090 unhighlight [0, 4]", "0.090 select [0, 4]"])
        #expect(cv.contentOffset == .zero)
    }

    @Test("a long press still picks up and reorders while one-finger scrolling is on")
    func longPressReorders() {
        let (cv, _, model, script) = gridCollection(items: 60, delaysContentTouches: true)
        cv.installInteractiveMovementGesture(name: "press")
        let (x0, y0) = center(0), (x3, y3) = center(3)
        script.down(0, x0, y0, at: 0)
        script.advance(to: 0.5)
        #expect(cv.isMovingItemInteractively)
        script.move(0, (x0 + x3) / 2, (y0 + y3) / 2, at: 0.6)
        script.move(0, x3, y3, at: 0.7)
        script.up(0, x3, y3, at: 0.8)
        script.finish()
        #expect(model.moves.map { "\($0.0)→\($0.1)" } == ["[0, 0]→[0, 3]"])
        #expect(script.lines("collection.pan") == ["0.500 collection.pan: possible→failed"], "the press won over the scroll")
        #expect(cv.contentOffset == .zero)
        #expect(model.events == ["0.150 highlight [0, 0]", "0.500 unhighlight [0, 0]"])
    }
}
