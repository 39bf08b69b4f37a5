import GestureKit
import GestureRecording

/// GestureKit's own input recordings (GestureRecording, docs/RECORDING.md) as a trace: what
/// an app received, already `InputEvent`s in screen points on the receiver's clock. Read as
/// they are: no decoder, no screen mapping, no time shift (the recording's clock is the
/// replay's), and its devices come and go where the recording says, not at the start and
/// end of the file.
enum InputRecordingReader {
    /// The header, and the devices the recording adds (for summaries), checking nothing else
    /// but the number of devices (`InputRecording.Budget.devicesPerFile`). A device added
    /// again under its id takes its latest place and description, as before; in time linear
    /// in the devices (the earlier place is left empty, and the empty places dropped at the end).
    static func scan(path: String) throws -> (header: InputRecording.Header, devices: [TraceDevice]) {
        let reader = try LineReader(path: path)
        var header: InputRecording.Header?
        var devices: [TraceDevice?] = []
        var place: [InputDeviceID: Int] = [:]
        while let line = try reader.nextLine() {
            guard !isBlank(line) else { continue }
            guard header != nil else {
                header = try self.header(line, reader, path)
                continue
            }
            // Only device lines are decoded here; `run` reads and checks every line.
            guard mayAddDevice(line) else { continue }
            if case let .event(.deviceAdded(info)) = try entry(line, reader, path) {
                if let earlier = place[info.id] {
                    devices[earlier] = nil
                } else if place.count == InputRecording.Budget.devicesPerFile {
                    throw TraceError(.outOfRange, file: path, line: reader.lineNumber,
                                     "\(info.id) would be device \(InputRecording.Budget.devicesPerFile + 1) of the recording: a recording names at most \(InputRecording.Budget.devicesPerFile)")
                }
                place[info.id] = devices.count
                devices.append(TraceDevice(id: info.id, name: info.name, kind: info.kind, description: nil,
                                           physicalSize: info.sizeMillimetres, node: info.systemName))
            }
        }
        guard let header else {
            throw TraceError(.empty, file: path, "the recording has no header line")
        }
        return (header, devices.compactMap { $0 })
    }

    /// Streams every event of the recording, in file order, and hands `clock` the times the
    /// receiver's clock moved on to with no input. Events stop at a `stopped` line (the
    /// recorder's limit: nothing follows it), and the rest of the file is read to check that
    /// nothing does. A line cut off at the end of the file is an error, as in the other
    /// formats; so is a line past a budget (`InputRecording.Budget`), before it is handed on.
    static func run(path: String, clock: ((Instant) throws -> Void)?, _ body: (InputEvent) throws -> Void) throws {
        let reader = try LineReader(path: path)
        var sawHeader = false
        var stoppedAt: Int?
        var budget = InputRecording.BudgetCheck()
        while let line = try reader.nextLine() {
            guard !isBlank(line) else { continue }
            guard sawHeader else {
                _ = try header(line, reader, path)
                sawHeader = true
                continue
            }
            if let stoppedAt {
                throw TraceError(.malformedLine, file: path, line: reader.lineNumber,
                                 "a line after the \"stopped\" line (line \(stoppedAt)): the recorder writes nothing after it")
            }
            let entry = try entry(line, reader, path)
            do {
                try budget.check(entry, line: reader.lineNumber)
            } catch let e as InputRecording.ReadError {
                throw TraceError(.outOfRange, file: path, line: e.line, e.message)
            }
            switch entry {
            case let .event(event): try body(event)
            case let .clock(time): try clock?(time)
            case .stopped: stoppedAt = reader.lineNumber
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
