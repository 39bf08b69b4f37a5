import Foundation
import GestureKit
@testable import GestureLibinput
import Testing

/// A pipe standing in for libinput: each byte written becomes one event.
final class PipeSource: InputEventSource {
    let readFD: Int32
    let writeFD: Int32
    var dispatched = 0

    init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    var fileDescriptor: Int32 { readFD }

    func dispatch(into handler: (LibinputInputEvent) -> Void) throws {
        var byte: UInt8 = 0
        while read(readFD, &byte, 1) == 1 {
            dispatched += 1
            handler(.deviceRemoved(InputDeviceID(Int(byte))))
        }
    }

    func send(_ byte: UInt8) {
        var b = byte
        _ = write(writeFD, &b, 1)
    }
}

@Suite(.serialized)
struct EventLoopTests {
    @Test func deadlineFiresOnTimeWithoutBusyWaiting() throws {
        let source = PipeSource()
        let loop = try InputEventLoop(source: source)
        let start = MonotonicClock.now()
        var deadline: Instant? = start.advanced(bySeconds: 0.05)
        var advancedAt: [Instant] = []
        // This thread's CPU time, not the process's: other suites run in parallel.
        func threadCPU() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        let cpuBefore = threadCPU()
        try loop.run(onEvent: { _ in },
                     nextDeadline: { deadline },
                     advance: { now in
                         advancedAt.append(now)
                         if advancedAt.count == 1 {
                             deadline = now.advanced(bySeconds: 0.03)
                         } else {
                             deadline = nil
                             loop.stop()
                         }
                     })
        let cpu = threadCPU() - cpuBefore
        #expect(advancedAt.count == 2)
        let first = advancedAt[0].seconds(since: start)
        #expect(first >= 0.05 && first < 0.065, "fired at \(first)")
        let second = advancedAt[1].seconds(since: advancedAt[0])
        #expect(second >= 0.03 && second < 0.045)
        #expect(cpu < 0.02, "CPU time \(cpu) s: busy waiting?")
    }

    @Test func pastDeadlineFiresImmediately() throws {
        let loop = try InputEventLoop(source: PipeSource())
        var calls = 0
        let start = MonotonicClock.now()
        try loop.run(onEvent: { _ in }, nextDeadline: { calls == 0 ? Instant(nanoseconds: 1) : nil },
                     advance: { _ in calls += 1; loop.stop() })
        #expect(calls == 1)
        #expect(MonotonicClock.now().seconds(since: start) < 0.02)
    }

    @Test func deliversSourceEventsInOrder() throws {
        let source = PipeSource()
        let loop = try InputEventLoop(source: source)
        var got: [Int] = []
        let writeFD = source.writeFD
        let writer = Thread {
            for b: UInt8 in [1, 2, 3] {
                usleep(10_000)
                var byte = b
                _ = write(writeFD, &byte, 1)
            }
        }
        writer.start()
        try loop.run(onEvent: { event in
            if case let .deviceRemoved(id) = event { got.append(id.rawValue) }
            if got.count == 3 { loop.stop() }
        }, nextDeadline: { nil }, advance: { _ in })
        #expect(got == [1, 2, 3])
    }

    @Test func stopsFromAnotherThread() throws {
        let loop = try InputEventLoop(source: PipeSource())
        let handle = loop.stopHandle
        let start = MonotonicClock.now()
        let stopper = Thread {
            usleep(50_000)
            handle.stop()
        }
        stopper.start()
        let signal = try loop.run(onEvent: { _ in }, nextDeadline: { nil }, advance: { _ in })
        #expect(signal == nil)
        let elapsed = MonotonicClock.now().seconds(since: start)
        #expect(elapsed >= 0.045 && elapsed < 0.5)
    }

    @Test func stopsOnSignal() throws {
        let loop = try InputEventLoop(source: PipeSource())
        try loop.stopOnSignals([SIGUSR2])
        var raised = false
        let signal = try loop.run(onEvent: { _ in },
                                  nextDeadline: { raised ? nil : MonotonicClock.now() },
                                  advance: { _ in
                                      raised = true
                                      // blocked in this thread: pending until the signalfd reads it
                                      pthread_kill(pthread_self(), SIGUSR2)
                                  })
        #expect(signal == SIGUSR2)
    }
}

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups",
                             ProbeHarness.probePath, "--duration", "0.1", path]
        let errPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("Permission denied: user 'nobody' may not read \(path)"), "\(stderr)")
        #expect(stderr.contains("'input' group"))
    }
}
