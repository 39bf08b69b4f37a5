import Foundation
import GestureKit
import GestureLayout
import GestureTraces
import Testing
import GestureTestSupport

/// A collection view driven by recorded traces, decoded by GestureTraces onto a 1000 × 1000
/// screen, on virtual time.
@Suite("CollectionView driven by recordings")
struct RecordedGestureTests {
    /// Feeds a recording to the engine and runs the end-of-trace rule.
    static func replay(_ fixture: String, into engine: GestureEngine, after each: () -> Void = {}) throws {
        let reader = try TraceReader(path: Fixtures.path(fixture), screen: Size(width: 1000, height: 1000))
        try reader.run { item in
            switch item {
            case let .touchFrame(frame): engine.send(frame)
            case let .touchpadGesture(g): engine.send(g)
            default: break
            }
            each()
        }
        engine.finish()
    }

    static func flow() -> FlowLayout {
        let layout = FlowLayout(itemCounts: [30, 30], boundsSize: Size(width: 1000, height: 1000))
        layout.itemSize = Size(width: 80, height: 120)
        layout.minimumLineSpacing = 20
        layout.minimumInteritemSpacing = 10
        layout.sectionInset = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        layout.headerReferenceSize = Size(width: 300, height: 50)
        layout.footerReferenceSize = Size(width: 300, height: 50)
        return layout
    }

    @Test("a recorded pinch resizes the items: itemSizeAtBegan × scale after every change, and the visible cells follow",
          arguments: ["ts-surface-pro3-pinch-out-3f.debug-events.txt", "ts-surface-pro3-pinch-in-3f.debug-events.txt"])
    func recordedPinch(_ fixture: String) throws {
        let cv = CollectionView(id: "collection", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), layout: Self.flow())
        let model = Model([30, 30])
        model.attach(cv)
        let engine = GestureEngine()
        engine.addRoot(cv)
        var changes: [(scale: Double, itemSize: Size, shownMatches: Bool)] = []
        var pinch: PinchGestureRecognizer!
        pinch = cv.installPinchToResize { itemSize, _ in
            changes.append((pinch.scale, itemSize, cv.shown == cv.expected))
        }
        try Self.replay(fixture, into: engine)
        #expect(changes.count > 10, "the pinch changed the layout many times")
        for c in changes {
            #expect(abs(c.itemSize.width - 80 * c.scale) < 1e-9 && abs(c.itemSize.height - 120 * c.scale) < 1e-9,
                    "itemSize \(c.itemSize) = 80×120 × scale \(c.scale)")
            #expect(c.shownMatches, "the cells on screen are the layout's visible cells after each change")
        }
        let final = try #require(changes.last)
        #expect(fixture.contains("out") ? final.scale > 1.4 : final.scale < 0.5)
        #expect(cv.shown == cv.expected, "and after the pinch ends")
    }

    @Test("a recorded long press and drag reorders: the item picked up lands where the layout says, and the data source is told once")
    func recordedReorder() throws {
        let cv = CollectionView(id: "collection", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), layout: Self.flow())
        let model = Model([30, 30])
        model.attach(cv)
        let engine = GestureEngine()
        engine.addRoot(cv)
        cv.installInteractiveMovementGesture()
        try Self.replay("synthetic-ts-wacom-long-press-drag-1f.evemu", into: engine)
        // Picked up at (251, 384): section 0's third line, third column → [0, 22].
        // Released at (555, 421): third line, sixth column → [0, 25].
        #expect(model.moves.map { "\($0.0) → \($0.1)" } == ["[0, 22] → [0, 25]"])
        #expect(Array(model.sections[0][20...26]) == [20, 21, 23, 24, 25, 22, 26], "item 22 now sits at index 25")
        #expect(cv.shown == cv.expected)
    }

    @Test("a recorded tap selects the cell under it; with a double tap that delays touches began, it is selected late, when the double tap fails; with content touches delayed, the quick tap reaches the cell at its touch-up")
    func recordedTapSelection() throws {
        for (delays, delaysContent) in [(false, false), (true, false), (false, true)] {
            let cv = CollectionView(id: "collection", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), layout: Self.flow())
            cv.delaysContentTouches = delaysContent
            let model = Model([30, 30])
            model.attach(cv)
            let engine = GestureEngine()
            model.clock = { engine.now }
            engine.addRoot(cv)
            if delays {
                let double = TapGestureRecognizer(taps: 2, name: "double")
                double.delaysTouchesBegan = true
                cv.addGestureRecognizer(double)
            }
            try Self.replay("ts-wacom-isdv4-e6-tap-1f.evemu", into: engine)
            // The tap at (457, 452): third line, fifth column → [0, 24]; touch-up at 0.024 s.
            if delays {
                #expect(model.events == ["0.324 highlight [0, 24]", "0.324 unhighlight [0, 24]", "0.324 select [0, 24]"],
                        "held until the double tap fails 0.3 s after the touch-up")
            } else if delaysContent {
                #expect(model.events == ["0.024 highlight [0, 24]", "0.024 unhighlight [0, 24]", "0.024 select [0, 24]"],
                        "the touch lifted before the 150 ms delay: the cell gets it all at the touch-up")
            } else {
                #expect(model.events == ["0.000 highlight [0, 24]", "0.024 unhighlight [0, 24]", "0.024 select [0, 24]"])
            }
        }
    }
}
