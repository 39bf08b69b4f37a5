import GestureKit
import GestureRecording

/// GestureKit's own input recordings (GestureRecording, docs/RECORDING.md) as a trace: what
/// an app received, already `InputEvent`s in screen points on the receiver's clock. Read as
/// they are: no decoder, no screen mapping, no time shift (the recording's clock is the
/// replay's), and its devices come and go where the recording says, not at the start and
/// end of the file.
enum InputRecordingReader {
    /// The header, and the devices the recording adds (for summaries), checking nothing else.
    static func scan(path: String) throws -> (header: InputRecording.Header, devices: [TraceDevice]) {
        let reader = try LineReader(path: path)
        var header: InputRecording.Header?
        var devices: [TraceDevice] = []
        while let line = try reader.nextLine() {
            guard !isBlank(line) else { continue }
            guard header != nil else {
                header = try self.header(line, reader, path)
                continue
            }
            // Only device lines are decoded here; `run` reads and checks every line.
            guard mayAddDevice(line) else { continue }
            if case let .event(.deviceAdded(info)) = try entry(line, reader, path) {
                devices.removeAll { $0.id == info.id }
                devices.append(TraceDevice(id: info.id, name: info.name, kind: info.kind, description: nil,
                                           physicalSize: info.sizeMillimetres, node: info.systemName))
            }
        }
        guard let header else {
            throw TraceError(.empty, file: path, "the recording has no header line")
        }
        return (header, devices)
    }

    /// Streams every event of the recording, in file order, and hands `clock` the times the
    /// receiver's clock moved on to with no input. Stops at a `stopped` line (the recorder's
    /// limit: nothing follows it). A line cut off at the end of the file is an error, as in
    /// the other formats.
    static func run(path: String, clock: ((Instant) throws -> Void)?, _ body: (InputEvent) throws -> Void) throws {
        let reader = try LineReader(path: path)
        var sawHeader = false
        while let line = try reader.nextLine() {
            guard !isBlank(line) else { continue }
            guard sawHeader else {
                _ = try header(line, reader, path)
                sawHeader = true
                continue
            }
            switch try entry(line, reader, path) {
            case let .event(event): try body(event)
            case let .clock(time): try clock?(time)
            case .stopped: return
            }
        }
    }

    private static func header(_ line: UnsafeBufferPointer<UInt8>, _ reader: LineReader, _ path: String) throws -> InputRecording.Header {
        try read(reader, path) { try InputRecording.header(Array(line), number: reader.lineNumber) }
    }

    private static func entry(_ line: UnsafeBufferPointer<UInt8>, _ reader: LineReader, _ path: String) throws -> InputRecording.Entry {
        try read(reader, path) { try InputRecording.entry(Array(line), number: reader.lineNumber) }
    }

    /// A line decoded, once it is known to be whole; the format's error as a trace error
    /// naming the file.
    private static func read<T>(_ reader: LineReader, _ path: String, _ decode: () throws -> T) throws -> T {
        try checkTerminated(reader, path)
        do {
            return try decode()
        } catch let e as InputRecording.ReadError {
            throw TraceError(.malformedLine, file: path, line: e.line, e.message)
        }
    }

    private static func checkTerminated(_ reader: LineReader, _ path: String) throws {
        guard reader.lineWasTerminated else {
            throw TraceError(.malformedLine, file: path, line: reader.lineNumber,
                             "the recording ends in the middle of this line (no line end): it was cut off")
        }
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Whether a line may be a `device-added` line (a cheap test before decoding it).
    private static func mayAddDevice(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        InputRecording.bytes(line, contain: deviceAddedMarker)
    }

    private static let deviceAddedMarker = Array("\"device-added\"".utf8)
}
