import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// A 400×800 collection view as the only root, items 100×100 with 10 pt spacing: three per
/// line at x = 0, 150, 300; lines at y = 0, 110, 220, … Item [0, k] is centred at
/// (50 + 150·(k mod 3), 50 + 110·⌊k / 3⌋).
/// A 3-column grid of 100×100 items in a 400×800 collection view. Content touches are not
/// delayed unless asked (the suites on delivery look at the engine's rules alone; the
/// scroll view's delay has its own tests).
func gridCollection(items: Int = 30, delaysContentTouches: Bool = false) -> (CollectionView, FlowLayout, Model, Harness) {
    let layout = FlowLayout(dataSource: nil, boundsSize: .zero)
    layout.itemSize = Size(width: 100, height: 100)
    layout.minimumLineSpacing = 10
    layout.minimumInteritemSpacing = 10
    let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 800), layout: layout)
    cv.delaysContentTouches = delaysContentTouches
    let model = Model([items])
    model.attach(cv)
    let script = Harness(root: cv)
    model.clock = { [unowned script] in script.now }
    return (cv, layout, model, script)
}

func center(_ item: Int) -> (Double, Double) {
    (50 + 150 * Double(item % 3), 50 + 110 * Double(item / 3))
}

@Suite("CollectionView: reuse")
struct CollectionReuseTests {
    @Test("scrolling a 10,000-row table top to bottom keeps the live cells bounded and reuses them")
    func tableScroll() {
        let layout = TableLayout(style: .plain, dataSource: nil, boundsSize: .zero)
        let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 320, height: 480), layout: layout)
        let model = Model([10_000])
        model.attach(cv)
        #expect(cv.contentSize.height == 440_000)
        // 480 / 44 = 10.9: at most 12 rows share area with the bounds.
        let maxVisible = 12
        var step = 0
        var offset = 0.0
        var mismatches = 0
        while offset <= cv.contentSize.height - 480 {
            cv.contentOffset = Point(x: 0, y: offset)
            #expect(cv.subviews.count <= maxVisible)
            if cv.shown != cv.expected { mismatches += 1 }
            for cell in cv.visibleCells.map({ $0 as! ValueCell }) where cell.value != cell.indexPath!.item {
                mismatches += 1
            }
            step += 1
            offset += 7   // not a divisor of the row height: every phase of a row is visited
        }
        #expect(mismatches == 0)
        #expect(cv.indexPathsForVisibleItems.last == LayoutIndexPath(item: 9_999, section: 0))
        #expect(model.cellsCreated <= maxVisible + 1, "views created: visible plus one in the queue at most")
        #expect(cv.reuseStatistics.cellsCreated == model.cellsCreated)
        #expect(cv.reuseStatistics.cellsReused >= 10_000 - maxVisible - 1)
        #expect(cv.subviews.count + cv.queuedViewCount == model.cellsCreated, "every view is on screen or queued")
    }

    @Test("headers and footers are reused too, by kind")
    func supplementaryScroll() {
        let layout = FlowLayout(dataSource: nil, boundsSize: .zero)
        layout.itemSize = Size(width: 80, height: 120)
        layout.minimumLineSpacing = 20
        layout.minimumInteritemSpacing = 10
        layout.sectionInset = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        layout.headerReferenceSize = Size(width: 300, height: 50)
        layout.footerReferenceSize = Size(width: 300, height: 50)
        let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 375, height: 667), layout: layout)
        let model = Model(Array(repeating: 7, count: 500))
        model.attach(cv)
        var maxShown = 0
        var mismatches = 0
        var offset = 0.0
        while offset <= cv.contentSize.height - 667 {
            cv.contentOffset = Point(x: 0, y: offset)
            maxShown = max(maxShown, cv.subviews.count)
            if cv.shown != cv.expected { mismatches += 1 }
            for header in cv.visibleSupplementaryViews.map({ $0 as! TitleView }) where header.section != header.indexPath!.section {
                mismatches += 1
            }
            offset += 13
        }
        #expect(mismatches == 0)
        #expect(model.cellsCreated + model.supplementaryCreated <= maxShown + 8)
        #expect(cv.reuseStatistics.supplementaryViewsReused > 900)
        // Supplementary views are in front of cells (hit-testing finds them first).
        let firstSupplementary = cv.subviews.firstIndex { ($0 as? CollectionReusableView)?.elementKind != nil }
        let lastCell = cv.subviews.lastIndex { $0 is CollectionViewCell }
        if let firstSupplementary, let lastCell { #expect(lastCell < firstSupplementary) }
    }

    @Test("the visible cells follow the layout when the view is resized")
    func resize() {
        let (cv, layout, model, _) = gridCollection()
        defer { withExtendedLifetime(model) {} }
        cv.frame.size = Size(width: 250, height: 800)
        cv.updateVisibleCells()
        #expect(layout.itemsPerLine == 2)
        #expect(cv.shown == cv.expected)
    }
}

