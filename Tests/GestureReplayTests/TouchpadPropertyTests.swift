import Foundation
import GestureKit
import GestureTraces
import Testing
import GestureReplay
import GestureTestSupport

/// Random touchpad recordings (the Elantech pad's description, one to four fingers landing,
/// wandering, clicking and lifting) replayed through a scene with every recognizer kind:
/// the rules that hold whatever the fingers do.
@Suite("Touchpads under random input")
struct TouchpadPropertyTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["GESTUREKIT_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 1...UInt64.max)

    static let sceneJSON = """
    { "views": [ {"id": "root", "frame": [0, 0, 1000, 1000]}, {"id": "left", "frame": [0, 0, 500, 1000], "parent": "root"} ],
      "recognizers": [
        {"id": "tap", "kind": "tap", "view": "left"}, {"id": "press", "kind": "longPress", "view": "root"},
        {"id": "pan", "kind": "pan", "view": "root"}, {"id": "scroll", "kind": "pan", "view": "root", "allowedScrollTypes": ["continuous"]},
        {"id": "pinch", "kind": "pinch", "view": "left"}, {"id": "rotate", "kind": "rotation", "view": "root"},
        {"id": "swipe", "kind": "swipe", "view": "root"}, {"id": "hover", "kind": "hover", "view": "left"} ],
      "simultaneous": [["pinch", "rotate"], ["pan", "scroll"], ["hover", "tap"]] }
    """

    /// A random recording of `frames` SYN_REPORTs, 8–20 ms apart, on the pad of `description`.
    static func recording(seed: UInt64, frames: Int,
                          description: EvdevDeviceDescription) -> [EvdevEvent] {
        var random = SeededRandom(seed: seed)
        var events: [EvdevEvent] = []
        var t: Int64 = 0
        var fingers: [Int: (x: Int32, y: Int32, id: Int32)] = [:]   // slot → position
        var nextID: Int32 = 100
        var button = false
        let maxX = description.absInfo[.absMTPositionX]?.maximum ?? 3000, maxY = description.absInfo[.absMTPositionY]?.maximum ?? 2000
        func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(EvdevEvent(time: Instant(nanoseconds: t), type: type, code: code, value: value))
        }
        for _ in 0..<frames {
            t += Int64(random.next(8...20)) * 1_000_000
            let roll = random.next(0...99)
            if roll < 12, fingers.count < 4 {
                let slot = (0..<4).first { fingers[$0] == nil }!
                fingers[slot] = (Int32(random.next(0...Int(maxX))), Int32(random.next(0...Int(maxY))), nextID)
                add(.abs, .absMTSlot, Int32(slot))
                add(.abs, .absMTTrackingID, nextID)
                nextID += 1
            } else if roll < 20, !fingers.isEmpty {
                let slots = fingers.keys.sorted(), slot = slots[random.next(0...(slots.count - 1))]
                fingers[slot] = nil
                add(.abs, .absMTSlot, Int32(slot))
                add(.abs, .absMTTrackingID, -1)
            } else if roll < 25, !fingers.isEmpty {
                button.toggle()
                add(.key, .btnLeft, button ? 1 : 0)
            }
            for slot in fingers.keys.sorted() {
                guard var f = fingers[slot] else { continue }
                let step = random.next(0...2) == 0 ? 40 : 6
                f.x = min(max(0, f.x + Int32(random.next(-step...step))), maxX)
                f.y = min(max(0, f.y + Int32(random.next(-step...step))), maxY)
                fingers[slot] = f
                add(.abs, .absMTSlot, Int32(slot))
                add(.abs, .absMTPositionX, f.x)
                add(.abs, .absMTPositionY, f.y)
            }
            add(.key, .btnTouch, fingers.isEmpty ? 0 : 1)
            if let first = fingers.keys.min().flatMap({ fingers[$0] }) {
                add(.abs, .absX, first.x)
                add(.abs, .absY, first.y)
            }
            add(.syn, .synReport, 0)
        }
        t += 10_000_000
        for slot in fingers.keys.sorted() {
            add(.abs, .absMTSlot, Int32(slot))
            add(.abs, .absMTTrackingID, -1)
        }
        if button { add(.key, .btnLeft, 0) }
        add(.key, .btnTouch, 0)
        add(.syn, .synReport, 0)
        return events
    }

    @Test("no view ever receives a touchpad's contacts (only its clicks, one touch each), and every recognizer ends back in possible",
          arguments: 0..<20)
    func contactsNeverReachViews(_ index: Int) throws {
        let fixture = try TraceReader(path: Fixtures.path("synthetic-tp-elantech-click-1f.evemu"))
        let description = try #require(fixture.devices.first?.description)
        let caseSeed = Self.seed &+ UInt64(index)
        let events = Self.recording(seed: caseSeed, frames: 200, description: description)
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-random-touchpad.evemu"
        try TraceWriter.evemu(description: description, events: events).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var presses = 0, gestures = 0
        try TraceReader(path: path).run { event in
            if case let .pointer(p) = event, p.kind == .button, p.pressed { presses += 1 }
            if case .touchpadGesture = event { gestures += 1 }
            if case .touchFrame = event { Issue.record("the decoder made a touch frame of the pad's contacts (seed \(caseSeed))") }
        }
        let r = try Replayed(path: path, scene: scene(Self.sceneJSON))
        // A hold (fingers resting) begins no recognizer: the pad deciding one is something.
        #expect(gestures > 0 || r.states.contains { $0.recognizer != "hover" },
                "seed \(caseSeed): the fingers did something besides moving the pointer (a touchpad gesture, or a recognizer)")
        var delivered = Set<Int>()
        for record in r.records { if case let .touches(_, _, _, ids, _) = record { delivered.formUnion(ids) } }
        #expect(delivered.count <= presses, "seed \(caseSeed): \(delivered.count) touches reached views for \(presses) clicks")
        var state: [String: GestureRecognizer.State] = [:]
        for s in r.states {
            #expect((state[s.recognizer] ?? .possible) == s.from, "seed \(caseSeed): \(s.recognizer) went from \(s.from), was \(state[s.recognizer] ?? .possible)")
            state[s.recognizer] = s.to.isFinal ? .possible : s.to
        }
        #expect(state.values.allSatisfy { $0 == .possible }, "seed \(caseSeed): every recognizer ends in possible: \(state)")
    }
}

/// The seeded generator of reproducible recordings (GestureTestSupport's).
extension SeededRandom {
    mutating func next(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
}
