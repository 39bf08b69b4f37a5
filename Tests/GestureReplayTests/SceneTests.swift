import GestureFormat
import Testing
import GestureKit
import GestureReplay

@Suite("Scenes")
struct SceneTests {
    static let example = """
    {
      "screen": [1000, 1000],
      "views": [
        { "id": "root", "frame": [0, 0, 1000, 1000] },
        { "id": "cell", "frame": [100, 100, 200, 200], "parent": "root" }
      ],
      "recognizers": [
        { "id": "single", "kind": "tap", "view": "root", "requireToFail": ["double"] },
        { "id": "double", "kind": "tap", "view": "root", "taps": 2 },
        { "id": "press", "kind": "longPress", "view": "cell", "minimumPressDuration": 0.5,
          "cancelsTouchesInView": false },
        { "id": "pinch", "kind": "pinch", "view": "root" },
        { "id": "rotate", "kind": "rotation", "view": "root" }
      ],
      "simultaneous": [["pinch", "rotate"]]
    }
    """

    @Test("the example scene of REPLAY.md parses")
    func example() throws {
        let scene = try Scene.parse(JSONParser.parse(SceneTests.example))
        #expect(scene.views.map(\.id) == ["root", "cell"])
        #expect(scene.recognizers.map(\.id) == ["single", "double", "press", "pinch", "rotate"])
        #expect(scene.recognizers[1].parameters["taps"] == 2)
        #expect(scene.recognizers[2].cancelsTouchesInView == false)
        #expect(scene.simultaneous == [["pinch", "rotate"]])
        let live = try LiveScene(scene)
        #expect(live.engine.hitTest(Point(x: 150, y: 150))?.id == "cell")
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let json: String
        let error: String
        var testDescription: String { error }
    }

