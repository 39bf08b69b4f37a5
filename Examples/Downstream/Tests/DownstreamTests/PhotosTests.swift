@testable import DownstreamApp
import GestureKit
import GestureLayout
import GestureTesting
import Testing

@Suite("The photo collection")
struct PhotosTests {
    let photos = Photos(frame: Rect(x: 0, y: 0, width: 340, height: 600))

    @Test("Flung upwards, the collection keeps scrolling after the finger lifts, then comes to rest")
    func flingScrollsAndComesToRest() throws {
        let tester = GestureTester(root: photos.collection)
        try tester.fling(on: photos.collection, by: Point(x: 0, y: -300), velocity: 1500)
        let released = photos.collection.contentOffset.y
        #expect(photos.collection.isDecelerating, "released at 1,500 pt/s, it keeps moving")
        try tester.settle()
        #expect(!photos.collection.isDecelerating && tester.pending.isEmpty, "it has come to rest")
        // UIKit's normal deceleration carries 1.5 pt/ms on for 1.5 × 499 = 748.5 pt.
        let travelled = photos.collection.contentOffset.y - released
        #expect(abs(travelled - 748.5) < 15, "it travelled \(travelled) pt after the finger lifted")
    }

    @Test("A tap on a photo selects that photo")
    func tapSelects() throws {
        let tester = GestureTester(root: photos.collection)
        let fifth = LayoutIndexPath(item: 4, section: 0)
        let cell = try #require(photos.collection.cellForItem(at: fifth))
        try tester.tap(on: cell)
        try tester.settle()
        #expect(photos.selected == [fifth])
    }
}
