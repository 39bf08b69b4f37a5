import GestureKit
import GestureLayout
import Testing

// MARK: - The classic configuration
//
// items 80×120, minimumLineSpacing 20, minimumInteritemSpacing 10,
// sectionInset top 10 left 20 bottom 10 right 20, header and footer 300×50,
// item counts [7, 3, 1, 0].

func classicLayout(_ direction: FlowLayout.ScrollDirection, counts: [Int] = [7, 3, 1, 0]) -> FlowLayout {
    let layout = FlowLayout(itemCounts: counts, boundsSize: Size(width: 375, height: 667))
    layout.scrollDirection = direction
    layout.itemSize = Size(width: 80, height: 120)
    layout.minimumLineSpacing = 20
    layout.minimumInteritemSpacing = 10
    layout.sectionInset = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
    layout.headerReferenceSize = Size(width: 300, height: 50)
    layout.footerReferenceSize = Size(width: 300, height: 50)
    return layout
}

/// One expected element: what, where.
struct ExpectedElement: Sendable, CustomTestStringConvertible {
    var category: LayoutElementCategory
    var section: Int
    var item: Int
    var frame: Rect
    var testDescription: String { "\(category.rawValue) [\(section), \(item)] at \(frame)" }

    static func header(_ s: Int, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Self {
        Self(category: .header, section: s, item: 0, frame: Rect(x: x, y: y, width: w, height: h))
    }
    static func footer(_ s: Int, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Self {
        Self(category: .footer, section: s, item: 0, frame: Rect(x: x, y: y, width: w, height: h))
    }
    static func cell(_ s: Int, _ i: Int, _ x: Double, _ y: Double) -> Self {
        Self(category: .cell, section: s, item: i, frame: Rect(x: x, y: y, width: 80, height: 120))
    }
}

// Vertical, width 375.
// Across: available = 375 − 20 − 20 = 335; per line ⌊(335 + 10) / (80 + 10)⌋ = ⌊3.83⌋ = 3;
// spacing = (335 − 3·80) / 2 = 47.5, so columns at x = 20, 20 + 127.5 = 147.5, 275
// (275 + 80 = 355 = 375 − 20: full lines touch both insets). Line pitch 120 + 20 = 140.
// Section 0 (7 items, 3 lines): header y 0…50; items from 50 + 10 = 60: lines at 60, 200,
//   340; the last line (item 6) keeps column 0; last line ends 460, + 10 = 470: footer
//   470…520.
// Section 1 (3 items, 1 line): header 520; items at 520 + 60 = 580; end 700 + 10 = 710:
//   footer 710…760.
// Section 2 (1 item): header 760; item 820 at column 0 (x 20); end 940 + 10 = 950: footer
//   950…1000.
// Section 3 (empty): header 1000…1050, insets 10 + 10, footer 1070…1120. Content 375×1120.
let classicVertical: [ExpectedElement] = [
    .header(0, 0, 0, 375, 50),
    .cell(0, 0, 20, 60), .cell(0, 1, 147.5, 60), .cell(0, 2, 275, 60),
    .cell(0, 3, 20, 200), .cell(0, 4, 147.5, 200), .cell(0, 5, 275, 200),
    .cell(0, 6, 20, 340),
    .footer(0, 0, 470, 375, 50),
    .header(1, 0, 520, 375, 50),
    .cell(1, 0, 20, 580), .cell(1, 1, 147.5, 580), .cell(1, 2, 275, 580),
    .footer(1, 0, 710, 375, 50),
    .header(2, 0, 760, 375, 50),
    .cell(2, 0, 20, 820),
    .footer(2, 0, 950, 375, 50),
    .header(3, 0, 1000, 375, 50),
    .footer(3, 0, 1070, 375, 50),
]

// Horizontal, height 667: lines are columns filled top to bottom, sections run left to right.
// Down: available = 667 − 10 − 10 = 647; per column ⌊(647 + 10) / (120 + 10)⌋ = ⌊5.05⌋ = 5;
// spacing = (647 − 5·120) / 4 = 11.75, rows at y = 10, 141.75, 273.5, 405.25, 537
// (537 + 120 = 657 = 667 − 10). Column pitch 80 + 20 = 100. Headers/footers are 300 wide
// (the reference width) and 667 tall.
// Section 0 (7 items, 2 columns): header x 0…300; items from 300 + 20 = 320: column 0
//   (items 0–4) x 320, column 1 (items 5, 6) x 420; end 500 + 20 = 520: footer 520…820.
// Section 1 (3 items): header 820; column at 820 + 320 = 1140; end 1220 + 20 = 1240: footer
//   1240…1540.
// Section 2 (1 item): header 1540; item at 1860, y 10; end 1940 + 20 = 1960: footer 1960…2260.
// Section 3 (empty): header 2260…2560, insets 20 + 20, footer 2600…2900. Content 2900×667.
let classicHorizontal: [ExpectedElement] = [
    .header(0, 0, 0, 300, 667),
    .cell(0, 0, 320, 10), .cell(0, 1, 320, 141.75), .cell(0, 2, 320, 273.5),
    .cell(0, 3, 320, 405.25), .cell(0, 4, 320, 537),
    .cell(0, 5, 420, 10), .cell(0, 6, 420, 141.75),
    .footer(0, 520, 0, 300, 667),
    .header(1, 820, 0, 300, 667),
    .cell(1, 0, 1140, 10), .cell(1, 1, 1140, 141.75), .cell(1, 2, 1140, 273.5),
    .footer(1, 1240, 0, 300, 667),
    .header(2, 1540, 0, 300, 667),
    .cell(2, 0, 1860, 10),
    .footer(2, 1960, 0, 300, 667),
    .header(3, 2260, 0, 300, 667),
    .footer(3, 2600, 0, 300, 667),
]

func attributes(of layout: FlowLayout, for e: ExpectedElement) -> LayoutAttributes? {
    let path = LayoutIndexPath(item: e.item, section: e.section)
    switch e.category {
    case .cell: return layout.layoutAttributesForItem(at: path)
    case .header: return layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionHeader, at: path)
    case .footer: return layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionFooter, at: path)
    }
}