    static let bad: [Bad] = [
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "root", "allowedTouchTypes": ["finger"]}]}"#,
            error: #"recognizers[0] ("a").allowedTouchTypes[0]: unknown name "finger" (expected one of direct, indirect, indirectPointer, pencil)"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "pan", "view": "root", "direction": "diagonal"}]}"#,
            error: #"recognizers[0] ("a").direction: unknown direction "diagonal" (expected one of all, horizontal, vertical)"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "pan", "view": "root", "direction": ["horizontal"]}]}"#,
            error: #"recognizers[0] ("a").direction: expected one of all, horizontal, vertical, found an array"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "pinch", "view": "root", "direction": "horizontal"}]}"#,
            error: #"recognizers[0] ("a").direction: unknown key for a pinch (expected one of allowedTouchTypes, cancelsTouchesInView, delaysTouchesBegan, delaysTouchesEnded, enabled, id, kind, requireToFail, threshold, view)"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "pan", "view": "root", "allowedScrollTypes": "discrete"}]}"#,
            error: #"recognizers[0] ("a").allowedScrollTypes: expected an array of names (continuous, discrete), found a string"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tapp", "view": "root"}]}"#,
            error: #"recognizers[0] ("a").kind: unknown kind "tapp" (expected one of tap, longPress, pinch, pan, rotation, swipe, hover, screenEdgePan, contextMenu)"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "nowhere"}]}"#,
            error: #"recognizers[0] ("a").view: unknown view "nowhere""#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "root", "requireToFail": ["b"]}]}"#,
            error: #"recognizers[0] ("a").requireToFail[0]: unknown recognizer "b""#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "root", "requireToFail": ["b"]}, {"id": "b", "kind": "tap", "view": "root", "requireToFail": ["a"]}]}"#,
            error: "requireToFail: cycle: a → b → a"),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "root", "taps": "two"}]}"#,
            error: #"recognizers[0] ("a").taps: expected a number, found a string"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "root", "taps": 1.5}]}"#,
            error: #"recognizers[0] ("a").taps: expected a whole number from 1 to 1000, found 1.5"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "pinch", "view": "root", "taps": 2}]}"#,
            error: #"recognizers[0] ("a").taps: unknown key for a pinch (expected one of allowedTouchTypes, cancelsTouchesInView, delaysTouchesBegan, delaysTouchesEnded, enabled, id, kind, requireToFail, threshold, view)"#),
        Bad(json: #"{"recognizers": [{"id": "a", "kind": "tap", "view": "root", "enabled": "yes"}]}"#,
            error: #"recognizers[0] ("a").enabled: expected true or false, found a string"#),
        Bad(json: #"{"simultaneous": [["a", "b"]]}"#, error: #"simultaneous[0][0]: unknown recognizer "a""#),
        Bad(json: #"{"screen": [1000]}"#, error: "screen: expected [width, height], found an array of 1"),
        Bad(json: #"{"views": [{"id": "a", "frame": [0, 0, 10, 10], "parent": "b"}, {"id": "b", "frame": [0, 0, 10, 10], "parent": "a"}]}"#,
            error: #"views[0] ("a").parent: cycle: a → b → a"#),
        Bad(json: #"{"layout": {"kind": "flow", "sections": [3], "itemSize": [80, 120], "pinch": "zoom"}}"#,
            error: #"layout.pinch: unknown recognizer "zoom""#),
        Bad(json: #"{"screens": [1, 1]}"#,
            error: "screens: unknown key (expected one of comment, description, input, interactions, layout, recognizers, screen, simultaneous, views)"),
        Bad(json: "[1, 2]", error: "expected a JSON object at the top of the scene, found an array"),
    ]

    @Test("a pan's direction key: horizontal, vertical or all (the default), on the recognizer the scene builds")
    func panDirection() throws {
        let parsed = try scene("""
        {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
         "recognizers": [
           {"id": "carousel", "kind": "pan", "view": "root", "direction": "horizontal"},
           {"id": "list", "kind": "pan", "view": "root", "direction": "vertical"},
           {"id": "free", "kind": "pan", "view": "root", "direction": "all"},
           {"id": "plain", "kind": "pan", "view": "root"}]}
        """)
        #expect(parsed.recognizers.map(\.panDirections) == [.horizontal, .vertical, .all, .all])
        let live = try LiveScene(parsed)
        let built = live.engine.roots[0].gestureRecognizers.compactMap { $0 as? PanGestureRecognizer }
        #expect(built.map(\.allowedDirections) == [.horizontal, .vertical, .all, .all],
                "the scene's directions reach the recognizers")
    }

    @Test("a bad scene is rejected with an error naming the offending key", arguments: bad)
    func rejected(_ c: Bad) throws {
        let json = try JSONParser.parse(c.json)
        #expect(throws: SceneError.self) { try Scene.parse(json) }
        do {
            _ = try Scene.parse(json)
        } catch let e as SceneError {
            #expect(e.description == c.error)
        }
    }

    @Test("malformed JSON names the line and column", arguments: [
        ("{\n  \"screen\": [1000, 1000,]\n}", "2:25: expected a value, found ']'"),
        ("{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\""),
        ("", "1:1: expected a JSON value, found an empty document"),
        ("{\"a\": tru}", "1:7: expected 'true', found 't'"),
        (String(repeating: "[", count: 300), "1:257: nesting deeper than 256 levels"),
    ])
    func malformed(_ text: String, _ message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        do { _ = try JSONParser.parse(text) } catch let e as JSONSyntaxError { #expect(e.description == message) } catch {}
    }

    @Test("the default scene: single tap requiring double tap, double tap, long press, pinch on the root")
    func defaultScene() throws {
        var records: [ReplayRecord] = []
        let session = try ReplaySession(scene: .defaultScene()) { records.append($0) }
        func frame(_ t: Double, _ phase: TouchPhase) {
            session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t), changes: [TouchChange(sourceID: 0, phase: phase, location: Point(x: 500, y: 500))])))
        }
        frame(0, .began); frame(0.05, .ended)
        frame(0.2, .began); frame(0.25, .ended)
        session.finish()
        let states = records.compactMap { r -> String? in
            if case let .state(s) = r { return "\(s.recognizer) \(s.to.rawValue)" }
            return nil
        }
        // The first touch's lift ends the long press and the pinch; the second touch is
        // the double tap's, which excludes them and makes the waiting single tap fail.
        #expect(states == ["longPress failed", "pinch failed", "double ended", "single failed", "longPress failed", "pinch failed"])
        #expect(records.contains { $0.jsonLine == #"{"time":0.250000,"type":"touches","view":"root","phase":"cancelled","ids":[1,2]}"# },
                "the default delaysTouchesEnded holds touch 1's end, so the view gets both touches cancelled")
    }

    @Test("JSON numbers: six decimals at most, no exponent, no negative zero")
    func numbers() {
        #expect(jsonNumber(0.1 + 0.2) == "0.3")
        #expect(jsonNumber(-0.0000001) == "0")
        #expect(jsonNumber(1e-5) == "0.00001")
        #expect(jsonNumber(123456.5) == "123456.5")
        #expect(jsonNumber(2) == "2")
        #expect(jsonString("a\"b\n") == #""a\"b\n""#)
    }
}
