import Foundation
import Testing
import GestureKit
import GestureLayout
import GestureReplay
import GestureTestSupport

/// The scene's `layout` key: a flow layout driven by recorded gestures.
@Suite("Layouts driven by replayed gestures")
struct LayoutReplayTests {
    static func layoutScene(sections: [Int]) -> String {
        """
        {
          "views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
          "recognizers": [
            {"id": "pinch", "kind": "pinch", "view": "root"},
            {"id": "tap", "kind": "tap", "view": "root"},
            {"id": "press", "kind": "longPress", "view": "root"}
          ],
          "layout": { "kind": "flow", "sections": \(sections), "itemSize": [80, 120], "minimumLineSpacing": 20,
            "minimumInteritemSpacing": 10, "sectionInset": [10, 20, 10, 20], "headerReferenceSize": [300, 50],
            "footerReferenceSize": [300, 50], "pinch": "pinch", "select": "tap", "reorder": "press" }
        }
        """
    }

    @Test("a recorded pinch: its began and each change set itemSize = itemSizeAtBegan × scale and print a layout line",
          arguments: ["ts-surface-pro3-pinch-out-3f.debug-events.txt", "ts-surface-pro3-pinch-in-3f.debug-events.txt"])
    func pinchDrivesItemSize(_ fixture: String) throws {
        let r = try Replayed(fixture, scene: try scene(LayoutReplayTests.layoutScene(sections: [12, 5])))
        var lastScale: Double?
        var layouts = 0
        for record in r.records {
            switch record {
            case let .state(s) where s.recognizer == "pinch" && (s.to == .began || s.to == .changed):
                lastScale = s.values.scale
            case let .layout(_, itemSize, contentSize):
                layouts += 1
                let scale = try #require(lastScale, "a layout line follows the pinch's began or a change")
                #expect(abs(itemSize.width - 80 * scale) < 1e-9 && abs(itemSize.height - 120 * scale) < 1e-9,
                        "itemSize \(itemSize) = 80×120 × \(scale), never a product of successive scales")
                // 1000 pt wide; 960 between the insets; lines of as many items as fit.
                let perLine = max(1, Int((960 + 10) / (itemSize.width + 10)))
                func sectionHeight(_ n: Int) -> Double {
                    let lines = Double((n + perLine - 1) / perLine)
                    return 50 + 10 + lines * itemSize.height + (lines - 1) * 20 + 10 + 50
                }
                #expect(abs(contentSize.height - (sectionHeight(12) + sectionHeight(5))) < 1e-6, "contentSize \(contentSize)")
                lastScale = nil
            default:
                break
            }
        }
        #expect(layouts == r.count("pinch", .began) + r.count("pinch", .changed),
                "one layout invalidation at the pinch's began and one per change (the collection view's installPinchToResize)")
        #expect(layouts > 10)
    }

    @Test("a recorded tap selects the item under it")
    func tapSelects() throws {
        // The Wacom tap lands at (457, 452) on the 1000-pt screen: section 0's items start at
        // y 60 (header 50, inset 10), lines 120 + 20 apart: y 452 is the third line (340–460);
        // ten items fit a line, 97.78 pt apart from x 20: x 457 is the fifth column (411–491).
        let r = try Replayed("ts-wacom-isdv4-e6-tap-1f.evemu", scene: try scene(LayoutReplayTests.layoutScene(sections: [30])))
        let select = r.records.compactMap { if case let .select(_, s, i, id) = $0 { [s, i, id] } else { nil } }
        #expect(select == [[0, 24, 24]])
    }

    @Test("a long press and drag moves the item it picked up to where it was released")
    func longPressReorders() throws {
        // Picked up at (251, 384): third line, third column → [0, 22]; released at (555, 421):
        // third line, sixth column → [0, 25].
        let sceneJSON = LayoutReplayTests.layoutScene(sections: [30])
        let records = try Replayed("synthetic-ts-wacom-long-press-drag-1f.evemu", scene: try scene(sceneJSON)).records
        let moves = records.compactMap { if case let .move(_, from, to, id) = $0 { [from, to, [id]] } else { nil } }
        #expect(moves == [[[0, 22], [0, 25], [22]]])
        let json = records.map(\.jsonLine).filter { $0.contains("\"type\":\"move\"") }
        #expect(json == [#"{"time":1.509999,"type":"move","from":[0,22],"to":[0,25],"item":22}"#])
    }

    @Test("--layout-svg draws the layout as the replay leaves it")
    func layoutPicture() throws {
        let sceneFile = try TempFile(LayoutReplayTests.layoutScene(sections: [30]), name: "scene.json")
        defer { sceneFile.remove() }
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let (status, _, err) = try runTool(["replay", Fixtures.path("synthetic-ts-wacom-long-press-drag-1f.evemu"),
                                            "--scene", sceneFile.path, "--layout-svg", svg])
        #expect(status == 0, "\(err)")
        let drawing = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawing.contains("Section 0 header") && drawing.contains("Section 0 footer"))
        #expect(drawing.contains("[0,25] moved"), "the moved item is marked where it landed")
    }

    @Test("the replay's layout is the collection view apps get: a touch that ends on an item selects it, as UICollectionView's does")
    func touchSelectsThroughTheCollectionView() throws {
        // No recognizer on the root takes the tap (a pan fails, nothing else is there), so the
        // touch reaches the collection view to its end: the item under it, [0, 24] (as in
        // `tapSelects`), is selected by the collection view itself (didSelectItemAt).
        let json = """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
             "recognizers": [{"id": "pan", "kind": "pan", "view": "root"}],
             "layout": {"kind": "flow", "sections": [30], "itemSize": [80, 120], "minimumLineSpacing": 20,
               "minimumInteritemSpacing": 10, "sectionInset": [10, 20, 10, 20], "headerReferenceSize": [300, 50],
               "footerReferenceSize": [300, 50]}}
            """
        var records: [ReplayRecord] = []
        let session = try TraceReplay.run(path: Fixtures.path("ts-wacom-isdv4-e6-tap-1f.evemu"), scene: try scene(json)) {
            records.append($0)
        }
        let collectionView = try #require(session.live.collectionView, "a scene with a layout has a collection view")
        #expect(session.live.views.first?.view === collectionView, "the collection view is the scene's first root view")
        let select = records.compactMap { if case let .select(_, s, i, id) = $0 { [s, i, id] } else { nil } }
        #expect(select == [[0, 24, 24]], "the touch selected the item it ended on")
        #expect(collectionView.indexPathsForSelectedItems == [LayoutIndexPath(item: 24, section: 0)],
                "the collection view holds the selection")
        #expect(session.live.selectedItems == [24])
        let touches = records.compactMap { if case let .touches(_, view, _, _, _) = $0 { view } else { nil } }
        #expect(Set(touches) == ["root"], "the cells take no touches: deliveries name the root")
    }
}
