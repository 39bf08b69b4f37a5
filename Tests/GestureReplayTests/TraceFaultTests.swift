import GestureFormat
import Foundation
import Testing
import GestureKit
import GestureReplay
import GestureTestSupport

/// Faults in recorded traces, replayed whole (`TraceReplay`, what `gesturekit replay` runs):
/// nothing crashes, every recognizer ends settled, and what was set aside or repaired is
/// reported as an `ignored` line.
@Suite("Faults in traces")
struct TraceFaultTests {
    /// The Wacom ISDv4 E6 (2 slots, 0…2776 × 0…1569) with the given events, evemu format:
    /// (seconds, "type code value") with type and code in hex.
    static func wacom(_ events: [(Double, String)]) -> String {
        let fixture = (try? String(contentsOfFile: Fixtures.path("ts-wacom-isdv4-e6-tap-2f.evemu"), encoding: .utf8)) ?? ""
        var text = "# EVEMU 1.2\n"
        for line in fixture.split(separator: "\n") where ["N:", "I:", "P:", "B:", "A:"].contains(line.prefix(2)) {
            text += line + "\n"
        }
        for (t, e) in events { text += "E: \(String(format: "%.6f", 100 + t)) \(e)\n" }
        return text
    }

    /// Slot `slot` goes down with tracking id `id` at (x, y) (device units).
    static func down(_ t: Double, slot: Int, id: Int, _ x: Int, _ y: Int) -> [(Double, String)] {
        [(t, "0003 002f \(slot)"), (t, "0003 0039 \(id)"), (t, "0003 0035 \(x)"), (t, "0003 0036 \(y)")]
    }
    static func move(_ t: Double, slot: Int, _ x: Int, _ y: Int) -> [(Double, String)] {
        [(t, "0003 002f \(slot)"), (t, "0003 0035 \(x)"), (t, "0003 0036 \(y)")]
    }
    static func up(_ t: Double, slot: Int) -> [(Double, String)] { [(t, "0003 002f \(slot)"), (t, "0003 0039 -1")] }
    static func syn(_ t: Double) -> [(Double, String)] { [(t, "0000 0000 0")] }

    /// Replays `events` through `scene` and checks what every fault test needs: the replay
    /// ends with every recognizer settled (its last transition final), and each touch a view
    /// began ends once.
    static func replay(_ events: [(Double, String)], scene: Scene = .defaultScene()) throws -> Replayed {
        // An event at 0 s, so that times are seconds from 100 s.
        let file = try TempFile(wacom([(0, "0000 0000 0")] + events), name: "fault.evemu")
        defer { file.remove() }
        let replayed = try Replayed(path: file.path, scene: scene)
        var last: [String: GestureRecognizer.State] = [:]
        for s in replayed.states { last[s.recognizer] = s.to }
        let settled = last.values.allSatisfy { $0.isFinal }
        #expect(settled, "every recognizer ends in a final state: \(last)")
        var open: Set<Int> = []
        for r in replayed.records {
            guard case let .touches(_, _, phase, ids, _) = r else { continue }
            for id in ids {
                switch phase {
                case .began: #expect(open.insert(id).inserted, "touch \(id) began once")
                case .moved: #expect(open.contains(id))
                case .ended, .cancelled: #expect(open.remove(id) != nil, "touch \(id) ends once, after it began")
                }
            }
        }
        #expect(open.isEmpty, "every touch a view saw began ended or was cancelled: \(open)")
        return replayed
    }

    static func ignored(_ r: Replayed) -> [String] {
        r.records.compactMap { if case let .ignored(time, reason) = $0 { "\(formatTime(time)) \(reason)" } else { nil } }
    }

