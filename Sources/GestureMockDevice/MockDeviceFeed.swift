import GestureKit
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mock device fed while it runs: its umockdev script is a FIFO, and each step of input is
/// written to it when it is performed, so a test can aim its next gesture at what the app shows
/// after the last (a button that appeared, a picture that zoomed).
///
/// Why a FIFO, and not a script with a gate before every step: umockdev-run (0.17 and 0.19)
/// reads its script a line at a time as it plays it, and waits in that read for more, so a
/// script that is a FIFO plays what is written to it, when it is written; a gated script needs
/// every step known before the compositor starts, and a process inside the testbed to open each
/// gate. The timing rules:
/// - Each step's frames keep their spacing: the first line's delay is `startDelay` from when
///   umockdev-run reads it, the others follow the frames' times (whole milliseconds, rounded
///   from the step's start so rounding never accumulates). GestureKit's fix library keeps
///   umockdev-run's writes on that schedule (its item 12) and starts the schedule again when
///   umockdev-run waits for the FIFO (item 14), so a step written after a pause is not played as
///   if it were late.
/// - Each frame is stamped with the time it is due on CLOCK_MONOTONIC, in microseconds, later
///   than every frame before: the reader's side of the library stamps it with the time it was
///   sent (items 3 and 11), and `waitUntilPlayed` finds it in the write log by that stamp.
/// - The FIFO is held open (read and write) by the feed from before umockdev-run starts until
///   `close()`: umockdev-run's open of its script does not wait for a writer, and the script
///   ends (umockdev-run's thread stops) only when the feed closes it. Writes never block: a
///   step that does not fit in the pipe waits for umockdev-run to read, for at most
///   `writeTimeout`, then fails naming the device (umockdev-run gone).
public final class MockDeviceFeed {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case cannotCreate(path: String, errno: Int32)
        case notReading(device: String, path: String)
        case cannotWrite(device: String, errno: Int32)
        case closed(device: String)
        case notPlayed(device: String, seconds: Double)

