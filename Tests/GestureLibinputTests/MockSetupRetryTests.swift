@testable import GestureMockDevice
import Testing

/// umockdev now and then fails to set up a mock node on a loaded machine (an open failing
/// with EPIPE, or libinput refused by the node's ioctl emulation); a run through libinput
/// (gesturekit's and photowall's replays, the probe) goes once more then, saying so, and only
/// then: when the child stopped before printing anything, for that reason.
@Suite struct MockSetupRetryTests {
    static func result(status: Int32?, stderr: String, out: [String] = [], timedOut: Bool = false) -> UmockdevRunResult {
        UmockdevRunResult(stdoutLines: out, stderr: stderr, exitStatus: status, signal: nil,
                          timedOut: timedOut, elapsed: 1, command: ["gesturekit", "listen"])
    }

    @Test("a mock node that could not be opened, or that libinput refused, before anything was printed: run again")
    func setupFailuresAreRetried() {
        #expect(Self.result(
            status: 2, stderr: "gesturekit: Cannot open /dev/input/event10: Broken pipe (errno 32).\n").isMockSetupFailure)
        #expect(Self.result(
            status: 1, stderr: "gesturekit-libinput-probe: libinput did not accept /dev/input/event10 as an input device (not an evdev node, …).\n").isMockSetupFailure)
        #expect(Self.result(
            status: 2, stderr: "gesturekit: No such input device: /dev/input/event20 does not exist (list devices with 'ls /dev/input/event*' or 'libinput list-devices').\n").isMockSetupFailure)
    }

    @Test("anything else is reported as it is, never run twice: output already printed, another error, a timeout, success")
    func otherFailuresAreNot() {
        #expect(!Self.result(
            status: 2, stderr: "gesturekit: Cannot open /dev/input/event10: Broken pipe (errno 32).\n",
            out: [#"{"time":0.1,"type":"touches"}"#]).isMockSetupFailure, "output was printed: running again would print it twice")
        #expect(!Self.result(status: 2, stderr: "gesturekit: no such scene key\n").isMockSetupFailure)
        #expect(!Self.result(
            status: 2, stderr: "gesturekit: Cannot open /dev/input/event10: Broken pipe\n", timedOut: true).isMockSetupFailure)
        #expect(!Self.result(status: 0, stderr: "").isMockSetupFailure)
    }
}
