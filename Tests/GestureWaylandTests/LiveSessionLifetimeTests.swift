import GestureKit
import GestureLibinput
import GestureLive
import GestureReplay
import Testing

/// A live session (GestureLive) is freed once released, after the events its input loop hands it
/// (a device, a flick on a scrolling scene, the device unplugged mid-gesture).
@Suite("Live session: lifetime")
struct LiveSessionLifetimeTests {
    @Test("a live session, its scene's engine, views and recognizers are freed once released, a touch left down when its device went away")
    func liveSessionIsFreed() throws {
        let scene = try Scene.parse(JSONParser.parse("""
        { "screen": [1000, 1000], "views": [{ "id": "root", "frame": [0, 0, 1000, 1000] }],
          "recognizers": [ { "id": "tap", "kind": "tap", "view": "root" }, { "id": "pan", "kind": "pan", "view": "root" },
                           { "id": "press", "kind": "longPress", "view": "root" } ],
          "layout": { "kind": "flow", "sections": [100], "itemSize": [120, 90], "select": "tap", "reorder": "press", "scroll": "pan" } }
        """))
        weak var session: LiveSession?
        weak var engine: GestureEngine?
        var records = 0
        try {
            let live = try LiveSession(scene: scene) { _ in records += 1 }
            let device = InputDeviceID(3)
            live.handle(.deviceAdded(InputDeviceInfo(id: device, name: "touchscreen", systemName: "event3", kind: .touchscreen,
                                                        capabilities: [.touch], sizeMillimetres: Size(width: 200, height: 200))))
            for i in 0...6 {
                live.handle(.touchFrame(TouchFrame(time: Instant(seconds: 0.016 * Double(i)), device: device, deviceKind: .touchscreen,
                                                   changes: [TouchChange(sourceID: 1, phase: i == 0 ? .began : .moved,
                                                                         location: Point(x: 500, y: 800 - 50 * Double(i)))])))
            }
            live.handle(.deviceRemoved(device, time: nil))
            live.advance(to: Instant(seconds: 0.5))
            (session, engine) = (live, live.engine)
        }()
        #expect(records > 0, "the session recorded what the scene recognized")
        #expect(session == nil, "the live session is freed")
        #expect(engine == nil, "its engine is freed")
    }
}
