import GestureKit
import GestureLayout
import Testing

// Four sections, table width 320, default row height 44:
//   0: 3 rows, header title "A", no footer
//   1: 2 rows, header height 30 (explicit), footer title "Note"
//   2: 0 rows, header title "Empty"
//   3: rows of 30, 60 and 90 points, no titles
let tableSections: [StaticTableDataSource.Section] = [
    .init(rows: 3, headerTitle: "A"),
    .init(rows: 2, footerTitle: "Note", headerHeight: 30),
    .init(rows: 0, headerTitle: "Empty"),
    .init(rows: 3, rowHeights: [30, 60, 90]),
]

func table(_ style: TableLayout.Style) -> TableLayout {
    TableLayout(style: style, sections: tableSections, boundsSize: Size(width: 320, height: 480))
}

func element(_ c: LayoutElementCategory, _ s: Int, _ r: Int, _ y: Double, _ h: Double) -> ExpectedElement {
    ExpectedElement(category: c, section: s, item: r, frame: Rect(x: 0, y: y, width: 320, height: h))
}

// Plain: titled header/footer without height = 22; untitled = none.
// 0: header 0…22, rows 22, 66, 110 (44 each) → 154.
// 1: header 154…184 (explicit 30), rows 184, 228 → 272, footer "Note" 272…294.
// 2: header 294…316, no rows, no footer → 316.
// 3: no header, rows 316 (30), 346 (60), 406 (90) → 496. Content 320×496.
let plainExpected: [ExpectedElement] = [
    element(.header, 0, 0, 0, 22),
    element(.cell, 0, 0, 22, 44), element(.cell, 0, 1, 66, 44), element(.cell, 0, 2, 110, 44),
    element(.header, 1, 0, 154, 30),
    element(.cell, 1, 0, 184, 44), element(.cell, 1, 1, 228, 44),
    element(.footer, 1, 0, 272, 22),
    element(.header, 2, 0, 294, 22),
    element(.cell, 3, 0, 316, 30), element(.cell, 3, 1, 346, 60), element(.cell, 3, 2, 406, 90),
]

// Grouped: titled header 55.5, untitled header 18, titled footer 37.5, untitled footer 18.
// 0: header 0…55.5, rows 55.5, 99.5, 143.5 → 187.5, footer (untitled) 187.5…205.5.
// 1: header 205.5…235.5 (explicit 30), rows 235.5, 279.5 → 323.5, footer "Note"
//    323.5…361.
// 2: header 361…416.5, footer 416.5…434.5.
// 3: header 434.5…452.5, rows 452.5 (30), 482.5 (60), 542.5 (90) → 632.5, footer
//    632.5…650.5. Content 320×650.5.
let groupedExpected: [ExpectedElement] = [
    element(.header, 0, 0, 0, 55.5),
    element(.cell, 0, 0, 55.5, 44), element(.cell, 0, 1, 99.5, 44), element(.cell, 0, 2, 143.5, 44),
    element(.footer, 0, 0, 187.5, 18),
    element(.header, 1, 0, 205.5, 30),
    element(.cell, 1, 0, 235.5, 44), element(.cell, 1, 1, 279.5, 44),
    element(.footer, 1, 0, 323.5, 37.5),
    element(.header, 2, 0, 361, 55.5),
    element(.footer, 2, 0, 416.5, 18),
    element(.header, 3, 0, 434.5, 18),
    element(.cell, 3, 0, 452.5, 30), element(.cell, 3, 1, 482.5, 60), element(.cell, 3, 2, 542.5, 90),
    element(.footer, 3, 0, 632.5, 18),
]

func frame(in layout: TableLayout, of e: ExpectedElement) -> Rect {
    switch e.category {
    case .cell: layout.rectForRow(at: LayoutIndexPath(row: e.item, section: e.section))
    case .header: layout.rectForHeader(inSection: e.section)
    case .footer: layout.rectForFooter(inSection: e.section)
    }
}