@Suite("CollectionView: highlight and selection from touch delivery")
struct CollectionSelectionTests {
    @Test("a tap on a cell highlights it on touch-down and selects it on touch-up")
    func tap() {
        let (cv, _, model, script) = gridCollection()
        let (x, y) = center(1)
        script.tap(0, x, y, at: 0)
        script.finish()
        #expect(model.events == ["0.000 highlight [0, 1]", "0.050 unhighlight [0, 1]", "0.050 select [0, 1]"])
        #expect(cv.indexPathsForSelectedItems == [LayoutIndexPath(item: 1, section: 0)])
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 1, section: 0))?.isSelected == true)
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 1, section: 0))?.isHighlighted == false)
        // The touch went to the cell, which passed it on.
        #expect(script.lines("cell") == ["0.000 cell: touchesBegan [1]", "0.050 cell: touchesEnded [1]"])
    }

    @Test("the cell is highlighted while the touch is down; a cancelled touch selects nothing")
    func cancelled() {
        let (cv, _, model, script) = gridCollection()
        let (x, y) = center(4)
        script.down(0, x, y, at: 0)
        #expect(cv.indexPathForHighlightedItem == LayoutIndexPath(item: 4, section: 0))
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 4, section: 0))?.isHighlighted == true)
        script.cancel(0, x, y, at: 0.1)
        script.finish()
        #expect(model.events == ["0.000 highlight [0, 4]", "0.100 unhighlight [0, 4]"])
        #expect(cv.indexPathsForSelectedItems.isEmpty)
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 4, section: 0))?.isHighlighted == false)
    }

    @Test("single selection replaces, multiple selection toggles; a tap in a gap does nothing")
    func modes() {
        let (cv, _, model, script) = gridCollection()
        script.tap(0, center(0).0, center(0).1, at: 0)
        script.tap(0, center(2).0, center(2).1, at: 1)
        script.tap(0, 125, 50, at: 2)   // the gap between items 0 and 1
        #expect(cv.indexPathsForSelectedItems == [LayoutIndexPath(item: 2, section: 0)])
        #expect(model.events.filter { !$0.contains("highlight") }
            == ["0.050 select [0, 0]", "1.050 deselect [0, 0]", "1.050 select [0, 2]"])
        cv.allowsMultipleSelection = true
        model.events.removeAll()
        script.tap(0, center(3).0, center(3).1, at: 3)
        script.tap(0, center(2).0, center(2).1, at: 4)
        #expect(cv.indexPathsForSelectedItems == [LayoutIndexPath(item: 3, section: 0)])
        #expect(model.events.filter { !$0.contains("highlight") } == ["3.050 select [0, 3]", "4.050 deselect [0, 2]"])
        cv.allowsSelection = false
        model.events.removeAll()
        script.tap(0, center(5).0, center(5).1, at: 5)
        script.finish()
        #expect(model.events.isEmpty)
        #expect(cv.indexPathsForSelectedItems.isEmpty)
    }

    @Test("a touch that leaves its cell is unhighlighted and selects nothing")
    func dragOff() {
        let (cv, _, model, script) = gridCollection()
        cv.isScrollEnabled = false   // the move would otherwise be a drag
        script.down(0, 50, 50, at: 0)
        script.move(0, 50, 95, at: 0.1)
        script.move(0, 50, 105, at: 0.2)   // below item 0 (its frame ends at y = 100)
        script.up(0, 50, 50, at: 0.3)
        script.finish()
        #expect(model.events == ["0.000 highlight [0, 0]", "0.200 unhighlight [0, 0]"])
        #expect(cv.indexPathsForSelectedItems.isEmpty)
    }

    @Test("double tap with delaysTouchesBegan: a double tap selects nothing, a single tap selects late")
    func delaysTouchesBegan() {
        let (cv, _, model, script) = gridCollection()
        let double = TapGestureRecognizer(taps: 2, name: "double")
        double.delaysTouchesBegan = true
        cv.addGestureRecognizer(double)
        let (x, y) = center(1)
        script.tap(0, x, y, at: 0)
        script.tap(0, x, y, at: 0.2)
        script.advance(to: 1)
        #expect(script.lines("double") == ["0.250 double: possible→ended"])
        #expect(model.events.isEmpty, "the cell never saw the touches")
        #expect(cv.indexPathsForSelectedItems.isEmpty)

        script.tap(0, x, y, at: 2)
        #expect(model.events.isEmpty, "held while the double tap is possible")
        script.finish()
        // The double tap fails 0.3 s after the touch-up; the held began and ended arrive then.
        #expect(script.lines("double").last == "2.350 double: possible→failed")
        #expect(model.events == ["2.350 highlight [0, 1]", "2.350 unhighlight [0, 1]", "2.350 select [0, 1]"])
        #expect(cv.indexPathsForSelectedItems == [LayoutIndexPath(item: 1, section: 0)])
    }

    @Test("without delaysTouchesBegan the default double tap cancels the first tap's held end")
    func doubleTapDefaults() {
        let (cv, _, model, script) = gridCollection()
        cv.addGestureRecognizer(TapGestureRecognizer(taps: 2, name: "double"))
        let (x, y) = center(1)
        script.tap(0, x, y, at: 0)
        script.tap(0, x, y, at: 0.2)
        script.finish()
        // Touch 1: began at once, its end held (delaysTouchesEnded) then cancelled at
        // recognition. Touch 2 is not tracked while touch 1 is.
        #expect(model.events == ["0.000 highlight [0, 1]", "0.250 unhighlight [0, 1]"])
        #expect(cv.indexPathsForSelectedItems.isEmpty)
    }

    @Test("a scrolling pan (cancelsTouchesInView) unhighlights the dragged cell and selects nothing")
    func panCancels() {
        let (cv, _, model, script) = gridCollection(items: 60)
        let pan = cv.installScrollingPan(name: "pan")
        #expect(pan.cancelsTouchesInView)
        script.down(0, 200, 300, at: 0)
        script.move(0, 200, 295, at: 0.05)   // 5 pt: not a pan yet
        script.move(0, 200, 280, at: 0.1)    // 20 pt: the pan begins
        script.move(0, 200, 250, at: 0.15)
        script.up(0, 200, 250, at: 0.2)
        #expect(cv.contentOffset == Point(x: 0, y: 30), "the content followed the finger 30 pt")
        script.finish()
        #expect(script.lines("pan") == ["0.100 pan: possible→began", "0.150 pan: began→changed", "0.200 pan: changed→ended"])
        #expect(model.events == ["0.000 highlight [0, 7]", "0.100 unhighlight [0, 7]"])
        #expect(cv.indexPathsForSelectedItems.isEmpty)
        #expect(cv.contentOffset == Point(x: 0, y: 30), "the finger rested 50 ms before lifting: no fling, the content stays")
        #expect(cv.shown == cv.expected)
    }

    @Test("programmatic selection does not call the delegate")
    func programmatic() {
        let (cv, _, model, _) = gridCollection()
        cv.selectItem(at: LayoutIndexPath(item: 3, section: 0))
        cv.selectItem(at: LayoutIndexPath(item: 4, section: 0))
        #expect(cv.indexPathsForSelectedItems == [LayoutIndexPath(item: 4, section: 0)])
        cv.deselectItem(at: LayoutIndexPath(item: 4, section: 0))
        cv.selectItem(at: LayoutIndexPath(item: 99, section: 0))
        #expect(cv.indexPathsForSelectedItems.isEmpty)
        #expect(model.events.isEmpty)
    }
}