@Suite("Flow layout, classic configuration")
struct ClassicFlowLayoutTests {
    @Test("vertical: every header, cell and footer where UIKit puts it", arguments: classicVertical)
    func verticalFrames(_ e: ExpectedElement) {
        let a = attributes(of: classicLayout(.vertical), for: e)
        #expect(a?.frame == e.frame, "\(e.testDescription) should be at \(e.frame), not \(String(describing: a?.frame))")
        #expect(a?.category == e.category)
        #expect(a?.representedElementKind == e.category.elementKind, "headers are of kind \"header\", footers \"footer\", cells none")
    }

    @Test("horizontal: every header, cell and footer where UIKit puts it", arguments: classicHorizontal)
    func horizontalFrames(_ e: ExpectedElement) {
        let a = attributes(of: classicLayout(.horizontal), for: e)
        #expect(a?.frame == e.frame, "\(e.testDescription) should be at \(e.frame), not \(String(describing: a?.frame))")
    }

    @Test("content size: 375×1120 vertically, 2900×667 horizontally")
    func contentSize() {
        #expect(classicLayout(.vertical).contentSize == Size(width: 375, height: 1120),
                "vertical content is the collection view's width by the sum of the sections' heights")
        #expect(classicLayout(.horizontal).contentSize == Size(width: 2900, height: 667),
                "horizontal content is the sum of the sections' widths by the collection view's height")
    }

    @Test("a rect covering everything returns exactly every element, in section order",
          arguments: [FlowLayout.ScrollDirection.vertical, .horizontal])
    func wholeContent(_ direction: FlowLayout.ScrollDirection) {
        let layout = classicLayout(direction)
        let expected = direction == .vertical ? classicVertical : classicHorizontal
        let all = layout.layoutAttributesForElements(in: Rect(x: -1, y: -1, width: 10_000, height: 10_000))
        #expect(all.map(\.frame) == expected.map(\.frame), "the whole content should list every header, cell and footer once")
        #expect(all.map(\.category) == expected.map(\.category))
    }

    @Test("no items in sections that do not exist, and no views for items past a section's count")
    func outOfRange() {
        let layout = classicLayout(.vertical)
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 7, section: 0)) == nil, "section 0 has 7 items, so item 7 has no frame")
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 0, section: 3)) == nil, "the empty section has no item 0")
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 0, section: 4)) == nil, "there is no section 4")
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: "badge", at: LayoutIndexPath(item: 0, section: 0)) == nil,
                "an unknown kind has no view")
    }
}

