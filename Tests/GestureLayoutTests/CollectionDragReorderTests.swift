import GestureKit
import GestureLayout
import GestureTestSupport
import Testing

/// Reordering by drag and drop agrees with reordering by the long press (UIKit's collection
/// view: its drop delegate's `.move` with `.insertAtDestinationIndexPath` moves the item as
/// `beginInteractiveMovementForItem`/`endInteractiveMovement` do).
@Suite("CollectionView: reordering by drag and drop")
struct CollectionDragReorderTests {
    /// What a reordering left: the data source's moves, the model, the delegate's events, and
    /// the cells shown.
    struct Outcome: Equatable {
        var moves: [String]
        var values: [Int]
        var events: [String]
        var shownMatchesLayout: Bool
        var cellValues: [Int]
    }

    /// Runs `path` (touch positions after the hold; the last is where it lifts, `cancel` to
    /// cancel it) with the long press installed, or with the drag and drop interactions.
    func reorder(byDrag: Bool, from item: Int, through path: [(Double, Double)], cancel: Bool = false) -> Outcome {
        let (cv, _, model, script) = gridCollection()
        if byDrag { cv.installDragReordering() } else { cv.installInteractiveMovementGesture(name: "press") }
        let (x0, y0) = center(item)
        script.down(0, x0, y0, at: 0)
        script.advance(to: 0.5)
        #expect(cv.isMovingItemInteractively, "the movement began at the lift (0.5 s)")
        var t = 0.5
        for (x, y) in path.dropLast() {
            t += 0.1
            script.move(0, x, y, at: t)
        }
        let (xe, ye) = path.last!
        if cancel { script.cancel(0, xe, ye, at: t + 0.1) } else { script.up(0, xe, ye, at: t + 0.1) }
        script.finish()
        #expect(!cv.isMovingItemInteractively)
        return Outcome(moves: model.moves.map { "\($0.0)→\($0.1)" }, values: model.sections[0], events: model.events,
                       shownMatchesLayout: cv.shown == cv.expected,
                       cellValues: cv.visibleCells.map { ($0 as! ValueCell).value! })
    }

    static let paths: [(String, Int, [(Double, Double)])] = [
        ("[0, 0] to the place of [0, 3]", 0, [(100, 100), center(3), center(3)]),
        ("[0, 5] back to the place of [0, 1]", 5, [center(4), center(1), center(1)]),
        ("[0, 2] out and back to its own place", 2, [center(8), center(2), center(2)]),
        ("[0, 7] to the place of [0, 0]", 7, [center(3), center(0), center(0)]),
    ]

    @Test("a drag inside the collection view moves the item as the long press's reordering does",
          arguments: 0..<paths.count)
    func agrees(_ index: Int) {
        let (_, item, path) = Self.paths[index]
        let byPress = reorder(byDrag: false, from: item, through: path)
        let byDrag = reorder(byDrag: true, from: item, through: path)
        #expect(byDrag == byPress, "\(Self.paths[index].0): the same moves, model, events and cells")
        #expect(byDrag.shownMatchesLayout)
    }

    @Test("a cancelled touch puts the item back by either path, and the data source is not told")
    func cancelledAgrees() {
        let path = [center(3), center(4)]
        let byPress = reorder(byDrag: false, from: 0, through: path, cancel: true)
        let byDrag = reorder(byDrag: true, from: 0, through: path, cancel: true)
        #expect(byDrag == byPress)
        #expect(byDrag.moves.isEmpty && byDrag.values == Array(0..<30))
    }

    @Test("UIKit's drop-based reordering: a drop outside the collection view cancels and puts the item back")
    func dropOutsideCancels() {
        let root = View(id: "root", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let (cv, _, model, _) = gridCollection()
        root.addSubview(cv)
        let script = Harness(root: root)
        model.clock = { [unowned script] in script.now }
        cv.installDragReordering()
        script.down(0, 50, 50, at: 0)
        script.advance(to: 0.5)
        script.move(0, 700, 50, at: 0.6)
        script.up(0, 700, 50, at: 0.7)
        script.finish()
        #expect(model.moves.isEmpty)
        #expect(model.sections[0] == Array(0..<30))
        #expect(script.drags.last?.operation == .cancel)
        #expect(cv.shown == cv.expected)
    }
}