    @Test("SYN_DROPPED mid-frame: the touches down are cancelled, the rest of the frame is discarded, and it is reported")
    func synDroppedMidFrame() throws {
        var e = Self.down(0, slot: 0, id: 10, 1000, 700) + Self.down(0, slot: 1, id: 11, 1200, 700) + Self.syn(0)
        e += Self.move(0.3, slot: 0, 1010, 700) + [(0.3, "0000 0003 0")]          // overflow mid-frame
        e += Self.move(0.31, slot: 1, 1210, 700) + Self.syn(0.31)                  // discarded
        e += Self.up(0.4, slot: 0) + Self.up(0.4, slot: 1) + Self.syn(0.4)
        e += Self.down(1, slot: 0, id: 12, 1000, 700) + Self.syn(1) + Self.up(1.05, slot: 0) + Self.syn(1.05)
        let r = try Self.replay(e)
        let lines = Self.ignored(r)
        #expect(lines.first == "0.300000 device 0: SYN_DROPPED (the kernel's buffer overflowed): its touches are cancelled, events up to the next SYN_REPORT discarded")
        #expect(lines.count == 1, "after the drop the slots start empty: the later lifts are of no touch, and say nothing: \(lines)")
        #expect(r.count("single", .ended) == 1, "the tap after the overflow is recognized")
        #expect(r.times("single", .ended).first.map { $0 > 1 } == true)
    }

    @Test("a tracking id reused: replaced without a lift, and the same id in two slots")
    func trackingIDReused() throws {
        var e = Self.down(0, slot: 0, id: 5, 1000, 700) + Self.syn(0)
        e += [(0.1, "0003 002f 0"), (0.1, "0003 0039 6")] + Self.syn(0.1)          // id 5 → 6 without -1
        e += Self.down(0.2, slot: 1, id: 6, 1300, 700) + Self.syn(0.2)             // id 6 again, in slot 1
        e += Self.up(0.3, slot: 0) + Self.syn(0.3) + Self.up(0.35, slot: 1) + Self.syn(0.35)
        let r = try Self.replay(e)
        let lines = Self.ignored(r)
        #expect(lines.contains("0.100000 device 0: slot 0 changed tracking id 5 → 6 without lifting: touch 5 ends, 6 begins"), "\(lines)")
        #expect(lines.contains("0.200000 touch 6 of device 0 began again while down: the earlier touch is cancelled"), "\(lines)")
        #expect(lines.contains("0.350000 touch 6 of device 0 ended but is not down"), "\(lines)")
    }

    @Test("more fingers than slots: a slot beyond the device's is ignored and reported")
    func moreFingersThanSlots() throws {
        var e = Self.down(0, slot: 0, id: 1, 1000, 700) + Self.down(0, slot: 1, id: 2, 1200, 700)
        e += Self.down(0, slot: 2, id: 3, 1400, 700) + Self.down(0, slot: -1, id: 4, 1400, 900) + Self.syn(0)
        e += Self.up(0.1, slot: 2) + Self.up(0.1, slot: 0) + Self.up(0.1, slot: 1) + Self.syn(0.1)
        let r = try Self.replay(e)
        let lines = Self.ignored(r)
        #expect(lines.contains("0.000000 device 0: ABS_MT_SLOT 2 is outside the device's 2 slots: its events are ignored"), "\(lines)")
        #expect(lines.contains("0.000000 device 0: ABS_MT_SLOT -1 is outside the device's 2 slots: its events are ignored"), "\(lines)")
        let began = r.records.flatMap { if case let .touches(_, _, .began, ids, _) = $0 { ids } else { [] } }
        #expect(began.count == 2, "the two fingers in range are replayed")
    }

    @Test("timestamps going backwards, then jumping hours ahead")
    func timestamps() throws {
        var e = Self.down(1, slot: 0, id: 1, 1000, 700) + Self.syn(1) + Self.up(1.05, slot: 0) + Self.syn(1.05)
        e += Self.down(0.5, slot: 0, id: 2, 1000, 700) + Self.syn(0.5)             // back in time
        e += Self.up(0.55, slot: 0) + Self.syn(0.55)
        e += Self.down(7200, slot: 0, id: 3, 1000, 700) + Self.syn(7200)           // two hours later
        e += Self.up(7200.05, slot: 0) + Self.syn(7200.05)
        let r = try Self.replay(e)
        let lines = Self.ignored(r)
        #expect(lines.contains { $0.hasPrefix("1.050000 input at 0.500000 s is earlier than 1.050000 s") }, "\(lines)")
        #expect(r.times("double", .ended) == [1.05], "the late second tap counts, at the engine's time")
        #expect(r.times("single", .ended).map { ($0 * 1000).rounded() / 1000 } == [7200.35], "after the jump, a tap")
    }

