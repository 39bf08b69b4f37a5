import ArgumentParser
import GestureKit
import GestureLive
import GestureMockDevice
import GestureTraces
#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit soak`: minutes of random gestures through real libinput (README, "Reliability").
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Minutes of random gestures from the recordings through real libinput (umockdev) into a scene with every recognizer kind and a scrolling layout.",
        discussion: """
        The touchscreen recordings' touch sequences are shuffled, moved, jittered and played on a \
        series of mock touchscreens, each plugged in for --segment seconds, every third unplugged \
        with fingers down. `gesturekit listen` reads them with libinput in real time, under \
        umockdev-run. At the end it prints the touch frames and actions, the latency from each \
        event's kernel timestamp to the action it caused, resident memory, and the recognizers \
        found stuck; it fails (exit status 1) on a crash, a recognizer stuck out of possible, or \
        resident memory growing 1 MiB or more after the warm-up.
        """
    )

    @Option(help: "Minutes to run.")
    var minutes = 10.0

    @Option(help: "The seed of the random choices (the same seed gives the same gestures).")
    var seed: UInt64 = 1

    @Option(help: "Seconds each mock touchscreen stays plugged in.")
    var segment = 60.0

    @Option(help: "The folder of recordings to take touchscreen gestures from.")
    var fixtures = "Fixtures"

    static let scene = """
    { "screen": [1000, 1000],
      "views": [{ "id": "root", "frame": [0, 0, 1000, 1000] }],
      "recognizers": [
        { "id": "tap", "kind": "tap", "view": "root", "requireToFail": ["doubleTap"] },
        { "id": "doubleTap", "kind": "tap", "view": "root", "taps": 2 },
        { "id": "twoFingerTap", "kind": "tap", "view": "root", "touches": 2 },
        { "id": "press", "kind": "longPress", "view": "root" },
        { "id": "pan", "kind": "pan", "view": "root", "maximumTouches": 1 },
        { "id": "pinch", "kind": "pinch", "view": "root" },
        { "id": "rotation", "kind": "rotation", "view": "root" },
        { "id": "swipe", "kind": "swipe", "view": "root", "direction": ["left", "right"], "touches": 2 },
        { "id": "edge", "kind": "screenEdgePan", "view": "root", "edges": ["left"] },
        { "id": "hover", "kind": "hover", "view": "root" } ],
      "simultaneous": [["pinch", "rotation"]],
      "layout": { "kind": "flow", "sections": [600], "itemSize": [120, 90], "minimumLineSpacing": 10,
        "minimumInteritemSpacing": 10, "sectionInset": [10, 10, 10, 10],
        "select": "tap", "reorder": "press", "scroll": "pan", "pinch": "pinch" } }
    """

    func run() throws {
        guard minutes > 0, segment >= 5 else { throw fail("--minutes must be above 0 and --segment at least 5 seconds") }
        let paths = try recordings()
        guard !paths.isEmpty else { throw fail("\(fixtures): no touchscreen recordings (ts-*.evemu)") }
        let gestures = try SoakRecording.gestures(from: paths)
        guard !gestures.isEmpty else { throw fail("\(fixtures): the touchscreen recordings hold no touch sequence") }
        let recording = SoakRecording(gestures: gestures, seconds: minutes * 60, segmentSeconds: segment, seed: seed)

        let out = LineWriter(fd: 1)
        out.write("soak: \(recording.devices.count) mock touchscreens, \(gestures.count) touch sequences from \(paths.count) recordings, "
                  + "seed \(seed), \(fmt1(recording.length)) s through libinput under umockdev")
        out.flush()
        var template = Array("/tmp/gesturekit-soak-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template).map({ String(cString: $0) }) else { throw fail("cannot make a temporary directory") }
        defer {
            unlink(dir + "/scene.json")
            unlink(dir + "/summary.txt")
            rmdir(dir)
        }
        try writeFile(dir + "/scene.json", Self.scene)
        let duration = recording.length + 1
        var command = [selfExecutable(), "listen", "--duration", String(duration), "--screen", "1000x1000",
                       "--scene", dir + "/scene.json", "--soak-summary", dir + "/summary.txt"]
        for device in recording.devices { command += ["--device", device.device.devicePath] }
        let runner: UmockdevRunner
        do {
            runner = try UmockdevRunner(timeout: duration + 60)
        } catch {
            throw fail("\(error)")
        }
        let result = try runner.runRetryingMockSetup(devices: recording.devices, command: command) { note in
            out.write("soak: \(note)")
            out.flush()
        }
        let summary = readWholeFile(dir + "/summary.txt").map { String(decoding: $0, as: UTF8.self) } ?? ""
        for line in summary.split(separator: "\n") { out.write("soak: \(line)") }
        out.flush()
        guard result.exitStatus == 0, !result.timedOut, !summary.isEmpty else {
            let why = result.timedOut ? "did not finish in \(Int(duration + 60)) s" : "exit status \(result.exitStatus.map(String.init) ?? "none")"
            throw fail("soak: the listener \(why) (a crash?): \(result.stderr.suffix(2000))")
        }
        if summary.contains("\nFAILED: ") || summary.hasPrefix("FAILED: ") { throw ExitCode(1) }
        out.write("soak: passed")
        out.flush()
    }

    /// The touchscreen recordings in `fixtures`.
    func recordings() throws -> [String] {
        guard let d = opendir(fixtures) else { throw fail("\(fixtures): cannot read the folder") }
        defer { closedir(d) }
        var names: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if (name.hasPrefix("ts-") || name.hasPrefix("synthetic-ts-")) && name.hasSuffix(".evemu") { names.append(name) }
        }
        return names.sorted().map { "\(fixtures)/\($0)" }
    }
}