// MARK: - Line breaking rules

@Suite("Flow layout line breaking")
struct FlowLineTests {
    @Test("without a header the first line starts at the top inset, and a zero footer leaves no view")
    func zeroHeader() {
        let layout = classicLayout(.vertical)
        layout.headerReferenceSize = .zero
        layout.footerReferenceSize = Size(width: 300, height: 0)   // height 0: no footer
        // Section 0: items at 10, 150, 290; ends 410 + 10 = 420. Section 1 starts at 420,
        // items at 430.
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionHeader,
                                                            at: LayoutIndexPath(item: 0, section: 0)) == nil,
                "a zero header reference size means no header view")
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionFooter,
                                                            at: LayoutIndexPath(item: 0, section: 0)) == nil,
                "a zero footer height means no footer view, even with a width")
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 0, section: 0))?.frame == Rect(x: 20, y: 10, width: 80, height: 120))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 0, section: 1))?.frame == Rect(x: 20, y: 430, width: 80, height: 120))
        // Sections: 420, 10+120+10 = 140, 140, empty 20 → 720.
        #expect(layout.contentSize.height == 720, "content is just insets and lines")
        #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 375, height: 10_000)).allSatisfy { $0.category == .cell },
                "no supplementary views at all")
    }

    @Test("an empty section still takes its header, insets and footer")
    func emptySection() {
        let layout = classicLayout(.vertical, counts: [0, 0])
        // Each: 50 + 10 + 10 + 50 = 120.
        #expect(layout.contentSize == Size(width: 375, height: 240))
        let all = layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 375, height: 240))
        #expect(all.map(\.category) == [.header, .footer, .header, .footer], "empty sections list only their header and footer")
        #expect(all[2].frame == Rect(x: 0, y: 120, width: 375, height: 50))
    }

    @Test("no sections: zero height content and nothing anywhere")
    func noSections() {
        let layout = classicLayout(.vertical, counts: [])
        #expect(layout.contentSize == Size(width: 375, height: 0))
        #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 375, height: 667)).isEmpty)
        #expect(layout.indexPathForItem(at: Point(x: 10, y: 10)) == nil)
        #expect(layout.targetIndexPathForInteractivelyMovingItem(LayoutIndexPath(item: 0, section: 0),
                                                                 withPosition: Point(x: 10, y: 10)) == nil)
    }

    // Width 375, insets left 10 right 30: available 335. Items 200 wide, interitem 10:
    // ⌊(335 + 10) / 210⌋ = 1 per line, centred: x = 10 + (335 − 200) / 2 = 77.5, every line.
    @Test("an item wider than half the width sits alone on its line, centred", arguments: 0..<3)
    func onePerLine(_ item: Int) {
        let layout = FlowLayout(itemCounts: [3], boundsSize: Size(width: 375, height: 667))
        layout.itemSize = Size(width: 200, height: 100)
        layout.minimumLineSpacing = 20
        layout.minimumInteritemSpacing = 10
        layout.sectionInset = EdgeInsets(top: 0, left: 10, bottom: 0, right: 30)
        #expect(layout.itemsPerLine == 1)
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: item, section: 0))?.frame
                    == Rect(x: 77.5, y: Double(item) * 120, width: 200, height: 100),
                "item \(item) should be centred in the space between the insets, one line each 100 + 20 apart")
    }

    @Test("an item wider than the available width starts at the left inset and overflows")
    func tooWide() {
        let layout = FlowLayout(itemCounts: [2], boundsSize: Size(width: 375, height: 667))
        layout.itemSize = Size(width: 400, height: 100)
        layout.sectionInset = EdgeInsets(top: 0, left: 20, bottom: 0, right: 20)
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 1, section: 0))?.frame
                    == Rect(x: 20, y: 110, width: 400, height: 100),
                "one per line, pinned to the left inset, 100 + 10 (default line spacing) apart")
        #expect(layout.contentSize.width == 375, "content stays as wide as the collection view")
    }

    @Test("items that fit exactly fill the line edge to edge at the minimum spacing")
    func exactFit() {
        // 4·80 + 3·10 = 350 = 375 − 25: exactly 4 per line, spacing stays 10.
        let layout = FlowLayout(itemCounts: [5], boundsSize: Size(width: 375, height: 667))
        layout.itemSize = Size(width: 80, height: 80)
        layout.minimumInteritemSpacing = 10
        layout.sectionInset = EdgeInsets(top: 0, left: 15, bottom: 0, right: 10)
        #expect(layout.itemsPerLine == 4)
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 3, section: 0))?.frame.minX == 285,
                "the fourth item starts at 15 + 3·90 = 285 and ends at the right inset, 365")
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 4, section: 0))?.frame == Rect(x: 15, y: 90, width: 80, height: 80))
    }
}

