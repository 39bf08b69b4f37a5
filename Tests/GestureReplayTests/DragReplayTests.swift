import GestureKit
import GestureReplay
import Testing

/// Drag and drop interactions in scenes, and the replay's `drag` lines (REPLAY.md's addition).
@Suite("Replay: drag and drop interactions")
struct DragReplayTests {
    static let sceneText = """
    {"screen": [1000, 1000],
     "views": [{"id": "root", "frame": [0, 0, 1000, 1000]},
               {"id": "photo", "frame": [0, 0, 200, 200], "parent": "root"},
               {"id": "trash", "frame": [600, 0, 200, 200], "parent": "root"}],
     "interactions": [
       {"id": "lift", "kind": "drag", "view": "photo", "items": [{"text/uri-list": "file:///p.jpg", "text/plain": "p.jpg"}]},
       {"id": "bin", "kind": "drop", "view": "trash", "accepts": ["text/uri-list"], "proposal": "PROPOSAL"}]}
    """

    func replay(proposal: String) throws -> [String] {
        var records: [ReplayRecord] = []
        let session = try ReplaySession(scene: scene(Self.sceneText.replacingOccurrences(of: "PROPOSAL", with: proposal))) {
            records.append($0)
        }
        func frame(_ t: Double, _ phase: TouchPhase, _ x: Double) {
            session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t),
                                                changes: [TouchChange(sourceID: 0, phase: phase, location: Point(x: x, y: 100))])))
        }
        frame(0, .began, 100)
        frame(0.6, .moved, 700)
        frame(0.7, .ended, 700)
        session.finish()
        return records.map(\.jsonLine)
    }

    @Test("UIKit: the lift after 0.5 s, entering the target, its proposal, the drop (the target reading the item's text/uri-list) and what the source was told, as drag lines")
    func copyLines() throws {
        #expect(try replay(proposal: "move") == [
            #"{"time":0.000000,"type":"touches","view":"photo","phase":"began","ids":[1]}"#,
            #"{"time":0.500000,"type":"state","recognizer":"photo.drag","from":"possible","to":"began","location":[100,100],"reason":"1 touch held 0.5 s"}"#,
            #"{"time":0.500000,"type":"drag","session":1,"phase":"began","view":"photo","location":[100,100],"items":1,"operation":"cancel","reason":"held 0.5 s"}"#,
            #"{"time":0.500000,"type":"drag","session":1,"phase":"moved","location":[100,100],"items":1,"operation":"cancel","reason":"over no drop target"}"#,
            #"{"time":0.500000,"type":"touches","view":"photo","phase":"cancelled","ids":[1]}"#,
            #"{"time":0.600000,"type":"state","recognizer":"photo.drag","from":"began","to":"changed","location":[700,100],"reason":"touches moved"}"#,
            #"{"time":0.600000,"type":"drag","session":1,"phase":"entered","view":"trash","location":[700,100],"items":1,"operation":"cancel","reason":"the drag came over it"}"#,
            #"{"time":0.600000,"type":"drag","session":1,"phase":"moved","view":"trash","location":[700,100],"items":1,"operation":"move","reason":"trash proposed move"}"#,
            #"{"time":0.700000,"type":"state","recognizer":"photo.drag","from":"changed","to":"ended","location":[700,100],"reason":"touches lifted"}"#,
            #"{"time":0.700000,"type":"drag","session":1,"phase":"moved","view":"trash","location":[700,100],"items":1,"operation":"move","reason":"trash proposed move"}"#,
            #"{"time":0.700000,"type":"drag","session":1,"phase":"dropped","view":"trash","location":[700,100],"items":1,"operation":"move","reason":"the touch lifted over it: move"}"#,
            #"{"time":0.700000,"type":"dropData","session":1,"view":"trash","item":0,"contentType":"text/uri-list","data":"file:///p.jpg"}"#,
            #"{"time":0.700000,"type":"drag","session":1,"phase":"ended","view":"photo","location":[700,100],"items":1,"operation":"move","reason":"dropped on trash"}"#,
        ])
    }

    @Test("UIKit: a drop on a forbidden target ends the session with cancel")
    func forbiddenLines() throws {
        let lines = try replay(proposal: "forbidden")
        #expect(lines.last == #"{"time":0.700000,"type":"drag","session":1,"phase":"ended","view":"photo","location":[700,100],"items":1,"operation":"cancel","reason":"the touch lifted over trash, which proposed forbidden"}"#)
        #expect(!lines.contains { $0.contains(#""phase":"dropped""#) })
    }

    @Test("a bad interaction is rejected naming its key", arguments: [
        (#"{"interactions": [{"id": "d", "kind": "fling", "view": "root"}]}"#, #"interactions[0] ("d").kind: unknown kind "fling" (expected drag or drop)"#),
        (#"{"interactions": [{"id": "d", "kind": "drop", "view": "nowhere"}]}"#, #"interactions[0] ("d").view: unknown view "nowhere""#),
        (#"{"interactions": [{"id": "d", "kind": "drop", "view": "root", "proposal": "steal"}]}"#, #"interactions[0] ("d").proposal: unknown proposal "steal" (expected one of cancel, forbidden, copy, move)"#),
        (#"{"interactions": [{"id": "d", "kind": "drop", "view": "root", "accepts": ["uri-list"]}]}"#, #"interactions[0] ("d").accepts[0]: expected a MIME type (type/subtype), found "uri-list""#),
        (#"{"interactions": [{"id": "d", "kind": "drag", "view": "root", "proposal": "copy"}]}"#, #"interactions[0] ("d").proposal: unknown key for a drag interaction (expected one of addItems, allowsMove, enabled, id, items, kind, liftDelay, view)"#),
        (#"{"interactions": [{"id": "d", "kind": "drag", "view": "root", "items": [{}]}]}"#, #"interactions[0] ("d").items[0]: expected an object of MIME types and their data, found an object"#),
    ])
    func badInteraction(_ text: String, _ message: String) {
        #expect(throws: SceneError.self) { try scene(text) }
        do { _ = try scene(text) } catch { #expect("\(error)" == message) }
    }
}