@Suite("CollectionView: interactive movement")
struct CollectionMovementTests {
    func values(_ model: Model) -> [Int] { model.sections[0] }

    @Test("long press on [0, 0], drag to the place of [0, 3], release: the data source moves it there")
    func reorder() {
        let (cv, _, model, script) = gridCollection()
        cv.installInteractiveMovementGesture(name: "press")
        let (x0, y0) = center(0), (x3, y3) = center(3)
        script.down(0, x0, y0, at: 0)
        script.advance(to: 0.5)
        #expect(script.lines("press") == ["0.500 press: possible→began"])
        #expect(cv.isMovingItemInteractively)
        script.move(0, (x0 + x3) / 2, (y0 + y3) / 2, at: 0.6)
        script.move(0, x3, y3, at: 0.7)
        // Displayed: the moving item at [0, 3] under the finger, items 1…3 shifted back.
        #expect(cv.interactiveMovement?.target == LayoutIndexPath(item: 3, section: 0))
        let moving = cv.cellForItem(at: LayoutIndexPath(item: 0, section: 0))!
        #expect(moving.frame == Rect(x: x3 - 50, y: y3 - 50, width: 100, height: 100))
        #expect(cv.subviews.last === moving, "the moving cell is in front")
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 3, section: 0))?.frame.origin == Point(x: 300, y: 0))
        #expect(model.moves.isEmpty, "nothing is committed before the release")
        script.up(0, x3, y3, at: 0.8)
        script.finish()
        #expect(model.moves.map { "\($0.0)→\($0.1)" } == ["[0, 0]→[0, 3]"])
        #expect(values(model) == [1, 2, 3, 0] + Array(4..<30))
        #expect(!cv.isMovingItemInteractively)
        #expect(cv.shown == cv.expected)
        #expect(cv.visibleCells.map { ($0 as! ValueCell).value! } == values(model).prefix(cv.visibleCells.count).map { $0 })
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 3, section: 0)) === moving)
        // The press cancelled the touch on the cell: highlighted, then not, never selected.
        #expect(model.events == ["0.000 highlight [0, 0]", "0.500 unhighlight [0, 0]"])
    }

    @Test("the same with the touch cancelled: the item goes back, the data source is not told")
    func cancelled() {
        let (cv, _, model, script) = gridCollection()
        cv.installInteractiveMovementGesture(name: "press")
        let (x0, y0) = center(0), (x3, y3) = center(3)
        script.down(0, x0, y0, at: 0)
        script.advance(to: 0.5)
        script.move(0, x3, y3, at: 0.7)
        #expect(cv.interactiveMovement?.target == LayoutIndexPath(item: 3, section: 0))
        script.cancel(0, x3, y3, at: 0.8)
        script.finish()
        #expect(script.lines("press").last == "0.800 press: changed→cancelled")
        #expect(model.moves.isEmpty)
        #expect(values(model) == Array(0..<30))
        #expect(!cv.isMovingItemInteractively)
        #expect(cv.shown == cv.expected)
        #expect(cv.visibleCells.map { ($0 as! ValueCell).value! } == Array(0..<cv.visibleCells.count))
    }

    @Test("the selection follows the moved item")
    func selectionFollows() {
        let (cv, _, model, _) = gridCollection()
        cv.selectItem(at: LayoutIndexPath(item: 2, section: 0))
        #expect(cv.beginInteractiveMovementForItem(at: LayoutIndexPath(item: 0, section: 0)))
        let (x, y) = center(5)
        cv.updateInteractiveMovementTargetPosition(Point(x: x, y: y))
        cv.endInteractiveMovement()
        #expect(values(model) == [1, 2, 3, 4, 5, 0] + Array(6..<30))
        #expect(cv.indexPathsForSelectedItems == [LayoutIndexPath(item: 1, section: 0)], "value 2 is now at item 1")
    }

    @Test("moving across sections")
    func acrossSections() {
        let layout = FlowLayout(dataSource: nil, boundsSize: .zero)
        layout.itemSize = Size(width: 100, height: 100)
        layout.minimumLineSpacing = 10
        layout.minimumInteritemSpacing = 10
        let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 800), layout: layout)
        let model = Model([4, 2])
        model.attach(cv)
        // Section 0: lines at y 0 and 110; section 1 starts at 210: its item 0 at y 210.
        #expect(cv.beginInteractiveMovementForItem(at: LayoutIndexPath(item: 1, section: 0)))
        cv.updateInteractiveMovementTargetPosition(Point(x: 200, y: 260))
        #expect(cv.interactiveMovement?.target == LayoutIndexPath(item: 1, section: 1))
        // Displayed: section 0 shows values 0, 2, 3; section 1 shows 4, then the moving 1
        // under the finger, then 5 (one line further on, since section 1 now has 3 items).
        let moving = cv.cellForItem(at: LayoutIndexPath(item: 1, section: 0)) as! ValueCell
        #expect(moving.value == 1)
        #expect(moving.frame == Rect(x: 150, y: 210, width: 100, height: 100))
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 2, section: 0))?.frame.origin == Point(x: 150, y: 0))
        // Section 0 now displays three items, one line: section 1 moved up to y = 100.
        #expect(cv.cellForItem(at: LayoutIndexPath(item: 1, section: 1))?.frame.origin == Point(x: 300, y: 100))
        #expect(layout.numberOfItems(inSection: 0) == 3)
        #expect(layout.numberOfItems(inSection: 1) == 3)
        cv.endInteractiveMovement()
        #expect(model.sections == [[0, 2, 3], [4, 1, 5]])
        #expect(cv.shown == cv.expected)
    }
}