// MARK: - Queries

@Suite("Flow layout queries")
struct FlowQueryTests {
    func paths(_ a: [LayoutAttributes]) -> [String] {
        a.map { "\($0.category.rawValue)\($0.indexPath)" }
    }

    @Test("a rect starting exactly at a section boundary does not include the previous footer")
    func boundaryRects() {
        let layout = classicLayout(.vertical)
        // Section 0's footer is 470..<520, section 1's header 520..<570.
        #expect(paths(layout.layoutAttributesForElements(in: Rect(x: 0, y: 520, width: 375, height: 1))) == ["header[1, 0]"],
                "rects are half-open: y 520 belongs to section 1 only")
        #expect(paths(layout.layoutAttributesForElements(in: Rect(x: 0, y: 519, width: 375, height: 1))) == ["footer[0, 0]"])
        #expect(paths(layout.layoutAttributesForElements(in: Rect(x: 0, y: 519, width: 375, height: 2))) == ["footer[0, 0]", "header[1, 0]"])
        // The last line of section 0 ends at 460; 460..<470 is the bottom inset.
        #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 460, width: 375, height: 10)).isEmpty,
                "the bottom inset holds nothing")
    }

    @Test("rects in the gaps between lines and between columns hold nothing")
    func gapRects() {
        let layout = classicLayout(.vertical)
        #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 180, width: 375, height: 20)).isEmpty,
                "y 180..<200 is the line spacing between the first two lines")
        #expect(layout.layoutAttributesForElements(in: Rect(x: 100, y: 60, width: 47.5, height: 400)).isEmpty,
                "x 100..<147.5 is the gap between columns 0 and 1")
        #expect(paths(layout.layoutAttributesForElements(in: Rect(x: 99, y: 60, width: 49, height: 1))) == ["cell[0, 0]", "cell[0, 1]"],
                "one point either side of the gap touches both neighbours")
        #expect(paths(layout.layoutAttributesForElements(in: Rect(x: 200, y: 179, width: 200, height: 22)))
                    == ["cell[0, 1]", "cell[0, 2]", "cell[0, 4]", "cell[0, 5]"])
        #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 100, width: 375, height: 0)).isEmpty,
                "an empty rect intersects nothing")
    }

    @Test("the buffer variant reuses the caller's array")
    func bufferReuse() {
        let layout = classicLayout(.vertical)
        var buffer: [LayoutAttributes] = []
        buffer.reserveCapacity(64)
        layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 375, height: 200), into: &buffer)
        let capacity = buffer.capacity
        #expect(buffer.count == 4, "the header and the first line's three items")
        layout.layoutAttributesForElements(in: Rect(x: 0, y: 1000, width: 375, height: 50), into: &buffer)
        #expect(paths(buffer) == ["header[3, 0]"], "the buffer is replaced, not appended to")
        #expect(buffer.capacity == capacity, "the capacity is kept")
    }

    @Test("indexPathForItem finds the item under a point and nothing in gaps",
          arguments: [
            (Point(x: 20, y: 60), LayoutIndexPath?.some(LayoutIndexPath(item: 0, section: 0))),
            (Point(x: 99.9, y: 179.9), LayoutIndexPath(item: 0, section: 0)),
            (Point(x: 100, y: 60), nil),                 // right edge is outside (half-open)
            (Point(x: 120, y: 100), nil),                // between columns
            (Point(x: 50, y: 190), nil),                 // between lines
            (Point(x: 150, y: 250), LayoutIndexPath(item: 4, section: 0)),
            (Point(x: 150, y: 350), nil),                // no item 7 in section 0
            (Point(x: 10, y: 10), nil),                  // header
            (Point(x: 10, y: 480), nil),                 // footer
            (Point(x: 300, y: 600), LayoutIndexPath(item: 2, section: 1)),
            (Point(x: 275, y: 820), nil),                // section 2 has one item
            (Point(x: 50, y: 830), LayoutIndexPath(item: 0, section: 2)),
            (Point(x: 50, y: 1060), nil),                // empty section
            (Point(x: 50, y: 5000), nil),                // below the content
            (Point(x: 50, y: -5), nil),                  // above it
          ])
    func indexPathAtPoint(_ point: Point, _ expected: LayoutIndexPath?) {
        #expect(classicLayout(.vertical).indexPathForItem(at: point) == expected,
                "at \(point) the item should be \(String(describing: expected))")
    }

    @Test("horizontal indexPathForItem")
    func indexPathHorizontal() {
        let layout = classicLayout(.horizontal)
        #expect(layout.indexPathForItem(at: Point(x: 430, y: 150)) == LayoutIndexPath(item: 6, section: 0))
        #expect(layout.indexPathForItem(at: Point(x: 430, y: 300)) == nil, "column 1 of section 0 holds only two items")
        #expect(layout.indexPathForItem(at: Point(x: 330, y: 135)) == nil, "y 130..<141.75 is spacing")
    }

    // Moving item [0, 0] (or [1, 0] from another section) in the classic vertical layout.
    // Column slots split the 47.5 gaps in half (column 0 ends at 100 + 23.75 = 123.75), line
    // slots split the 20 gaps (line 0 ends at 180 + 10 = 190).
    @Test("move targets: nearest slot, clamped past the end of a section",
          arguments: [
            (LayoutIndexPath(item: 0, section: 0), Point(x: 150, y: 100), LayoutIndexPath(item: 1, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 110, y: 100), LayoutIndexPath(item: 0, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 130, y: 100), LayoutIndexPath(item: 1, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 30, y: 185), LayoutIndexPath(item: 0, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 30, y: 195), LayoutIndexPath(item: 3, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 300, y: 400), LayoutIndexPath(item: 6, section: 0)),
            (LayoutIndexPath(item: 0, section: 1), Point(x: 300, y: 400), LayoutIndexPath(item: 7, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 30, y: 480), LayoutIndexPath(item: 6, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 300, y: 530), LayoutIndexPath(item: 2, section: 1)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 30, y: 730), LayoutIndexPath(item: 3, section: 1)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 30, y: 1050), LayoutIndexPath(item: 0, section: 3)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 150, y: -50), LayoutIndexPath(item: 1, section: 0)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 150, y: 5000), LayoutIndexPath(item: 0, section: 3)),
            (LayoutIndexPath(item: 0, section: 0), Point(x: 900, y: 250), LayoutIndexPath(item: 5, section: 0)),
          ])
    func moveTargets(_ from: LayoutIndexPath, _ point: Point, _ expected: LayoutIndexPath) {
        #expect(classicLayout(.vertical).targetIndexPathForInteractivelyMovingItem(from, withPosition: point) == expected,
                "dragging \(from) to \(point) should propose \(expected)")
    }
}

