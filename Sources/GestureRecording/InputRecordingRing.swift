import GestureKit

/// The last seconds of input, kept in memory as a recording's lines (docs/RECORDING.md, "The
/// flight recorder"): what a flight recorder holds, so that nobody has to start recording
/// before the bug happens. `write(to:)` writes them out as a recording that replays on its own.
///
/// **Memory:** the lines themselves (about 150 bytes for a frame of two fingers moving) in one
/// circular buffer, and 24 bytes an event to index them: a minute of busy input (two fingers
/// moving at 120 frames a second, without pause) is about 1.7 MB (`memoryBytes`; Benchmarks/README.md,
/// "Flight recorder", measures it). The buffer grows by a quarter more than it needs, up to
/// `maximumBytes`; past that the oldest lines go even if they are younger than `seconds`.
///
/// **What is kept:** every line at most `seconds` older than the latest. Written out, the
/// recording starts at the first moment in that window with no touch down (a gesture under way
/// at the window's start has lost its beginning; its touches would replay as moves of touches
/// that are not down), after the arrival of every device present then; if no such moment
/// exists, at the window's start.
public final class InputRecordingRing {
    /// How far back the ring reaches from its latest line.
    public let seconds: Duration
    /// The most memory its lines take.
    public let maximumBytes: Int
    /// The header its recordings are written with.
    public let header: InputRecording.Header

    /// The default reach: the last minute.
    public static let defaultSeconds: Duration = .seconds(60)
    /// The default memory limit: 32 MiB, about 25 minutes of busy input.
    public static let defaultMaximumBytes = 32 << 20 /* bytes */

    /// One line in the ring.
    private struct Line {
        /// The line's time (an event without one takes the latest), nanoseconds.
        var time: Int64
        /// Where it starts in the stream of bytes ever appended, and how long it is.
        var offset: Int
        var length: Int32
        /// Whether no touch was down just before it: a recording may start here.
        var quietBefore: Bool
        /// Whether it adds or removes a device.
        var changesDevices: Bool
    }

    private var bytes: [UInt8] = []
    /// The stream offset of the oldest byte kept, and of the next byte appended.
    private var first = 0
    private var end = 0
    private var lines: [Line] = []
    /// The index in `lines` of the oldest line kept.
    private var head = 0
    private var latest: Int64 = 0
    private var contacts = ContactCounter()
    /// The devices present before the oldest line kept, in the order they came.
    private var devicesBefore: [InputDeviceInfo] = []
    private let filter: PrivacyFilter

    /// A ring of the last `seconds` of input, in at most `maximumBytes`, written out with
    /// `header`; what it keeps of each event is what `privacy` lets through.
    public init(seconds: Duration = InputRecordingRing.defaultSeconds, maximumBytes: Int = InputRecordingRing.defaultMaximumBytes,
                header: InputRecording.Header, privacy: RecordingPrivacy = .none) {
        self.seconds = seconds
        self.maximumBytes = max(maximumBytes, 64 << 10)
        self.header = header
        filter = PrivacyFilter(privacy)
    }

    /// What is left out of the events kept.
    public var privacy: RecordingPrivacy {
        get { filter.privacy }
        set { filter.privacy = newValue }
    }

    /// Marks `view` private from now on (`RecordingPrivacy.markPrivate`).
    public func markPrivate(_ view: View) {
        filter.privacy.markPrivate(view)
    }

    /// Bytes the ring holds now: its buffer of lines and their index, as allocated.
    public var memoryBytes: Int { bytes.capacity + lines.capacity * MemoryLayout<Line>.stride }
    /// Lines kept.
    public var count: Int { lines.count - head }

    /// Keeps one event.
    public func record(_ event: InputEvent) {
        guard let event = filter.filter(event) else { return }
        let quiet = contacts.total == 0
        contacts.apply(event) { _, _, _ in }
        let changesDevices: Bool
        switch event {
        case .deviceAdded, .deviceRemoved: changesDevices = true
        default: changesDevices = false
        }
        append(InputRecording.line(event), time: event.time?.nanoseconds, quietBefore: quiet, changesDevices: changesDevices)
    }

    /// Keeps that the receiver's clock moved on to `time` (`InputRecording.Entry.clock`).
    public func recordClock(_ time: Instant) {
        append(InputRecording.clockLine(time), time: time.nanoseconds, quietBefore: contacts.total == 0, changesDevices: false)
    }