@Suite("Table layout")
struct TableLayoutTests {
    @Test("plain style: rows, titled headers and footers at UIKit's default heights", arguments: plainExpected)
    func plainFrames(_ e: ExpectedElement) {
        #expect(frame(in: table(.plain), of: e) == e.frame, "\(e.testDescription) should be at \(e.frame)")
    }

    @Test("grouped style: every section separated by its header and footer", arguments: groupedExpected)
    func groupedFrames(_ e: ExpectedElement) {
        #expect(frame(in: table(.grouped), of: e) == e.frame, "\(e.testDescription) should be at \(e.frame)")
    }

    @Test("content sizes and complete element lists", arguments: TableLayout.Style.allCases)
    func everything(_ style: TableLayout.Style) {
        let layout = table(style)
        let expected = style == .plain ? plainExpected : groupedExpected
        #expect(layout.contentSize == Size(width: 320, height: style == .plain ? 496 : 650.5))
        let all = layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 10_000))
        #expect(all.map(\.frame) == expected.map(\.frame), "every header, row and footer, in order")
        #expect(all.map(\.category) == expected.map(\.category))
    }

    @Test("plain style has no header or footer without a title or height")
    func plainAbsentViews() {
        let layout = table(.plain)
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionFooter, at: LayoutIndexPath(row: 0, section: 0)) == nil)
        #expect(layout.layoutAttributesForSupplementaryView(ofKind: LayoutElementKind.sectionHeader, at: LayoutIndexPath(row: 0, section: 3)) == nil)
        #expect(layout.rectForHeader(inSection: 3) == Rect(x: 0, y: 316, width: 320, height: 0), "an absent header has a zero-height rect, as in UIKit")
        #expect(layout.rect(forSection: 1) == Rect(x: 0, y: 154, width: 320, height: 140))
    }

    @Test("explicit heights, including zero, win over the style's defaults")
    func explicitHeights() {
        let layout = TableLayout(style: .grouped,
                                 sections: [.init(rows: 1, headerTitle: "T", headerHeight: 0), .init(rows: 1)],
                                 boundsSize: Size(width: 320, height: 480))
        layout.sectionFooterHeight = 8
        // 0: no header, row 0…44, footer 44…52. 1: header 18 → 52…70, row 70…114, footer 114…122.
        #expect(layout.rectForRow(at: LayoutIndexPath(row: 0, section: 0)) == Rect(x: 0, y: 0, width: 320, height: 44))
        #expect(layout.rectForRow(at: LayoutIndexPath(row: 0, section: 1)) == Rect(x: 0, y: 70, width: 320, height: 44))
        #expect(layout.contentSize.height == 122, "sectionFooterHeight replaces the grouped default footer of 18")
    }

    @Test("indexPathForRow finds the row under a point, nil in headers and footers",
          arguments: [
            (50.0, LayoutIndexPath?.some(LayoutIndexPath(row: 0, section: 0))),
            (66, LayoutIndexPath(row: 1, section: 0)),
            (153.9, LayoutIndexPath(row: 2, section: 0)),
            (160, nil),            // section 1's header
            (280, nil),            // section 1's footer
            (300, nil),            // section 2's header (no rows)
            (400, LayoutIndexPath(row: 1, section: 3)),
            (405.9, LayoutIndexPath(row: 1, section: 3)),
            (406, LayoutIndexPath(row: 2, section: 3)),
            (496, nil),            // below the content
            (-1, nil),
          ])
    func indexPathForRow(_ y: Double, _ expected: LayoutIndexPath?) {
        #expect(table(.plain).indexPathForRow(at: Point(x: 10, y: y)) == expected, "at y \(y) the row should be \(String(describing: expected))")
    }

    @Test("rows in a rect")
    func rowsInRect() {
        let layout = table(.plain)
        #expect(layout.indexPathsForRows(in: Rect(x: 0, y: 100, width: 320, height: 100))
                    == [LayoutIndexPath(row: 1, section: 0), LayoutIndexPath(row: 2, section: 0), LayoutIndexPath(row: 0, section: 1)],
                "y 100..<200 shows the end of row [0, 1], row [0, 2] and the top of row [1, 0]")
        #expect(layout.indexPathsForRows(in: Rect(x: 0, y: 154, width: 320, height: 30)).isEmpty, "section 1's header only")
        #expect(layout.indexPathsForRows(in: Rect(x: 0, y: 350, width: 320, height: 57))
                    == [LayoutIndexPath(row: 1, section: 3), LayoutIndexPath(row: 2, section: 3)])
    }

    @Test("move targets: the row under the finger, clamped to the section's ends")
    func moveTargets() {
        let layout = table(.plain)
        let from = LayoutIndexPath(row: 0, section: 0)
        #expect(layout.targetIndexPathForInteractivelyMovingItem(from, withPosition: Point(x: 0, y: 70)) == LayoutIndexPath(row: 1, section: 0))
        #expect(layout.targetIndexPathForInteractivelyMovingItem(from, withPosition: Point(x: 0, y: 10)) == LayoutIndexPath(row: 0, section: 0),
                "over the header: the first row")
        #expect(layout.targetIndexPathForInteractivelyMovingItem(from, withPosition: Point(x: 0, y: 280)) == LayoutIndexPath(row: 2, section: 1),
                "over another section's footer: appended after its last row")
        #expect(layout.targetIndexPathForInteractivelyMovingItem(from, withPosition: Point(x: 0, y: 300)) == LayoutIndexPath(row: 0, section: 2),
                "into the empty section: row 0")
        #expect(layout.targetIndexPathForInteractivelyMovingItem(from, withPosition: Point(x: 0, y: 9_999)) == LayoutIndexPath(row: 3, section: 3),
                "below the content: the end of the last section")
    }

    @Test("invalidation: a row height change remeasures, a section change shifts what follows")
    func invalidation() {
        let source = StaticTableDataSource(tableSections)
        let layout = TableLayout(style: .plain, dataSource: source, boundsSize: Size(width: 320, height: 480))
        defer { withExtendedLifetime(source) {} }   // the layout holds its data source weakly
        #expect(layout.contentSize.height == 496)
        let start = layout.diagnostics
        layout.rowHeight = 50
        // Uniform rows grow by 6: section 0 +18, section 1 +12 → 526; section 3 keeps its own heights.
        #expect(layout.contentSize.height == 526)
        #expect(layout.rectForRow(at: LayoutIndexPath(row: 0, section: 3)) == Rect(x: 0, y: 346, width: 320, height: 30))
        #expect(layout.diagnostics.sectionsRead == start.sectionsRead, "a row height change does not reread the data source")
        source.sections[1].rows = 3
        layout.invalidateLayout(with: .sections([1]))
        #expect(layout.rectForHeader(inSection: 2).minY == 374, "section 2 moves down by one 50-point row")
        #expect(layout.contentSize.height == 576)
        #expect(layout.diagnostics.sectionsRead == start.sectionsRead + 1, "only section 1 is reread")
        layout.invalidateLayout(with: .boundsChange(to: Size(width: 500, height: 480)))
        #expect(layout.rectForRow(at: LayoutIndexPath(row: 0, section: 0)).width == 500, "rows span the new width")
    }

    @Test("both layouts serve a collection view through CollectionViewLayout, their base class")
    func baseClassUse() {
        let layouts: [CollectionViewLayout] = [table(.plain), classicLayout(.vertical)]
        for layout in layouts {
            #expect(layout.indexPathForItem(at: Point(x: 30, y: 62)) == LayoutIndexPath(item: 0, section: 0),
                    "(30, 62) is on the first row / first item in both layouts")
            layout.invalidateLayout()
            #expect(!layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 100)).isEmpty)
        }
    }
}
