import GestureKit
import GestureRecording
#if canImport(Glibc)
import Glibc
#endif

/// A client that passes every event on and says on standard error what it was and when it
/// arrived, one line each: `PROGRAM: event LINE arrived NANOSECONDS`, with the event's input
/// recording line (docs/RECORDING.md: its time on the client's clock, from the source's own
/// time) and CLOCK_MONOTONIC when it reached the client. The tools' hidden `--report-events`:
/// the tests' readiness handshake (the first event seen) and their account of what a source
/// delivered and how late.
package final class EventArrivalReport: LiveInputClient {
    package let client: any LiveInputClient
    private let prefix: String

    package init(program: String, passingTo client: any LiveInputClient) {
        self.client = client
        prefix = "\(program): event "
    }

    package func handle(_ event: InputEvent) {
        let arrived = MonotonicClock.now().nanoseconds
        var line = InputRecording.line(event)
        if line.hasSuffix("\n") { line.removeLast() }
        let text = Array((prefix + line + " arrived \(arrived)\n").utf8)
        text.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
        client.handle(event)
    }

    package var nextDeadline: Instant? { client.nextDeadline }
    package func advance(to now: Instant) { client.advance(to: now) }
    package func batchHandled(by run: LiveInputRun) { client.batchHandled(by: run) }
    package func finish() { client.finish() }
}