@Suite("CollectionView: pinch to resize")
struct CollectionPinchTests {
    @Test("item size = itemSizeAtBegan × scale after every change, never a product of scales")
    func pinch() {
        let (cv, layout, model, script) = gridCollection(items: 60)
        let zoom = PinchGestureRecognizer(name: "zoom")
        cv.addGestureRecognizer(zoom)
        var reports: [(itemSize: Size, contentSize: Size, scale: Double, shownOK: Bool, began: Size?)] = []
        var resize: PinchGestureRecognizer!
        resize = cv.installPinchToResize(name: "resize") { itemSize, contentSize in
            reports.append((itemSize, contentSize, resize.scale, cv.shown == cv.expected && contentSize == layout.contentSize,
                            cv.itemSizeAtPinchBegan))
        }
        #expect(zoom.failureRequirements.contains { $0 === resize }, "the existing pinch waits for the resize to fail")
        let base = layout.itemSize
        // Two fingers on a horizontal line around x = 200; span = half their distance.
        func fingers(_ t: Double, _ phase: TouchPhase, span: Double) {
            script.frame(t, [(1, phase, 200 - span, 400), (2, phase, 200 + span, 400)])
        }
        fingers(0, .began, span: 50)
        fingers(0.1, .moved, span: 60)    // +10: began, scale 1
        fingers(0.2, .moved, span: 80)
        fingers(0.3, .moved, span: 100)
        fingers(0.4, .moved, span: 70)
        fingers(0.5, .ended, span: 70)
        script.finish()
        #expect(script.lines("resize") == ["0.100 resize: possible→began", "0.200 resize: began→changed",
                                           "0.300 resize: changed→changed", "0.400 resize: changed→changed",
                                           "0.500 resize: changed→ended"])
        #expect(script.lines("zoom") == ["0.100 zoom: possible→failed"])
        let expectedScales: [Double] = [1, 80.0 / 60, 100.0 / 60, 70.0 / 60]
        #expect(reports.map(\.scale) == expectedScales)
        for r in reports {
            #expect(r.itemSize == base * r.scale)
            #expect(r.began == base)
            #expect(r.shownOK, "visible cells match the layout after the change")
        }
        #expect(layout.itemSize == base * (70.0 / 60), "the last change's scale, not the product")
        #expect(cv.itemSizeAtPinchBegan == nil)
        // 400 pt wide: 3 per line at 100 pt, 2 at 133.3 pt, 2 at 166.7 pt, 3 at 116.7 pt.
        #expect(layout.itemsPerLine == 3)
        #expect(model.cellsCreated == cv.reuseStatistics.cellsCreated)
    }
}