// MARK: - Invalidation

@Suite("Flow layout invalidation")
struct FlowInvalidationTests {
    @Test("a metrics change remeasures every section without asking the data source")
    func metricsChange() {
        let layout = classicLayout(.vertical)
        _ = layout.contentSize
        let before = layout.diagnostics
        layout.itemSize = Size(width: 160, height: 240)
        layout.invalidateLayout(with: .metrics)
        // ⌊(335 + 10) / 170⌋ = 2 per line, spacing (335 − 320) / 1 = 15, line pitch 260.
        // Section 0: 7 items, 4 lines: 50 + 10 + (4·260 − 20) + 10 + 50 = 1140.
        // Section 1: 2 lines: 50 + 10 + 500 + 10 + 50 = 620 (→ 1760). Section 2: 1 line:
        // 50 + 10 + 240 + 10 + 50 = 360 (→ 2120). Section 3: 120 (→ 2240).
        #expect(layout.contentSize == Size(width: 375, height: 2240))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 1, section: 0))?.frame == Rect(x: 195, y: 60, width: 160, height: 240))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 6, section: 0))?.frame == Rect(x: 20, y: 840, width: 160, height: 240))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 0, section: 2))?.frame == Rect(x: 20, y: 1820, width: 160, height: 240))
        #expect(layout.diagnostics.sectionsMeasured - before.sectionsMeasured == 4, "all four sections are remeasured once")
        #expect(layout.diagnostics.countsRead == before.countsRead, "item counts are not read again for a metrics change")
    }

