import GestureKit
import GestureLayout
import Testing

/// The photos of the "Scrolling" sample of the article "Layouts and the collection view".
final class Photos: CollectionViewDataSource {
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 10_000 }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
    }
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {}
}

/// The "Scrolling" sample of the article "Layouts and the collection view", word for word between
/// the markers (ReadmeTests checks the article against it); this test runs it.
func readmeScrollingSample(_ engine: GestureEngine, _ photos: Photos, _ say: @escaping (String) -> Void) -> CollectionView {
    // readme:scrolling:begin
    let layout = FlowLayout(dataSource: nil, boundsSize: .zero)
    layout.itemSize = Size(width: 120, height: 120)
    let grid = CollectionView(frame: Rect(x: 0, y: 0, width: 390, height: 844), layout: layout)
    grid.register({ CollectionViewCell() }, forCellWithReuseIdentifier: "photo")
    grid.dataSource = photos   // weak, as UIKit's
    engine.addRoot(grid)

    // One finger, a touchpad's two fingers or a wheel scroll it; a fling slows down by
    // 0.998 a millisecond (.fast: 0.99) on the engine's display link, bounces at the ends.
    grid.decelerationRate = .normal
    grid.onScroll = { grid in
        if grid.scrollPhase == .rest { say("at rest at y = \(grid.contentOffset.y)") }
    }
    // readme:scrolling:end
    return grid
}

@Suite("README scrolling sample")
struct ReadmeScrollingSampleTests {
    @Test("the sample's grid flings under a finger, scrolls with a wheel without a fling, and says where it rests")
    func sampleScrolls() throws {
        let engine = GestureEngine()
        let photos = Photos()
        var said: [String] = []
        let grid = readmeScrollingSample(engine, photos) { said.append($0) }
        // A finger flicks up at 1500 pt/s and lifts while moving.
        engine.send(TouchFrame(time: .zero, changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 200, y: 700))]))
        for k in 1...15 {
            engine.send(TouchFrame(time: Instant(seconds: Double(k) * 0.01),
                                   changes: [TouchChange(sourceID: 0, phase: .moved, location: Point(x: 200, y: 700 - 15 * Double(k)))]))
        }
        engine.send(TouchFrame(time: Instant(seconds: 0.16), changes: [TouchChange(sourceID: 0, phase: .ended, location: Point(x: 200, y: 460))]))
        #expect(grid.isDecelerating, "the content keeps moving after the finger lifts")
        engine.finish()
        let flung = grid.contentOffset.y
        #expect(flung > 225 + 500, "the fling carried the content well past the drag's 225 pt: \(flung)")
        #expect(said == ["at rest at y = \(flung)"], "it says once where it rests: \(said)")
        // Two wheel detents back (content up 30 pt), no fling.
        for k in 0..<2 {
            engine.send(.scroll(Point(x: 0, y: -15), .discrete, at: Point(x: 200, y: 400), time: Instant(seconds: 10 + Double(k) * 0.05)))
        }
        engine.finish()
        #expect(grid.contentOffset.y == flung + 30, "two detents move the content 30 pt and it stays: \(grid.contentOffset.y)")
        #expect(said.count == 2 && grid.visibleCells.count > 20, "\(said), \(grid.visibleCells.count) cells in view")
    }
}