/// A model whose rows have their own heights (10, 20, 30, 40 pt for values 0…3).
final class TallRowsModel: Model, TableLayoutDataSource {
    func numberOfSections() -> Int { sections.count }
    func numberOfRows(inSection section: Int) -> Int { sections[section].count }
    func rowHeights(inSection section: Int) -> [Double]? { sections[section].map { Double($0 + 1) * 10 } }
}

@Suite("CollectionView: a table layout")
struct CollectionTableTests {
    @Test("row heights follow the moving row, and the move commits them")
    func tableMovement() {
        let layout = TableLayout(style: .plain, dataSource: nil, boundsSize: .zero)
        let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 320, height: 480), layout: layout)
        let model = TallRowsModel([4])
        model.attach(cv)
        #expect(cv.contentSize.height == 100)
        #expect(cv.beginInteractiveMovementForItem(at: LayoutIndexPath(row: 0, section: 0)))
        // Rows 20, 30, 40 tall at y 0, 20, 50 once row 0 is lifted; y = 55 is in the third slot.
        cv.updateInteractiveMovementTargetPosition(Point(x: 160, y: 55))
        #expect(cv.interactiveMovement?.target == LayoutIndexPath(row: 2, section: 0))
        // Displayed order 1, 2, 0, 3: heights 20, 30, 10, 40.
        #expect(layout.rectForRow(at: LayoutIndexPath(row: 2, section: 0)) == Rect(x: 0, y: 50, width: 320, height: 10))
        #expect(cv.cellForItem(at: LayoutIndexPath(row: 3, section: 0))?.frame == Rect(x: 0, y: 60, width: 320, height: 40))
        cv.endInteractiveMovement()
        #expect(model.sections == [[1, 2, 0, 3]])
        #expect(layout.rectForRow(at: LayoutIndexPath(row: 2, section: 0)) == Rect(x: 0, y: 50, width: 320, height: 10))
        #expect(cv.shown == cv.expected)
        #expect(cv.visibleCells.map { ($0 as! ValueCell).value! } == [1, 2, 0, 3])
    }
}