    @Test("a count change in one section rereads only it and shifts the later sections")
    func sectionCountChange() {
        let source = ItemCountsDataSource([7, 3, 1, 0])
        let layout = FlowLayout(dataSource: source, boundsSize: Size(width: 375, height: 667))
        defer { withExtendedLifetime(source) {} }   // the layout holds its data source weakly
        layout.itemSize = Size(width: 80, height: 120)
        layout.minimumLineSpacing = 20
        layout.minimumInteritemSpacing = 10
        layout.sectionInset = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        layout.headerReferenceSize = Size(width: 300, height: 50)
        layout.footerReferenceSize = Size(width: 300, height: 50)
        #expect(layout.contentSize.height == 1120)
        let before = layout.diagnostics
        source.itemCounts[1] = 4
        layout.invalidateLayout(with: .sections([1]))
        // Section 1 grows to 2 lines: 50 + 10 + 260 + 10 + 50 = 380 (was 240): +140 after it.
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 3, section: 1))?.frame == Rect(x: 20, y: 720, width: 80, height: 120),
                "the new item opens a second line in section 1")
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionHeader,
                                                            at: LayoutIndexPath(item: 0, section: 2))?.frame
                    == Rect(x: 0, y: 900, width: 375, height: 50), "section 2 moves down by 140")
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 0, section: 2))?.frame == Rect(x: 20, y: 960, width: 80, height: 120))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 2, section: 0))?.frame == Rect(x: 275, y: 60, width: 80, height: 120),
                "section 0 does not move")
        #expect(layout.contentSize.height == 1260)
        #expect(layout.diagnostics.countsRead - before.countsRead == 1, "only section 1's count is read")
        #expect(layout.diagnostics.sectionsMeasured - before.sectionsMeasured == 3, "sections 1 to 3 are remeasured, section 0 is not")
    }

    @Test("invalidateLayout rereads the number of sections")
    func everything() {
        let source = ItemCountsDataSource([7, 3, 1, 0])
        let layout = FlowLayout(dataSource: source, boundsSize: Size(width: 375, height: 667))
        defer { withExtendedLifetime(source) {} }   // the layout holds its data source weakly
        #expect(layout.numberOfSections == 4)
        source.itemCounts.append(5)
        #expect(layout.numberOfSections == 4, "nothing changes until the layout is invalidated")
        layout.invalidateLayout()
        #expect(layout.numberOfSections == 5)
        #expect(layout.numberOfItems(inSection: 4) == 5)
    }

    @Test("a width change rebreaks the lines; a height-only change recomputes nothing")
    func boundsChange() {
        let layout = classicLayout(.vertical)
        _ = layout.contentSize
        #expect(!layout.shouldInvalidateLayout(forBoundsSize: Size(width: 375, height: 667)), "scrolling does not invalidate")
        #expect(layout.shouldInvalidateLayout(forBoundsSize: Size(width: 600, height: 667)))
        let before = layout.diagnostics
        layout.invalidateLayout(with: .boundsChange(to: Size(width: 375, height: 500)))
        #expect(layout.contentSize == Size(width: 375, height: 1120))
        #expect(layout.diagnostics == before, "a height change does not remeasure a vertical layout")
        layout.invalidateLayout(with: .boundsChange(to: Size(width: 600, height: 500)))
        // Available 560: ⌊570 / 90⌋ = 6 per line, spacing (560 − 480) / 5 = 16, pitch 96.
        // Sections: 7 items → 2 lines: 50 + 10 + 260 + 10 + 50 = 380; then 240, 240, 120 → 980.
        #expect(layout.contentSize == Size(width: 600, height: 980))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 5, section: 0))?.frame == Rect(x: 500, y: 60, width: 80, height: 120))
        #expect(layout.layoutAttributesForItem(at: LayoutIndexPath(item: 6, section: 0))?.frame == Rect(x: 20, y: 200, width: 80, height: 120))
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionFooter,
                                                            at: LayoutIndexPath(item: 0, section: 3))?.frame
                    == Rect(x: 0, y: 930, width: 600, height: 50), "headers and footers follow the new width")
    }
}

