import ArgumentParser
import GestureKit
import GestureReplay
import GestureTraces

#if canImport(Glibc)
import Glibc
#endif

@main
struct GestureKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturekit",
        abstract: "Replay, inspect and watch touch input through GestureKit's gesture recognizers.",
        subcommands: [Replay.self, Inspect.self]
    )
}

/// Writes lines to a file descriptor through a buffer (standard output by default).
final class LineWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes collected before a write(2).
    static let bufferBytes = 64 * 1024

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(LineWriter.bufferBytes)
    }

    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0a)
        if buffer.count >= LineWriter.bufferBytes { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break // a closed pipe: nothing more can be written
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Stops with a message on standard error and exit status 2 (bad input).
func fail(_ message: String) -> ExitCode {
    let err = LineWriter(fd: 2)
    err.write("gesturekit: \(message)")
    err.flush()
    return ExitCode(2)
}

func loadScene(_ path: String?) throws -> Scene {
    guard let path else { return .defaultScene() }
    guard let bytes = readWholeFile(path) else { throw fail("\(path): cannot read the scene file") }
    let json: JSONValue
    do {
        json = try JSONParser.parse(bytes: bytes)
    } catch let e as JSONSyntaxError {
        throw fail("\(path):\(e.line):\(e.column): \(e.message)")
    }
    do {
        return try Scene.parse(json)
    } catch let e as SceneError {
        throw fail("\(path): \(e)")
    }
}

func readWholeFile(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 65536, f) }
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > limit { return nil }
    }
    return ferror(f) == 0 ? bytes : nil
}

func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "wb") else { throw fail("\(path): cannot write (\(String(cString: strerror(errno))))") }
    defer { fclose(f) }
    var t = text
    let ok = t.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
    if !ok { throw fail("\(path): write failed") }
}

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded trace through a scene of views and recognizers, on virtual time.",
        discussion: """
        TRACE is an evemu recording, a `libinput record` YAML file or `libinput debug-events` \
        text (detected from the content). Without --scene the default scene is used: one root \
        view with a single tap (requiring the double tap to fail), a double tap, a long press \
        and a pinch. The output contract is REPLAY.md.
        """
    )

    @Argument(help: "The recording to replay.")
    var trace: String

    @Option(help: "A scene (JSON) of views and recognizers.")
    var scene: String?

    @Flag(help: "Print one JSON object per line (the replay contract) instead of a readable log.")
    var json = false

    @Option(help: "Also draw the replay as SVG: touch paths and a timeline of every recognizer and view.")
    var svg: String?

    func run() throws {
        let scene = try loadScene(self.scene)
        var picture = svg.map { _ in ReplayPicture(scene: scene) }
        let out = LineWriter(fd: 1)
        do {
            try TraceReplay.run(path: trace, scene: scene, observe: picture == nil ? nil : { picture?.observe($0) }) { record in
                picture?.observe(record)
                out.write(json ? record.jsonLine : record.humanLine)
            }
        } catch let e as TraceError {
            throw fail(e.description)
        } catch let e as GestureConfigurationError {
            throw fail("\(self.scene ?? "scene"): \(e)")
        }
        out.flush()
        if let svg, let picture {
            try writeFile(svg, picture.svg(title: "gesturekit replay \(basename(trace))"))
        }
    }
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a recorded trace: devices, kind, axes, size in mm, duration, fingers, event counts.")

    @Argument(help: "The recording to inspect.")
    var trace: String

    func run() throws {
        do {
            let summary = try TraceSummary(path: trace)
            let out = LineWriter(fd: 1)
            out.write(summary.description)
            out.flush()
        } catch let e as TraceError {
            throw fail(e.description)
        }
    }
}

func basename(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
}
