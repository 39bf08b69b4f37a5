import Foundation
import GestureInput
import GestureKit
import GestureInput
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

    func dispatch(into handler: (InputEvent) -> Void) throws {
        var byte: UInt8 = 0
        while read(readFD, &byte, 1) == 1 {
            dispatched += 1
            handler(.deviceRemoved(InputDeviceID(Int(byte)), time: nil))
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
        var deadline: Instant? = start + Duration(seconds: 0.05)
        var advancedAt: [Instant] = []
        let cpuBefore = threadCPUSeconds()
        try loop.run(onEvent: { _ in },
                     nextDeadline: { deadline },
                     advance: { now in
                         advancedAt.append(now)
                         if advancedAt.count == 1 {
                             deadline = now + Duration(seconds: 0.03)
                         } else {
                             deadline = nil
                             loop.stop()
                         }
                     })
        // This thread's CPU time: the process's would count the tests running beside it.
        let cpu = threadCPUSeconds() - cpuBefore
        #expect(advancedAt.count == 2)
        // Never early; late only by the machine's scheduling (generous: a loaded CI machine).
        let first = (advancedAt[0] - start).inSeconds
        #expect(first >= 0.05 && first < 0.5, "fired at \(first)")
        let second = (advancedAt[1] - advancedAt[0]).inSeconds
        #expect(second >= 0.03 && second < 0.5)
        #expect(cpu < 0.02, "CPU time \(cpu) s for 80 ms of waiting: busy waiting?")
    }

    @Test func pastDeadlineFiresImmediately() throws {
        let loop = try InputEventLoop(source: PipeSource())
        var calls = 0
        let start = MonotonicClock.now()
        try loop.run(onEvent: { _ in }, nextDeadline: { calls == 0 ? Instant(nanoseconds: 1) : nil },
                     advance: { _ in calls += 1; loop.stop() })
        #expect(calls == 1)
        #expect((MonotonicClock.now() - start).inSeconds < 0.5, "a past deadline fires at once, not after a wait")
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
            if case let .deviceRemoved(id, _) = event { got.append(id.rawValue) }
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
        let elapsed = (MonotonicClock.now() - start).inSeconds
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


/// The calling thread's CPU time in seconds.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
