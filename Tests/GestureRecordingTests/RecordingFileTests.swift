import Foundation
import GestureKit
import GestureRecording
import GestureTestSupport
import GestureTraces
import Testing

/// A recording's file is handled as a careful tool handles a file (docs/RECORDING.md,
/// "Files"): private, never through a planted link, never over a file unless asked, never onto
/// its own input; an error leaves what was there; a failed write leaves a file that replays.
@Suite("Recording files: private, never overwriting, never onto the input, replayable after a failed write")
struct RecordingFileTests {
    static let header = InputRecording.Header(source: .app, screen: Size(width: 100, height: 100))
    static func tap(_ ms: Int, _ phase: TouchPhase) -> InputEvent {
        .touchFrame(TouchFrame(time: Instant(nanoseconds: Int64(ms) * 1_000_000),
                               changes: [TouchChange(sourceID: 1, phase: phase, location: Point(x: 10, y: 10))]))
    }

    /// A directory of its own, removed with everything in it by `remove`.
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "gesturekit-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }
    static func remove(_ directory: String) { try? FileManager.default.removeItem(atPath: directory) }
    static func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    static func mode(_ path: String) -> mode_t {
        var s = stat()
        return stat(path, &s) == 0 ? s.st_mode & 0o777 : 0
    }

    @Test("A new recording is readable and writable by its owner only (0600), whatever the umask")
    func createdPrivate() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        let old = umask(0)
        defer { umask(old) }
        let writer = try InputRecordingWriter(path: dir + "/r.jsonl", header: Self.header)
        writer.close()
        #expect(Self.mode(dir + "/r.jsonl") == 0o600, "mode \(String(Self.mode(dir + "/r.jsonl"), radix: 8))")
    }

    @Test("A file already at the path is refused and left as it was")
    func existingRefused() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        try "someone's notes\n".write(toFile: dir + "/notes", atomically: false, encoding: .utf8)
        let error = #expect(throws: RecordingFileError.self) { try InputRecordingWriter(path: dir + "/notes", header: Self.header) }
        #expect(error?.message.contains("already exists") == true, "\(error.map { "\($0)" } ?? "none")")
        #expect(Self.contents(dir + "/notes") == "someone's notes\n")
    }

    @Test("A link planted at the path is not followed: its target is neither created nor truncated")
    func plantedLinkRefused() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        try "precious\n".write(toFile: dir + "/target", atomically: false, encoding: .utf8)
        symlink(dir + "/target", dir + "/link")
        symlink(dir + "/nowhere", dir + "/dangling")
        #expect(throws: RecordingFileError.self) { try InputRecordingWriter(path: dir + "/link", header: Self.header) }
        #expect(throws: RecordingFileError.self) { try InputRecordingWriter(path: dir + "/dangling", header: Self.header) }
        #expect(Self.contents(dir + "/target") == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"), "the dangling link's target is not created")
    }

    @Test("Asked to replace, the recording is written beside the file and renamed over it at the end: never half of either")
    func replacedWhole() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        try "old\n".write(toFile: dir + "/r.jsonl", atomically: false, encoding: .utf8)
        try "target\n".write(toFile: dir + "/target", atomically: false, encoding: .utf8)
        symlink(dir + "/target", dir + "/link")
        for name in ["r.jsonl", "link"] {
            let writer = try InputRecordingWriter(path: dir + "/" + name, header: Self.header, replacing: true)
            writer.record(Self.tap(0, .began))
            writer.flush()
            #expect(Self.contents(dir + "/" + name) == (name == "link" ? "target\n" : "old\n"), "until it ends, the old file is there")
            writer.record(Self.tap(100, .ended))
            writer.close()
            var events = 0
            try TraceReader(path: dir + "/" + name).run { _ in events += 1 }
            #expect(events == 2, "then the whole new recording is")
            #expect(Self.mode(dir + "/" + name) == 0o600)
        }
        #expect(Self.contents(dir + "/target") == "target\n", "a link at the path is replaced, not written through")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link", "r.jsonl", "target"], "no file is left beside them")
    }

    @Test("A recording discarded (its input turned out bad) removes only the file it made; a file it was to replace stays")
    func discardKeepsWhatWasThere() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        let new = try InputRecordingWriter(path: dir + "/new.jsonl", header: Self.header)
        new.record(Self.tap(0, .began))
        new.discard()
        #expect(!FileManager.default.fileExists(atPath: dir + "/new.jsonl"))
        try "old\n".write(toFile: dir + "/old.jsonl", atomically: false, encoding: .utf8)
        let replacing = try InputRecordingWriter(path: dir + "/old.jsonl", header: Self.header, replacing: true)
        replacing.record(Self.tap(0, .began))
        replacing.discard()
        #expect(Self.contents(dir + "/old.jsonl") == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["old.jsonl"])
    }

    @Test("A recording whose file is deleted while recording notices it at the next flush and stops")
    func deletedNoticed() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        let writer = try InputRecordingWriter(path: dir + "/r.jsonl", header: Self.header)
        writer.record(Self.tap(0, .began))
        writer.flush()
        unlink(dir + "/r.jsonl")
        writer.record(Self.tap(100, .ended))
        writer.flush()
        #expect(writer.stopReason?.contains("was deleted while recording") == true, "\(writer.stopReason ?? "still recording")")
        writer.close()
        #expect(!FileManager.default.fileExists(atPath: dir + "/r.jsonl"), "nothing is made again at the path")
    }

    // MARK: The tool

    static let trace = Fixtures.path("ts-dell-canvas27-hold2f-drag4f-pinch5f-swipe1f.evemu")

    @Test("gesturekit replay X --record X is refused and X left as it was, with --replace and through a link too")
    func recordingOntoItsInput() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        let input = dir + "/input.jsonl"
        let made = try runProcess(builtProduct("gesturekit"), ["replay", Fixtures.path("ts-wacom-isdv4-e6-double-tap-1f.evemu"), "--record", input])
        #expect(made.status == 0, "\(made.errors)")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        symlink(input, dir + "/link")
        for arguments in [["--record", input], ["--record", input, "--replace"], ["--record", dir + "/link", "--replace"]] {
            let run = try runProcess(builtProduct("gesturekit"), ["replay", input] + arguments)
            #expect(run.status == 2 && run.errors.contains("it is the recording being read"), "\(arguments): \(run.errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "\(arguments): the input is as it was")
        }
    }

    @Test("gesturekit replay of a bad trace with --record leaves a file that was there as it was, and makes none")
    func errorKeepsFiles() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        let bad = dir + "/bad.evemu"
        try "# EVEMU 1.3\nN: x\nE: nonsense\n".write(toFile: bad, atomically: false, encoding: .utf8)
        try "kept\n".write(toFile: dir + "/kept.jsonl", atomically: false, encoding: .utf8)
        for arguments in [["--record", dir + "/kept.jsonl"], ["--record", dir + "/kept.jsonl", "--replace"], ["--record", dir + "/new.jsonl"]] {
            let run = try runProcess(builtProduct("gesturekit"), ["replay", bad] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.errors)")
        }
        #expect(Self.contents(dir + "/kept.jsonl") == "kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["bad.evemu", "kept.jsonl"])
    }

    /// Runs `gesturekit replay TRACE --record OUT` with the file size limit at `bytes` (SIGXFSZ
    /// ignored, so the write fails with EFBIG instead of the signal ending the program).
    static func recordWithSizeLimit(_ bytes: Int, to out: String) throws -> ProcessResult {
        try runProcess("/bin/sh", ["-c", #"trap "" XFSZ; exec prlimit --fsize="$0" "$@""#, "\(bytes)",
                                   builtProduct("gesturekit"), "replay", trace, "--json", "--record", out])
    }

    @Test("A write that fails (the file size limit) leaves the file cut back to its last whole line and ending in a stopped line: it replays",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "prlimit (util-linux) is not installed"),
          arguments: [20_000, 20_037, 47_011, 65_536])
    func failedWriteReplays(limit: Int) throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        let run = try Self.recordWithSizeLimit(limit, to: dir + "/r.jsonl")
        #expect(run.status == 2 && run.errors.contains("--record: writing") && run.errors.contains("File too large"),
                "the replay says the recording stopped: \(run.errors)")
        let text = Self.contents(dir + "/r.jsonl") ?? ""
        #expect(text.utf8.count <= limit && text.hasSuffix("\"e\":\"stopped\",\"reason\":\"a write failed: File too large\"}\n"),
                "\(text.utf8.count) bytes, ending \(text.suffix(120))")
        let replay = try runProcess(builtProduct("gesturekit"), ["replay", dir + "/r.jsonl", "--json"])
        #expect(replay.status == 0, "the cut recording replays: \(replay.errors)")
        let replayed = replay.output.split(separator: "\n"), recorded = run.output.split(separator: "\n")
        #expect(replayed.count > 10 && recorded.starts(with: replayed.prefix(replayed.count / 2)),
                "what it replays is the start of what was recorded: \(replayed.count) lines of \(recorded.count)")
    }

    @Test("A full disk (a 32 KiB tmpfs) leaves the file cut back to its last whole line and ending in a stopped line: it replays",
          .enabled(if: privateMountNamespace,
                   "needs root and a mount namespace of its own (unshare -m --propagation private) to mount a tmpfs: not here (a chroot has no mount at its root to make private)"))
    func fullDiskReplays() throws {
        let dir = try Self.directory()
        defer { Self.remove(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/small", withIntermediateDirectories: false)
        // In a mount namespace of its own: the tmpfs goes when the shell ends.
        let run = try runProcess("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c",
            #"mount -t tmpfs -o size=32k tmpfs "$0/small" && "$1" replay "$2" --record "$0/small/r.jsonl"; status=$?; cp "$0/small/r.jsonl" "$0/r.jsonl"; exit $status"#,
            dir, builtProduct("gesturekit"), Self.trace])
        #expect(run.status == 2 && run.errors.contains("No space left on device"), "\(run.errors)")
        let text = Self.contents(dir + "/r.jsonl") ?? ""
        #expect(text.hasSuffix("\"reason\":\"a write failed: No space left on device\"}\n"), "ends \(text.suffix(120))")
        let replay = try runProcess(builtProduct("gesturekit"), ["replay", dir + "/r.jsonl"])
        #expect(replay.status == 0, "the cut recording replays: \(replay.errors)")
    }
}
