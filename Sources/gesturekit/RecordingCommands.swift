import ArgumentParser
import GestureFormat
import GestureKit
import GestureRecording
import GestureReplay
import GestureTraces

/// Reads a GestureKit input recording whole, for the tools that rewrite one.
func openRecording(_ path: String) throws -> TraceReader {
    let reader: TraceReader
    do {
        reader = try TraceReader(path: path)
    } catch let e as TraceError {
        throw fail(e.description)
    }
    guard let _ = reader.recordingHeader else {
        throw fail("\(path): expected a GestureKit input recording (docs/RECORDING.md), found \(reader.format.rawValue): make one with gesturekit replay \(path) --record FILE")
    }
    return reader
}

/// The output file of a tool that rewrites a recording: never its input, never over a file
/// unless asked (`--replace`).
func makeOutput(_ path: String, reading input: String, header: InputRecording.Header, replacing: ReplaceOption,
                privacy: RecordingPrivacy = .none) throws -> InputRecordingWriter {
    do {
        try replacing.check(recording: path, readingFrom: input)
        return try InputRecordingWriter(path: path, header: header, limit: .max, replacing: replacing.replace, privacy: privacy)
    } catch let e as RecordingFileError {
        throw fail("--output: \(replacing.explain(e))")
    }
}

struct Trim: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cut a GestureKit input recording down to a time range and some of its devices, and scrub what it reveals.",
        discussion: """
        Keeps the lines timed from --from to --to (seconds on the recording's clock, both \
        included) of the --device numbers given (all without it), after the arrivals of those \
        devices present at --from. A touch, pen, pointer button or touchpad gesture already \
        down at --from is left out until it lifts. The privacy options rewrite what is kept \
        (docs/RECORDING.md, "Before you attach a recording"); --private-view needs --scene.
        """
    )

    @Argument(help: "The recording to trim.")
    var recording: String

    @Option(name: .shortAndLong, help: "The trimmed recording to write.")
    var output: String

    @Option(help: "The first time kept, in seconds on the recording's clock (default: its start).")
    var from: Double?

    @Option(help: "The last time kept, in seconds on the recording's clock (default: its end).")
    var to: Double?

    @Option(name: .customLong("device"), help: "A device number to keep (repeatable; default: all).")
    var devices: [Int] = []

    @Option(help: "A scene (JSON) whose views --private-view names.")
    var scene: String?

    @OptionGroup var replacing: ReplaceOption
    @OptionGroup(title: "What the trimmed recording leaves out") var privacy: PrivacyOptions

    func run() throws {
        if let from, let to, to < from { throw fail("--to (\(fmt1(to)) s) is before --from (\(fmt1(from)) s)") }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, !(value.isFinite && abs(value) < 9e6) { throw fail("\(name): expected seconds, found \(value)") }
        }
        let reader = try openRecording(recording)
        let scene = try loadScene(self.scene)
        let live = try LiveScene(scene)
        let writer = try makeOutput(output, reading: recording, header: reader.recordingHeader!, replacing: replacing,
                                    privacy: try privacy.privacy(views: live.views))
        let trim = InputRecordingTrim(from: from.map { Instant(seconds: $0) }, to: to.map { Instant(seconds: $0) },
                                      devices: devices.isEmpty ? nil : Set(devices.map { InputDeviceID($0) }))
        let summary: InputRecordingTrim.Summary
        do {
            summary = try trim.run(reader, into: writer)
        } catch let e as TraceError {
            writer.discard()
            throw fail(e.description)
        }
        let err = LineWriter(fd: 2)
        err.write("gesturekit: \(output): \(summary.written) of \(summary.read) events kept\(summary.leftOut > 0 ? ", \(summary.leftOut) of contacts down at --from left out" : "")")
        err.flush()
        if let reason = writer.stopReason, reason != "closed" { throw fail("--output: \(reason)") }
    }
}