    private func append(_ text: String, time: Int64?, quietBefore: Bool, changesDevices: Bool) {
        var text = text
        let length = text.utf8.count
        if let time { latest = max(latest, time) }
        let window = seconds.components.seconds * 1_000_000_000 + seconds.components.attoseconds / 1_000_000_000
        while head < lines.count, latest - lines[head].time > window { dropOldest() }
        while head < lines.count, end - first + length > maximumBytes { dropOldest() }
        guard length <= maximumBytes else { return }
        reserve(end - first + length)
        text.withUTF8 { copyIn($0) }
        lines.append(Line(time: time ?? latest, offset: end, length: Int32(length), quietBefore: quietBefore, changesDevices: changesDevices))
        end += length
        if head > 4096 && head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
    }

    /// The circular buffer holds at least `needed` bytes (grown to a quarter more, in 64 KiB
    /// steps, up to `maximumBytes`).
    private func reserve(_ needed: Int) {
        guard needed > bytes.count else { return }
        let step = 64 << 10
        let capacity = min(((needed + needed / 4 + step - 1) / step) * step, maximumBytes)
        var grown = copyOut(from: first, count: end - first)
        grown.reserveCapacity(capacity)
        grown.append(contentsOf: repeatElement(0, count: capacity - grown.count))
        bytes = grown
        // The kept bytes now start at index 0: the stream offset `first` maps there.
        base = first
    }

    /// The stream offset stored at `bytes[0]` after the last reserve (offsets map to
    /// `(offset - base) % bytes.count`).
    private var base = 0

    private func index(_ offset: Int) -> Int { (offset - base) % bytes.count }

    private func copyIn(_ source: UnsafeBufferPointer<UInt8>) {
        var at = index(end)
        var from = 0
        while from < source.count {
            let n = min(source.count - from, bytes.count - at)
            bytes.withUnsafeMutableBufferPointer { b in
                (b.baseAddress! + at).update(from: source.baseAddress! + from, count: n)
            }
            from += n
            at = 0
        }
    }

    private func copyOut(from offset: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var at = index(offset)
        var left = count
        while left > 0 {
            let n = min(left, bytes.count - at)
            out.append(contentsOf: bytes[at..<at + n])
            left -= n
            at = 0
        }
        return out
    }

    private func dropOldest() {
        let line = lines[head]
        if line.changesDevices { applyDeviceLine(line, to: &devicesBefore) }
        head += 1
        first = head < lines.count ? lines[head].offset : end
    }

    private func applyDeviceLine(_ line: Line, to devices: inout [InputDeviceInfo]) {
        let text = copyOut(from: line.offset, count: Int(line.length) - 1)
        switch try? InputRecording.entry(text, number: 0) {
        case let .event(.deviceAdded(info))?:
            devices.removeAll { $0.id == info.id }
            devices.append(info)
        case let .event(.deviceRemoved(id, _))?:
            devices.removeAll { $0.id == id }
        default:
            break
        }
    }

    /// The lines a recording written now holds, after the header: the arrivals of the
    /// devices present at its start, then every line from its start (the first moment with no
    /// touch down, else the oldest line).
    public func recordingLines() -> [[UInt8]] {
        var start = head
        while start < lines.count, !lines[start].quietBefore { start += 1 }
        if start == lines.count { start = head }
        var devices = devicesBefore
        for i in head..<start where lines[i].changesDevices { applyDeviceLine(lines[i], to: &devices) }
        var out = devices.map { Array(InputRecording.line(.deviceAdded($0)).utf8) }
        for i in start..<lines.count { out.append(copyOut(from: lines[i].offset, count: Int(lines[i].length))) }
        return out
    }

    /// Writes what the ring holds as a recording at `path` (created as a recording's file is:
    /// 0600, a file already there refused unless `replacing`), ending with a `clock` line at
    /// `clock` when given (the receiver's clock moved on since the last line). The ring keeps
    /// its lines. Returns the writer, closed (its size and stop reason).
    @discardableResult
    public func write(to path: String, replacing: Bool = false, clock: Instant? = nil) throws -> InputRecordingWriter {
        let writer = try InputRecordingWriter(path: path, header: header, limit: .max, replacing: replacing)
        for line in recordingLines() { writer.recordLine(line) }
        if let clock { writer.recordClock(clock) }
        writer.close()
        return writer
    }
}
