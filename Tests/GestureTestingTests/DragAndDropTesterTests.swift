import GestureKit
import GestureTestSupport
import GestureTesting
import Testing

@Suite("Drag and drop from parameters: GestureTester.dragAndDrop")
struct DragAndDropTesterTests {
    final class Screen {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let photo = View(id: "photo", frame: Rect(x: 50, y: 50, width: 200, height: 200))
        let album = View(id: "album", frame: Rect(x: 500, y: 50, width: 200, height: 200))
        let source = RecordingDragSource()
        let target: RecordingDropTarget

        init(proposal: DropOperation) {
            target = RecordingDropTarget(proposal: proposal)
            root.addSubview(photo)
            root.addSubview(album)
            photo.addInteraction(DragInteraction(delegate: source))
            album.addInteraction(DropInteraction(delegate: target))
        }
    }

    @Test("UIKit: a finger held for the lift, moved to a target proposing copy and lifted: the source is told copy")
    func touchCopies() throws {
        let screen = Screen(proposal: .copy)
        let tester = GestureTester(root: screen.root)
        let outcome = try tester.dragAndDrop(from: screen.photo, to: screen.album)
        #expect(outcome == DragOutcome(operation: .copy, target: "album", items: 1, reason: "dropped on album"))
        #expect(screen.target.dropped == ["file:///photos/one.jpg\r\n"])
    }

    @Test("UIKit: a mouse drag onto a forbidden target cancels, and the source is told cancel")
    func pointerForbidden() throws {
        let screen = Screen(proposal: .forbidden)
        let tester = GestureTester(root: screen.root)
        let outcome = try tester.dragAndDrop(from: screen.photo, to: screen.album, using: .pointer)
        #expect(outcome.operation == .cancel && outcome.target == nil)
        #expect(outcome.reason == "the touch lifted over album, which proposed forbidden")
        #expect(screen.source.outcomes == [.cancel])
    }

    @Test("a drag that never lifts throws, with the lift's account")
    func noDragThrows() throws {
        let screen = Screen(proposal: .copy)
        screen.source.items = { _ in [] }
        let tester = GestureTester(root: screen.root)
        #expect {
            try tester.dragAndDrop(from: screen.photo, to: screen.album)
        } throws: { error in
            "\(error)".contains("the drag interaction's delegate gave no items")
        }
    }
}
