import Foundation
import Testing

/// `gesturekit soak` for a minute (make soak runs it for ten): random gestures from the
/// recordings through real libinput under umockdev, three mock touchscreens, the last
/// unplugged with fingers down.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct SoakTests {
    @Test("a minute of random gestures through libinput: no crash, no recognizer stuck, memory flat, and it says how fast")
    func oneMinute() throws {
        let run = try LibinputRecognitionTests.gesturekit(["soak", "--minutes", "1", "--segment", "20", "--seed", "7",
                                                           "--fixtures", Fixtures.directory])
        print(run.out)
        #expect(run.status == 0, "the soak passes: \(run.out)\n\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.last == "soak: passed", "it ends by saying it passed: \(lines.suffix(3))")
        #expect(lines.contains("soak: recognizers stuck: 0"), "no recognizer was found stuck")
        #expect(lines.contains { $0.hasPrefix("soak: touch frames ") && $0.contains("devices added 3, removed 3") },
                "three touchscreens came and went: \(lines)")
        for what in ["input frame's kernel timestamp to its action", "libinput's batch handed out to its action",
                     "deadline to its action"] {
            #expect(lines.contains { $0.contains(what) && $0.contains("p99 ") }, "it reports the latency from the \(what)")
        }
    }
}
