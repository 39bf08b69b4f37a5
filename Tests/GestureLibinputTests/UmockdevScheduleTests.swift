import Foundation
import GestureKit
import GestureMockDevice
import GestureTraces
import Testing
import GestureTestSupport

/// umockdev-run plays a script by sleeping each line's delay, then writing; relative sleeps add
/// up their overshoot (a 1.51 s long press ended 32 ms late on an idle machine, 150 ms in a
/// loaded `make test`). The fix library keeps umockdev-run's writes on the recording's schedule
/// and stamps each frame with its due time (its items 11 and 12), so a reader gets the stamps a
/// device's clock would give, however late it or umockdev-run runs.
@Suite(.enabled(if: UmockdevRunner.findUmockdevRun() != nil, "umockdev-run is missing: install the Debian package 'umockdev'"))
struct UmockdevScheduleTests {
    /// A reader that reads nothing until the recording has played, then reads `bytes` bytes of
    /// input events and prints them in hexadecimal.
    static func lateReader(node: String, bytes: Int, after seconds: Double) -> String {
        "sleep \(seconds); timeout 10 dd if=\(node) bs=\(bytes) count=1 iflag=fullblock status=none | od -An -v -tx1"
    }

    @Test("a 1.51 s long press (152 frames) under umockdev, read only after it has played: the stamps of its first and last frames are 1.51 s apart within 1 ms, as the recording's, and every frame keeps its recorded spacing within 1 ms")
    func stampsKeepTheRecordingsSpacing() throws {
        let reader = try TraceReader(path: Fixtures.path("synthetic-ts-wacom-long-press-drag-1f.evemu"),
                                     screen: Size(width: 1000, height: 1000))
        let device = try #require(reader.devices.first { $0.description != nil })
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: device.id) { events.append($0) }
        let recorded = events.filter { $0.type == .syn && $0.code == .synReport }.map { $0.time.seconds }
        try #require(recorded.count == 152, "the fixture's 152 frames")

        let mock = MockDevice(try #require(device.description), eventNumber: 7)
        let replay = MockDeviceReplay(device: mock, events: events, leadIn: 0.2)
        // A writer starved past the fix library's limits re-bases the stamps, and the timing
        // log says "pause" (item 13): the fingers paused, as a loaded machine makes them. The
        // schedule is judged on a run whose writer kept it: up to 4 runs.
        var last: UmockdevRunResult?
        for attempt in 1...4 {
            let log = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString).timing"
            defer { try? FileManager.default.removeItem(atPath: log) }
            last = try UmockdevRunner(timeout: 30, environment: ["GESTUREKIT_UMOCKDEV_PAUSE_LOG": log]).run(
                devices: [replay], command: ["/bin/sh", "-c", Self.lateReader(node: mock.devicePath, bytes: events.count * 24, after: 2.5)])
            let pauses = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("pause ") }
            guard !pauses.isEmpty else { break }
            print("*** umockdev's writer fell behind its schedule (\(pauses.prefix(3).joined(separator: "; ")))" + (attempt < 4 ? ": run again ***" : ": compared anyway ***"))
        }
        let run = try #require(last)
        #expect(run.exitStatus == 0, "the reader exits cleanly: \(run.stderr)")
        let bytes = run.stdoutLines.flatMap { $0.split(separator: " ").compactMap { UInt8($0, radix: 16) } }
        try #require(bytes.count == events.count * 24, "every event read: \(bytes.count) of \(events.count * 24) bytes; \(run.stderr)")
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        var stamps: [Double] = []
        for i in 0..<events.count where integer(i * 24 + 16, UInt16.self) == 0 && integer(i * 24 + 18, UInt16.self) == 0 {
            stamps.append(Double(integer(i * 24, Int64.self)) + Double(integer(i * 24 + 8, Int64.self)) / 1e6)
        }
        try #require(stamps.count == recorded.count)
        let span = stamps.last! - stamps.first!, recordedSpan = recorded.last! - recorded.first!
        #expect(abs(span - recordedSpan) < 0.001,
                "the lift is stamped \(recordedSpan) s after the touch, as recorded: \(span) s")
        let worst = zip(zip(stamps, stamps.dropFirst()), zip(recorded, recorded.dropFirst()))
            .map { abs(($0.1 - $0.0) - ($1.1 - $1.0)) }.max() ?? 0
        #expect(worst < 0.001, "every frame follows the one before it as in the recording: off by up to \(worst) s")
    }

    @Test("a reader that reads the same long press only after it has played is noted late in the fix library's timing log (item 13): its first frame read about 2.3 s after it was sent, which is how a test tells that a reader's own timers saw other timing than the recording's")
    func aLateReaderIsNoted() throws {
        let reader = try TraceReader(path: Fixtures.path("synthetic-ts-wacom-long-press-drag-1f.evemu"),
                                     screen: Size(width: 1000, height: 1000))
        let device = try #require(reader.devices.first { $0.description != nil })
        var events: [EvdevEvent] = []
        try reader.forEachEvdevEvent(device: device.id) { events.append($0) }
        let mock = MockDevice(try #require(device.description), eventNumber: 7)
        let log = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString).timing"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try UmockdevRunner(timeout: 30, environment: ["GESTUREKIT_UMOCKDEV_PAUSE_LOG": log]).run(
            devices: [MockDeviceReplay(device: mock, events: events, leadIn: 0.2)],
            command: ["/bin/sh", "-c", Self.lateReader(node: mock.devicePath, bytes: events.count * 24, after: 2.5)])
        #expect(run.exitStatus == 0, "the reader exits cleanly: \(run.stderr)")
        let notes = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: " ") }
        let late = try #require(notes.first { $0.first == "late" }, "a line saying the reader read late: \(notes)")
        #expect(late.count == 5 && late[1] == "\(mock.devicePath)" && late[3] == "at", "\"late NODE MS at SECONDS\": \(late)")
        let ms = try #require(Double(late[2]))
        #expect(ms > 1000 && ms < 3000, "the first frame read about 2.3 s (2.5 s of sleep less the recording's lead-in) after it was sent: \(ms) ms")
    }
}