        public var description: String {
            switch self {
            case let .cannotCreate(path, errno):
                return "cannot make the mock device's script FIFO \(path): \(String(cString: strerror(errno)))"
            case let .notReading(device, path):
                return "the mock device \(device) takes no more input: umockdev-run stopped reading its script \(path) (did the compositor or umockdev-run end?)"
            case let .cannotWrite(device, errno):
                return "cannot write the next input of the mock device \(device): \(String(cString: strerror(errno)))"
            case let .closed(device):
                return "the mock device \(device) was closed: it takes no more input"
            case let .notPlayed(device, seconds):
                return "the mock device \(device) did not play its input within \(formatSeconds(seconds)) s of its due time (umockdev-run stopped, or the machine is overloaded)"
            }
        }
    }

    /// Seconds a write waits for umockdev-run to read before it fails.
    public static let writeTimeout = 10.0
    /// The pipe's capacity asked for (bytes): 1 MiB holds a minute of two-finger frames at 120
    /// Hz, so a step is written at once.
    static let pipeCapacity: Int32 = 1 << 20
    /// fcntl's F_SETPIPE_SZ (Linux's F_LINUX_SPECIFIC_BASE + 7; Glibc declares it only with
    /// _GNU_SOURCE, which Swift's Glibc module does not set).
    static let setPipeSize: Int32 = 1024 + 7

    public let device: MockDevice
    /// The FIFO umockdev-run reads as the device's script.
    public let scriptPath: String
    /// Where umockdev-run keeps its write log (its `GESTUREKIT_UMOCKDEV_WRITE_LOG`).
    public let writeLogDirectory: String
    private var fd: Int32
    /// The stamp of the latest frame written, in microseconds on CLOCK_MONOTONIC.
    private var lastStamp: Int64 = 0

    /// Makes the FIFO at `scriptPath` (replacing a file there) and holds it open.
    public init(device: MockDevice, scriptPath: String, writeLogDirectory: String) throws {
        self.device = device
        self.scriptPath = scriptPath
        self.writeLogDirectory = writeLogDirectory
        unlink(scriptPath)
        guard mkfifo(scriptPath, 0o644) == 0 else { throw Failure.cannotCreate(path: scriptPath, errno: errno) }
        fd = open(scriptPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure.cannotCreate(path: scriptPath, errno: errno) }
        _ = fcntl(fd, Self.setPipeSize, Self.pipeCapacity)
    }

    deinit { close() }

    /// One step written to the device.
    public struct Step: Hashable, Sendable {
        /// The first and last frames' stamps (microseconds, CLOCK_MONOTONIC), as written.
        public var firstStamp: Int64
        public var lastStamp: Int64
        /// When the last frame is due (CLOCK_MONOTONIC, seconds), reckoned when it was written.
        public var dueEnd: Double
        public var frames: Int
    }

    /// Writes `events` (frames ending with SYN_REPORT; times from the step's start, its first
    /// frame at or after zero) to play `startDelay` seconds from when umockdev-run reads them.
    public func play(_ events: [EvdevEvent], startDelay: Double = 0) throws -> Step {
        guard fd >= 0 else { throw Failure.closed(device: device.description.name) }
        let frames = Self.frames(events)
        guard let first = frames.first?.last?.time else {
            return Step(firstStamp: lastStamp, lastStamp: lastStamp, dueEnd: monotonicSeconds(), frames: 0)
        }
        let now = Int64((monotonicSeconds() * 1_000_000).rounded())
        let base = max(now + Int64((max(0, startDelay) * 1_000_000).rounded()), lastStamp + 1000)
        var bytes: [UInt8] = []
        var previousTarget: Int64 = 0
        var firstStamp: Int64 = 0
        var stamp: Int64 = base
        for (k, frame) in frames.enumerated() {
            let offsetMicroseconds = (frame.last!.time.nanoseconds - first.nanoseconds) / 1000
            stamp = max(base + offsetMicroseconds, k == 0 ? base : stamp + 1)
            if k == 0 { firstStamp = stamp }
            let target = (offsetMicroseconds + 500) / 1000
            let delay = k == 0 ? Int64((max(0, startDelay) * 1000).rounded()) : max(0, target - previousTarget)
            previousTarget = k == 0 ? 0 : max(previousTarget, target)
            var line: [UInt8] = []
            for (i, event) in frame.enumerated() {
                line += UmockdevScriptEncoder.inputEventBytes(microseconds: stamp, type: event.type, code: event.code,
                                                              value: event.value, avoidSpaceFirst: i == 0)
            }
            bytes += Array("r \(delay) ".utf8) + UmockdevScriptEncoder.escape(line) + [0x0a]
        }
        try write(bytes)
        lastStamp = stamp
        return Step(firstStamp: firstStamp, lastStamp: stamp, dueEnd: Double(stamp) / 1_000_000, frames: frames.count)
    }

    /// Waits until umockdev-run has written the step's last frame to the reader (the write log
    /// has it): at most `lateLimit` seconds past its due time.
    public func waitUntilPlayed(_ step: Step, lateLimit: Double = 10) throws {
        guard step.frames > 0 else { return }
        let log = UmockdevWriteLog(directory: writeLogDirectory)
        while true {
            if log.sentTime(ofFrameRecordedAt: step.lastStamp) != nil { return }
            let now = monotonicSeconds()
            if now > step.dueEnd + lateLimit {
                throw Failure.notPlayed(device: device.description.name, seconds: lateLimit)
            }
            // Until the step is due, sleep towards it; then look every 2 ms.
            let wait = max(0.002, min(0.05, step.dueEnd - now))
            usleep(useconds_t(wait * 1_000_000))
        }
    }

    /// Closes the FIFO: umockdev-run's script for the device ends.
    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    /// `events` cut into frames at SYN_REPORT (a trailing partial frame included).
    static func frames(_ events: [EvdevEvent]) -> [[EvdevEvent]] {
        var frames: [[EvdevEvent]] = []
        var current: [EvdevEvent] = []
        for event in events {
            current.append(event)
            if event.type == .syn && event.code == .synReport {
                frames.append(current)
                current.removeAll()
            }
        }
        if !current.isEmpty { frames.append(current) }
        return frames
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        let deadline = monotonicSeconds() + Self.writeTimeout
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                let left = deadline - monotonicSeconds()
                guard left > 0 else { throw Failure.notReading(device: device.description.name, path: scriptPath) }
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, Int32(min(left, 0.2) * 1000) + 1)
                continue
            }
            throw Failure.cannotWrite(device: device.description.name, errno: errno)
        }
    }
}

/// Seconds on CLOCK_MONOTONIC.
package func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Seconds for a message: "1.5".
func formatSeconds(_ s: Double) -> String {
    let rounded = (s * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
