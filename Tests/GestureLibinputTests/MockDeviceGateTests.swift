import GestureKit
import GestureMockDevice
import GestureTraces
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A gated recording (`UmockdevScriptEncoder.gate`, `gesturekit mockdev --gate`) waits for its
/// token, written to the node from inside the testbed, however long that takes.
struct MockDeviceGateTests {
    static let frame = [EvdevEvent(time: Instant(seconds: 0), type: .key, code: .btnTouch, value: 1),
                        EvdevEvent(time: Instant(seconds: 0), type: .syn, code: .synReport, value: 0)]

    @Test("a gated script begins with umockdev's write operation of the token, and its lead-in counts from there")
    func scriptBeginsWithTheGate() {
        let script = UmockdevScriptEncoder.script(for: Self.frame, leadIn: 0.1, gate: Array("go^".utf8))
        let lines = script.split(separator: 0x0a).map { Array($0) }
        #expect(lines.count == 2)
        #expect(lines.first == Array("w 0 go^`".utf8), "the token, escaped as umockdev reads it")
        #expect(lines.last.map { Array($0.prefix(6)) } == Array("r 100 ".utf8))
        let empty = UmockdevScriptEncoder.script(for: [], leadIn: 0.1, gate: Array("go".utf8))
        #expect(empty == Array("w 0 go\n".utf8), "a gated script without events still waits for its gate")
    }

    /// A shell in the testbed: reads the node without blocking for 1.5 s (nothing may come),
    /// writes the token, then reads the frame (48 bytes: two 24-byte input events).
    static let probe = #"""
        n=/dev/input/event7
        sleep 1.5
        before=$(dd if=$n iflag=nonblock bs=4096 count=1 status=none 2>/dev/null | wc -c)
        echo "before $before"
        printf %s gesturekit-go > $n || echo "cannot write $n"
        after=$(timeout 5 dd if=$n bs=48 count=1 iflag=fullblock status=none | wc -c)
        echo "after $after"
        """#

    @Test("under umockdev, a gated recording plays nothing for 1.5 s until the token is written to its node, then plays at once",
          .enabled(if: UmockdevRunner.findUmockdevRun() != nil, "umockdev-run is missing: install the Debian package 'umockdev'"))
    func recordingWaitsForTheToken() throws {
        var runner = try UmockdevRunner(timeout: 30, preloadLibrary: "/proc/self/exe")
        runner.preloadLibrary = ""
        let gated = MockDeviceReplay(device: MockDevice(GeneratorTests.small, eventNumber: 7), events: Self.frame,
                                     leadIn: 0, gate: Array("gesturekit-go".utf8))
        let run = try runner.run(devices: [gated], command: ["/bin/sh", "-c", Self.probe])
        #expect(run.exitStatus == 0, "\(run.stderr)")
        #expect(run.stdoutLines == ["before 0", "after 48"], "nothing before the token, the frame after it: \(run.stdoutLines) \(run.stderr)")
        #expect(run.elapsed < 10, "the recording played once the token was written (\(run.elapsed) s)")
    }
}
