import GestureKit
import GestureRecording
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What recording costs an app: `InputRecordingWriter.record` of a two-finger touch frame
/// (two fingers moving, as in a pan or a pinch, 120 frames a second), written to a file in
/// /dev/shm and flushed every 120 frames (a second of busy input, as a recorder flushes at
/// least every second). Its bytes a frame give the size of a minute of busy input.
public final class RecordingScene {
    public let path: String
    public let writer: InputRecordingWriter
    var frame = TouchFrame(time: .zero, changes: [
        TouchChange(sourceID: 1, phase: .moved, location: Point(x: 312.25, y: 480.5)),
        TouchChange(sourceID: 2, phase: .moved, location: Point(x: 611.75, y: 402.125)),
    ])
    var count = 0

    public init() {
        let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        path = "\(dir)/gesturekit-bench-\(getpid()).input.jsonl"
        writer = try! InputRecordingWriter(path: path, header: .init(source: .app, screen: Size(width: 1280, height: 800)),
                                           limit: .max)
    }

    @inline(__always)
    public func recordFrame() {
        count &+= 1
        frame.time = Instant(nanoseconds: Int64(count) * 8_333_333)
        // Fingers moving a little each frame: numbers of full precision, as live input has.
        frame.changes[0].location.x += 0.3125 + Double(count & 7) * 0.0117
        frame.changes[1].location.y -= 0.25 + Double(count & 3) * 0.0093
        writer.record(.touchFrame(frame))
        if count % 120 == 0 { writer.flush() }
    }

    deinit {
        writer.close()
        unlink(path)
    }
}
