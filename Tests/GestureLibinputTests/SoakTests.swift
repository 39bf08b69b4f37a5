import Foundation
import Testing
import GestureTestSupport

/// `gesturekit soak` for a minute (make soak runs it for ten): random gestures from the
/// touchscreen, touchpad and mouse recordings through real libinput under umockdev, on three
/// mock touchscreens, four touchpads and two mice, one of each unplugged mid-gesture.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct SoakTests {
    /// The kinds of device the soak plays, as its report names them, and how many of each a
    /// minute in segments of 20 s plugs in (a touchpad's segment is 15 s, a mouse's 30 s).
    static let devices = [("touchscreen", 3), ("touchpad", 4), ("mouse", 2)]

    @Test("a minute of random touchscreen, touchpad and mouse gestures through libinput: no crash, no recognizer stuck, memory flat, each kind acted on, and it says how fast")
    func oneMinute() throws {
        let run = try LibinputRecognitionTests.gesturekit(["soak", "--minutes", "1", "--segment", "20", "--seed", "7",
                                                           "--fixtures", Fixtures.directory.path])
        print(run.out)
        #expect(run.status == 0, "the soak passes: \(run.out)\n\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.last == "soak: passed", "it ends by saying it passed: \(lines.suffix(3))")
        #expect(lines.contains("soak: recognizers stuck: 0"), "no recognizer was found stuck")
        #expect(lines.contains("soak: sequences never ended: 0"), "every touch lifted, every button released, every gesture and scroll ended")
        for (kind, count) in Self.devices {
            let line = lines.first { $0.hasPrefix("soak: \(kind): devices added ") }
            #expect(line?.hasPrefix("soak: \(kind): devices added \(count), removed \(count);") == true,
                    "\(count) \(kind)s came and went: \(line ?? "no line for \(kind)")")
            let sequences = line.flatMap { Self.number(after: "; ", in: $0) } ?? 0
            let actions = line.flatMap { Self.number(after: "actions fired ", in: $0) } ?? 0
            #expect(sequences > 0, "the \(kind)s played gestures: \(line ?? "")")
            #expect(actions > 0, "the \(kind)s' events made recognizers act: \(line ?? "")")
            let unplugged = lines.first { $0.hasPrefix("soak: \(kind): ") && $0.contains("mock devices") }
            #expect(unplugged?.contains(" 1 unplugged mid-gesture") == true, "one \(kind) is unplugged mid-gesture: \(unplugged ?? "")")
            #expect(lines.contains { $0.hasPrefix("soak: \(kind): latency, kernel timestamp to its action: p50 ")
                        && $0.contains("p99 ") && !$0.contains("none") },
                    "it reports the latency from the \(kind)'s kernel timestamps to the actions")
        }
        #expect(lines.contains { $0.contains("deadline to its action") && $0.contains("p99 ") }, "it reports the latency from deadlines")
    }

    /// The integer in `line` right after the first `after`.
    static func number(after: String, in line: String) -> Int? {
        guard let start = line.range(of: after)?.upperBound else { return nil }
        return Int(line[start...].prefix { $0.isNumber })
    }
}