    @Test("a trace that ends with touches down: timers run out, then the touches are cancelled and reported")
    func endsWithTouchesDown() throws {
        let e = Self.down(0, slot: 0, id: 1, 1000, 700) + Self.syn(0) + Self.move(2, slot: 0, 1001, 700) + Self.syn(2)
        let r = try Self.replay(e)
        #expect(r.times("longPress", .began) == [0.5])
        #expect(Self.ignored(r) == ["2.000000 input ended with touches down: cancelling 1 touch"])
        #expect(r.times("longPress", .cancelled) == [2])
    }

    @Test("a scene with 10,000 recognizers parses, builds and replays a fixture in seconds")
    func tenThousandRecognizers() throws {
        var items: [String] = []
        let kinds = ["tap", "longPress", "pinch", "pan", "rotation", "swipe"]
        for i in 0..<10_000 {
            var item = #"{"id": "r\#(i)", "kind": "\#(kinds[i % kinds.count])", "view": "root""#
            if i % 6 == 0 { item += #", "taps": \#(1 + i % 3)"# }
            if i > 0 && i % 100 == 0 { item += #", "requireToFail": ["r\#(i - 1)"]"# }
            items.append(item + "}")
        }
        let json = #"{"recognizers": [\#(items.joined(separator: ",\n"))], "simultaneous": [["r2", "r4"]]}"#
        let clock = ContinuousClock()
        var replayed: Replayed?
        let elapsed = try clock.measure {
            replayed = try Replayed(Fixtures.all.first { $0.contains("wacom-isdv4-e6-double-tap") }!, scene: scene(json))
        }
        #expect(replayed?.states.isEmpty == false)
        var last: [String: GestureRecognizer.State] = [:]
        for s in replayed?.states ?? [] { last[s.recognizer] = s.to }
        let settled = last.values.allSatisfy { $0.isFinal }
        #expect(settled)
        // A guard against a hang or a quadratic blow-up (10,000 recognizers once took over
        // 12 minutes), not a speed goal: speed lives in Benchmarks/. Generous, so a loaded
        // machine does not trip it.
        #expect(elapsed < .seconds(150), "a 10,000-recognizer scene should replay in well under minutes; took \(elapsed)")
        print("10,000-recognizer scene: parsed, built and replayed in \(elapsed)")
    }

    /// Each require(toFail:) checks for a cycle, linearly: a chain of n costs n² (10,000 take
    /// about 20 s in a debug build), so the test uses 3,000.
    @Test("a chain of 3,000 recognizers, each requiring the one before to fail")
    func tenThousandChain() throws {
        var items: [String] = [#"{"id": "r0", "kind": "tap", "view": "root"}"#]
        for i in 1..<3_000 {
            items.append(#"{"id": "r\#(i)", "kind": "\#(i % 2 == 0 ? "tap" : "longPress")", "view": "root", "requireToFail": ["r\#(i - 1)"]}"#)
        }
        let json = #"{"recognizers": [\#(items.joined(separator: ",\n"))]}"#
        let clock = ContinuousClock()
        var replayed: Replayed?
        let elapsed = try clock.measure {
            replayed = try Replayed(Fixtures.all.first { $0.contains("wacom-isdv4-e6-tap-1f") }!, scene: scene(json))
        }
        #expect(replayed?.count("r0", .ended) == 1, "the head of the chain recognizes")
        #expect(replayed?.count("r2999", .failed) == 1, "the tail fails because its requirement recognized")
        #expect(elapsed < .seconds(30), "took \(elapsed)")
        print("3,000-recognizer chain: parsed, built and replayed in \(elapsed)")
    }
}
