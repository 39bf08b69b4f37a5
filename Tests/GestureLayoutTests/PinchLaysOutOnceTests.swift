import Testing
import GestureKit
import GestureLayout
import GestureTestSupport

/// A flow layout that counts how often it is prepared: once per layout of the collection view
/// after a change (a prepared layout answers from its caches until it is invalidated).
final class CountingFlowLayout: FlowLayout {
    private(set) var prepared = 0
    override func prepare() {
        super.prepare()
        prepared += 1
    }
}

/// CollectionViewLayout's rule: a layout change is laid out once, at the end of the step,
/// however many changes the step made; `layoutIfNeeded()` lays out at once instead.
@Suite("Pinch-to-resize lays the collection view out once a change")
struct PinchLaysOutOnceTests {
    /// A 400 × 800 collection view of 60 items, 100 × 100, with pinch-to-resize, and an action
    /// of the app's on the pinch that clamps the item size to 150 pt (as PhotoWall keeps its
    /// items on screen): a second change to the layout in the same step. Returns the layout's
    /// preparations counted at the end of each frame, from the pinch's first frame on.
    static func pinch(listening: Bool) -> (prepared: [Int], reports: Int, layout: CountingFlowLayout) {
        let layout = CountingFlowLayout(dataSource: nil, boundsSize: .zero)
        layout.itemSize = Size(width: 100, height: 100)
        layout.minimumLineSpacing = 10
        layout.minimumInteritemSpacing = 10
        let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 800), layout: layout)
        let model = Model([60])
        model.attach(cv)
        let h = Harness(root: cv)
        var reports = 0
        let resize = listening
            ? cv.installPinchToResize(name: "resize") { _, _ in reports += 1 }
            : cv.installPinchToResize(name: "resize")
        resize.addTarget { _ in
            let side = layout.itemSize.width
            if side > 150 { layout.itemSize = Size(width: 150, height: 150) }
        }
        let before = layout.prepared
        var prepared: [Int] = []
        func fingers(_ t: Double, _ phase: TouchPhase, span: Double) {
            h.frame(t, [(1, phase, 200 - span, 400), (2, phase, 200 + span, 400)])
            prepared.append(layout.prepared - before)
        }
        fingers(0, .began, span: 50)
        fingers(0.1, .moved, span: 60)     // began, scale 1
        fingers(0.2, .moved, span: 80)     // changed, 133 pt
        fingers(0.3, .moved, span: 120)    // changed, 200 pt, clamped to 150
        fingers(0.4, .moved, span: 70)     // changed, 117 pt
        fingers(0.5, .ended, span: 70)
        h.finish()
        return (prepared, reports, layout)
    }

    @Test("without onLayoutChange, each frame that changes the item size lays out once, the app's clamp in the same step included")
    func onceAtTheEndOfTheStep() {
        let (prepared, reports, layout) = Self.pinch(listening: false)
        #expect(reports == 0)
        // At 0.1 the pinch begins at scale 1: the size is set to its own value, no change.
        // 0.2, 0.3 (set to 200 pt, then clamped to 150 by the app's action) and 0.4: one
        // layout each.
        #expect(prepared == [0, 0, 1, 2, 3, 3],
                "one preparation of the layout per frame that changed it, counted after each frame; saw \(prepared)")
        #expect(layout.itemSize.width == 100 * 70.0 / 60, "the last change's size")
    }

    @Test("with onLayoutChange, the change is laid out at once for it to see, and an app's second change in the step once more at its end")
    func atOnceForTheListener() {
        let (prepared, reports, _) = Self.pinch(listening: true)
        #expect(reports == 4, "onLayoutChange is told of the began and every changed frame")
        // 0.1: no change (scale 1). 0.3: once for onLayoutChange, once at the end of the step
        // after the app's clamp.
        #expect(prepared == [0, 0, 1, 3, 4, 4],
                "one preparation per change, two in the frame the app clamped; saw \(prepared)")
    }
}