// MARK: - A million items

@Suite("Flow layout at scale")
struct FlowScaleTests {
    // 1,000 sections × 1,000 items, width 1000, items 91×90, spacing 10 both ways, header
    // height 50, no footer, no insets.
    // Across: ⌊(1000 + 10) / 101⌋ = 10 per line, spacing (1000 − 910) / 9 = 10: columns at
    // x = 101·k, k = 0…9. Lines: pitch 100, 100 lines: 100·100 − 10 = 9990; section length
    // 50 + 9990 = 10040, section s starts at 10040·s. Content 1000 × 10,040,000.
    // Section 500 starts at 5,020,000; its lines at 5,020,050 + 100·r; line 98 at
    // 5,029,850…5,029,940, line 99 at 5,029,950…5,030,040 = section 501's start. Section
    // 501's header is 5,030,040…5,030,090, its lines at 5,030,090 + 100·r.
    // Rect x 150..<350, y 5,029,900..<5,030,900:
    //   columns 1 (101…192), 2 (202…293), 3 (303…394); not 0 (…91) nor 4 (404…);
    //   section 500: lines 98 and 99 → items 981–983, 991–993;
    //   section 501: its header; lines 0…8 (line 8 starts at 5,030,890 < 5,030,900) → items
    //   10·r + 1…3 for r = 0…8.
    @Test("a 1,000,000-item layout answers a visible rect with exactly the visible cells")
    func millionItems() {
        let layout = FlowLayout(itemCounts: Array(repeating: 1000, count: 1000), boundsSize: Size(width: 1000, height: 1000))
        layout.itemSize = Size(width: 91, height: 90)
        layout.minimumLineSpacing = 10
        layout.minimumInteritemSpacing = 10
        layout.headerReferenceSize = Size(width: 0, height: 50)
        #expect(layout.contentSize == Size(width: 1000, height: 10_040_000))
        let found = layout.layoutAttributesForElements(in: Rect(x: 150, y: 5_029_900, width: 200, height: 1000))
        var expected: [String] = []
        for item in [981, 982, 983, 991, 992, 993] { expected.append("cell[500, \(item)]") }
        expected.append("header[501, 0]")
        for line in 0...8 { for column in 1...3 { expected.append("cell[501, \(10 * line + column)]") } }
        #expect(found.map { "\($0.category.rawValue)\($0.indexPath)" } == expected,
                "the rect shows the last two lines of section 500, section 501's header and its first nine lines, columns 1 to 3")
        #expect(found.first?.frame == Rect(x: 101, y: 5_029_850, width: 91, height: 90))
        #expect(found.last?.frame == Rect(x: 303, y: 5_030_890, width: 91, height: 90))
        #expect(layout.indexPathForItem(at: Point(x: 303, y: 5_030_890)) == LayoutIndexPath(item: 83, section: 501))
        #expect(layout.diagnostics.sectionsMeasured == 1000, "each section is measured once, no item is")
    }
}