struct Minimize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Shrink a GestureKit input recording to a small one that still makes a scene's expectation fail: a bug report becomes a regression file.",
        discussion: """
        --expect says what the scene should do, "[not] RECOGNIZER STATE" with STATE began, \
        changed, ended, cancelled, failed or recognized (began or ended): "double ended", \
        "not single ended". It must fail on the recording. Delta debugging over replays keeps \
        the fewest contacts (each touch's whole life, a pen's stroke, a pointer's button touch, \
        a touchpad gesture), then the fewest of their moves, then the shortest pauses, with \
        which it still fails. --still says what must keep holding, so the failure stays the \
        same failure: "pinch failed" with --expect "pinch began" keeps a pinch that is tried \
        and fails, not no pinch at all.
        """
    )

    @Argument(help: "The recording (a GestureKit input recording) whose replay fails the expectation.")
    var recording: String

    @Option(help: "The scene (JSON) the recording replays through (default: the default scene).")
    var scene: String?

    @Option(help: "What the scene should do and does not: \"[not] RECOGNIZER STATE\".")
    var expect: String

    @Option(help: "What must still hold on the smaller recording (repeatable): \"[not] RECOGNIZER STATE\".")
    var still: [String] = []

    @Option(name: .shortAndLong, help: "The smaller recording to write.")
    var output: String

    @Option(name: .customLong("max-replays"), help: "The most replays to run (default 20000).")
    var maximumReplays = 20_000

    @OptionGroup var replacing: ReplaceOption

    /// The most lines a recording to minimize may have: trim a longer one first.
    static let maximumEntries = 200_000

    func run() throws {
        let scene = try loadScene(self.scene)
        let expectation: SceneExpectation, stills: [SceneExpectation]
        do {
            expectation = try SceneExpectation(parsing: expect, in: scene)
            stills = try still.map { try SceneExpectation(parsing: $0, in: scene) }
        } catch let e as SceneExpectation.ParseError {
            throw fail("--expect: \(e)")
        }
        let reader = try openRecording(recording)
        var entries: [InputRecording.Entry] = []
        do {
            try reader.run(advancingClock: { entries.append(.clock($0)) }) { event in
                entries.append(.event(event))
                if entries.count > Self.maximumEntries {
                    throw TraceError(.unsupported, file: recording, "more than \(Self.maximumEntries) lines: trim it first (gesturekit trim)")
                }
            }
        } catch let e as TraceError {
            throw fail(e.description)
        }
        let minimizer = RecordingMinimizer(scene: scene, expectation: expectation, still: stills, maximumReplays: maximumReplays)
        let result: RecordingMinimizer.Result
        do {
            result = try minimizer.minimize(entries)
        } catch let e as RecordingMinimizer.Failure {
            throw fail("\(recording): \(e)")
        } catch let e as GestureConfigurationError {
            throw fail("\(self.scene ?? "scene"): \(e)")
        }
        let writer = try makeOutput(output, reading: recording, header: reader.recordingHeader!, replacing: replacing)
        for entry in result.entries {
            switch entry {
            case let .event(event): writer.record(event)
            case let .clock(time): writer.recordClock(time)
            case .stopped: break
            }
        }
        writer.close()
        if let reason = writer.stopReason, reason != "closed" { throw fail("--output: \(reason)") }
        let err = LineWriter(fd: 2)
        err.write("gesturekit: \(output): \"\(expectation)\" still fails with \(result.partsKept) of \(result.parts) contacts and other parts, \(result.movesKept) of \(result.moves) moves, \(fmt1(result.secondsKept)) s of \(fmt1(result.seconds)) s (\(result.replays) replays\(result.limited ? ", stopped at --max-replays: it may shrink further" : ""))")
        if result.partsKept == 0 {
            err.write("gesturekit: the expectation fails with no input at all: say with --still what must keep happening")
        }
        err.flush()
    }
}
