import GestureKit
import Testing
import GestureReplay
import GestureTestSupport

/// REPLAY.md's `contextMenu` kind and lines (an addition): a scene attaches a context menu to a
/// view, and the replay prints the interaction's transitions.
@Suite("Replaying context menus")
struct ContextMenuReplayTests {
    static let menuScene = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "photo", "frame": [200, 200, 600, 600], "parent": "root"} ],
      "recognizers": [
        {"id": "scroll", "kind": "pan", "view": "root"},
        {"id": "tap", "kind": "tap", "view": "photo"},
        {"id": "menu", "kind": "contextMenu", "view": "photo", "menu": [
          {"title": "Copy", "id": "copy", "image": "edit-copy-symbolic"},
          {"title": "Share", "id": "share", "attributes": ["disabled"]},
          {"title": "More", "children": [{"title": "Rename", "id": "rename", "state": "on"}]},
          {"title": "", "inline": true, "children": [{"title": "Delete", "id": "delete", "attributes": ["destructive"]}]} ] } ] }
    """

    @Test("UIKit: a real finger held on a Surface Pro 3 (ts-surface-pro3-hold-1f) lifts the preview at 0.25 s and opens the menu at 0.5 s, with no tap; the lines say so")
    func heldFingerOpensTheMenu() throws {
        let r = try Replayed("ts-surface-pro3-hold-1f.debug-events.txt", scene: scene(Self.menuScene))
        let menus = r.records.compactMap { if case let .contextMenu(m) = $0 { m } else { nil } }
        #expect(menus.map { "\($0.from)→\($0.to)" } == ["possible→lifting", "lifting→presented"], "\(menus)")
        #expect(menus.map(\.time.seconds) == [0.25, 0.5], "UIKit's timing from touch-down: \(menus.map(\.time.seconds))")
        #expect(menus.last?.actions == ["copy", "share", "rename", "delete"] && menus.last?.disabled == ["share"])
        #expect(r.count("tap", .ended) == 0 && r.count("menu", .began) == 1, "the menu's recognizer took the finger; no tap")
        let line = try #require(r.records.first { if case let .contextMenu(m) = $0 { m.to == "presented" } else { false } }?.jsonLine)
        #expect(line.hasPrefix(#"{"time":0.500000,"type":"contextMenu","interaction":"menu","view":"photo","from":"lifting","to":"presented","location":["#),
                "the JSON line: \(line)")
        #expect(line.hasSuffix(#""actions":["copy","share","rename","delete"],"disabled":["share"],"reason":"held: the menu opens"}"#), "\(line)")
    }

    @Test("a contact that begins while the menu is presented dismisses it (the replay draws no menu), and is handled as usual")
    func nextContactDismisses() throws {
        var records: [ReplayRecord] = []
        let session = try ReplaySession(scene: scene(Self.menuScene)) { records.append($0) }
        func touch(_ t: Double, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) {
            session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t), changes: [TouchChange(sourceID: id, phase: phase, location: Point(x: x, y: y))])))
        }
        touch(0, 1, .began, 500, 500)
        touch(0.8, 1, .ended, 500, 500)
        touch(2, 2, .began, 500, 500)
        touch(2.05, 2, .ended, 500, 500)
        session.finish()
        let menus = records.compactMap { if case let .contextMenu(m) = $0 { "\(m.time.seconds) \(m.from)→\(m.to): \(m.reason)" } else { nil } }
        #expect(menus == ["0.25 possible→lifting: held still: the preview lifts", "0.5 lifting→presented: held: the menu opens",
                          "2.0 presented→possible: a contact began outside the menu"], "\(menus)")
        #expect(records.contains { if case let .state(s) = $0 { s.recognizer == "tap" && s.to == .ended && s.time.seconds == 2.05 } else { false } },
                "the contact that dismissed the menu is still a tap")
    }

    @Test("a scene's context menu is checked before replay: a missing menu, an unknown attribute or key is named by its path",
          arguments: [
            (#"{"id": "m", "kind": "contextMenu", "view": "root"}"#, "recognizers[0] (\"m\").menu: missing (expected an array of menu entries)"),
            (#"{"id": "m", "kind": "contextMenu", "view": "root", "menu": [{"title": "A", "attributes": ["red"]}]}"#,
             "recognizers[0] (\"m\").menu[0].attributes[0]: unknown name \"red\" (expected one of destructive, disabled, hidden)"),
            (#"{"id": "m", "kind": "contextMenu", "view": "root", "menu": [{"title": "A", "colour": 1}]}"#,
             "recognizers[0] (\"m\").menu[0].colour: unknown key for a menu entry (expected one of title, id, image, attributes, state, children, inline)"),
            (#"{"id": "m", "kind": "contextMenu", "view": "root", "menu": []}"#,
             "recognizers[0] (\"m\").menu: expected a non-empty array of menu entries, found an array"),
          ])
    func badMenus(_ recognizer: String, _ message: String) throws {
        let error = #expect(throws: SceneError.self) {
            try scene(#"{"views": [{"id": "root", "frame": [0, 0, 100, 100]}], "recognizers": ["# + recognizer + "]}")
        }
        #expect(error?.description == message, "\(error?.description ?? "no error")")
    }
}
