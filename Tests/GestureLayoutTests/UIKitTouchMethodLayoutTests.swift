import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// A cell written as UIKit's are: UIKit's touch methods, calling super (which hands the
/// touches to the collection view: highlight and selection).
final class UIKitTouchCell: CollectionViewCell {
    var calls: [String] = []
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        calls.append("began \(touches.count)")
        super.touchesBegan(touches, with: event)
    }
    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        calls.append("ended \(touches.count)")
        super.touchesEnded(touches, with: event)
    }
}

/// A cell written before UIKit's signature: it overrides the deprecated `[Touch]` methods.
final class LegacyTouchCell: CollectionViewCell {
    var calls: [String] = []
    override func touchesBegan(_ touches: [Touch]) { calls.append("began \(touches.count)") }
    override func touchesEnded(_ touches: [Touch]) { calls.append("ended \(touches.count)") }
}

/// Six cells of one kind; records what is selected.
final class OneKindSource: CollectionViewDataSource, CollectionViewDelegate {
    var selected: [LayoutIndexPath] = []
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 6 }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {}
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath) {
        selected.append(indexPath)
    }
}

@Suite("UIKit's touch methods on collection view cells; scrolling durations as Duration")
struct UIKitTouchMethodLayoutTests {
    /// A 3-column grid of 100-point cells whose cells `make` makes, and a tap on item 1.
    static func tapItemOne<Cell: CollectionViewCell>(_ make: @escaping () -> Cell) -> (OneKindSource, Cell?) {
        let layout = FlowLayout(dataSource: nil, boundsSize: .zero)
        layout.itemSize = Size(width: 100, height: 100)
        layout.minimumLineSpacing = 10
        layout.minimumInteritemSpacing = 10
        let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 800), layout: layout)
        let source = OneKindSource()
        cv.register(make, forCellWithReuseIdentifier: "cell")
        cv.dataSource = source
        cv.delegate = source
        let script = Harness(root: cv)
        script.tap(0, 200, 50, at: 0)
        script.finish()
        return (source, cv.cellForItem(at: LayoutIndexPath(item: 1, section: 0)) as? Cell)
    }

    @Test("a cell overriding touchesBegan(_:with:) and calling super is still highlighted and selected")
    func uikitCellSelects() {
        let (source, cell) = Self.tapItemOne { UIKitTouchCell() }
        #expect(cell?.calls == ["began 1", "ended 1"])
        #expect(source.selected == [LayoutIndexPath(item: 1, section: 0)])
    }

    @Test("a cell that still overrides the deprecated [Touch] methods is called, and its item still selected")
    func legacyCellStillCalled() {
        let (source, cell) = Self.tapItemOne { LegacyTouchCell() }
        #expect(cell?.calls == ["began 1", "ended 1"])
        #expect(source.selected == [LayoutIndexPath(item: 1, section: 0)])
    }

    @Test("ease(to:duration:) and advance(by:) take Durations, and move as the millisecond figures did")
    func scrollMotionDurations() {
        var motion = ScrollAxisMotion(offset: 0, minimum: 0, maximum: 1000, bounces: true)
        motion.ease(to: 300, duration: ScrollViewMetrics.scrollingAnimationDuration)
        #expect(ScrollViewMetrics.scrollingAnimationDuration == .milliseconds(300))
        var frames = 0
        while motion.phase != .rest && frames < 1000 {
            motion.advance(by: .milliseconds(100), physics: ScrollPhysics())
            frames += 1
        }
        #expect(motion.offset == 300)
        #expect(frames == 3, "0.3 s in steps of 0.1 s: \(frames)")

        var animation = ScrollAnimation(scrollView: ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        animation.x.ease(to: 0, duration: .milliseconds(100))
        animation.advance(by: .milliseconds(100))
        #expect(animation.isAtRest)
    }

    @Test("the deprecated Double forms still work and mean the same")
    @available(*, deprecated, message: "exercises the deprecated forms")
    func deprecatedScrollForms() {
        var a = ScrollAxisMotion(offset: 0, minimum: 0, maximum: 1000, bounces: true)
        var b = a
        a.ease(to: 300, duration: 0.3)
        b.ease(to: 300, duration: .milliseconds(300))
        #expect(a == b)
        a.advance(milliseconds: 50, physics: ScrollPhysics())
        b.advance(by: .milliseconds(50), physics: ScrollPhysics())
        #expect(a == b)
        var c = ScrollAnimation(scrollView: ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        var d = c
        c.x.ease(to: 0, duration: 0.1)
        d.x.ease(to: 0, duration: .milliseconds(100))
        c.advance(milliseconds: 40)
        d.advance(by: .milliseconds(40))
        #expect(c == d)
    }
}
