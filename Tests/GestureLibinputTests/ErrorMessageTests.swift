import Foundation
import GestureKit
import GestureLibinput
import Testing
import GestureTestSupport

struct ErrorMessageTests {
    @Test func permissionDeniedSaysWhatToDo() {
        let error = LibinputError.openError(path: "/dev/input/event5", errno: EACCES)
        guard case .permissionDenied = error else {
            Issue.record("EACCES should be permissionDenied, got \(error)")
            return
        }
        let text = "\(error)"
        #expect(text.contains("/dev/input/event5"))
        #expect(text.contains("'input' group"))
        #expect(text.contains("usermod -aG input"))
        #expect(text.contains("run as root"))
        #expect(!text.contains("errno"))
        if case .permissionDenied = LibinputError.openError(path: "/x", errno: EPERM) {} else {
            Issue.record("EPERM should be permissionDenied")
        }
        #expect(LibinputError.openError(path: "/x", errno: ENOENT) == .noSuchDevice(path: "/x"))
    }

    /// The probe, run as an unprivileged user on a node it may not read, explains the
    /// permission problem (libinput refuses before opening here: no udev; the open path is
    /// covered by UmockdevProbeTests.permissionDeniedOnOpen).
    @Test(.enabled(if: getuid() == 0, "needs root to drop privileges with setpriv"))
    func probeReportsPermissionDenied() throws {
        var template = Array("/tmp/gesturekit-perm-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        #expect(fd >= 0)
        close(fd)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                          as: UTF8.self)
        defer { unlink(path) }
        chmod(path, 0)
        let run = try runProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                                      ProbeHarness.probePath, "--duration", "0.1", path],
                                 output: .discard)
        let stderr = run.errors
        #expect(run.status == 1)
        #expect(stderr.contains("Permission denied: user 'nobody' may not read \(path)"), "\(stderr)")
        #expect(stderr.contains("'input' group"))
    }
}
