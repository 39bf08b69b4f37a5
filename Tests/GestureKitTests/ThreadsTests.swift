import Foundation
import GestureKit
import Testing
import GestureTestSupport

/// The one-thread rule (the "Threads" article; Sources/GestureKit/Threads.swift): an engine,
/// its views and its recognizers belong to the thread that feeds the engine.
@Suite("Threads")
struct ThreadsTests {
    @Test("the article's sample: an engine made, fed and read on a thread of its own recognizes the tap there")
    func sampleRuns() {
        let frames = [(TouchPhase.began, 0.0), (.ended, 0.05)].map { phase, seconds in
            TouchFrame(time: Instant(seconds: seconds),
                       changes: [TouchChange(sourceID: 0, phase: phase, location: Point(x: 100, y: 100))])
        }
        #expect(recognizeOnAThreadOfItsOwn(frames) == ["tap at (100.0, 100.0)"])
    }

    /// Code that shares a GestureKit object with another thread, and the start of the message
    /// Swift 6 must refuse it with: the unavailable conformance's, naming the rule. Without
    /// Threads.swift the message would be another ("does not conform"); with an `@unchecked
    /// Sendable` conformance the code would compile. Either fails this test.
    static let refusals: [(name: String, code: String, message: String)] = [
        ("engine", "func share(_ engine: GestureEngine) { let shared: any Sendable = engine; _ = shared }",
         "conformance of 'GestureEngine' to 'Sendable' is unavailable: a GestureEngine belongs to the one thread"),
        ("view subclass", """
            final class PhotoView: View {}
            func share(_ view: PhotoView) { let shared: any Sendable = view; _ = shared }
            """,
         "conformance of 'View' to 'Sendable' is unavailable: a View belongs to its engine's thread"),
        ("recognizer", "func share(_ tap: TapGestureRecognizer) { let shared: any Sendable = tap; _ = shared }",
         "conformance of 'GestureRecognizer' to 'Sendable' is unavailable: a GestureRecognizer belongs to its engine's thread"),
        ("sendable closure", """
            func feedElsewhere(_ engine: GestureEngine) {
                let work: @Sendable () -> Void = { engine.finish() }
                work()
            }
            """,
         "capture of 'engine' with non-Sendable type 'GestureEngine' in a '@Sendable' closure"),
    ]

    @Test("Swift 6 refuses code that shares an engine, a view or a recognizer with another thread, naming the rule",
          arguments: refusals.map(\.name))
    func compilerRefusesSharing(name: String) throws {
        let refusal = try #require(Self.refusals.first { $0.name == name })
        let result = try TypeCheck.run("import GestureKit\n\n\(refusal.code)\n")
        #expect(result.status != 0, "Swift 6 should refuse to share a GestureKit object across threads (\(name)), but it compiled")
        #expect(result.output.contains("error: \(refusal.message)"),
                "expected the error \"\(refusal.message)…\", got:\n\(result.output)")
    }

    @Test("the same compiler, flags and modules accept code that keeps the engine on one thread (the check above is not a setup failure)")
    func compilerAcceptsOneThread() throws {
        let result = try TypeCheck.run("""
            import GestureKit

            func feedHere() {
                let engine = GestureEngine()
                engine.addRoot(View(id: "photo", frame: Rect(x: 0, y: 0, width: 100, height: 100)))
                engine.finish()
            }
            """)
        #expect(result.status == 0, "expected the one-thread code to compile, got:\n\(result.output)")
    }
}

/// `swiftc -typecheck -swift-version 6` on a source file that imports GestureKit, with the
/// compiler and the module maps that built this test (read from SwiftPM's build manifest,
/// `.build/debug.yaml`) and the modules it built.
enum TypeCheck {
    struct Result {
        var status: Int32
        var output: String
    }

    /// `.build/<triple>/debug`, where the test bundle and the modules are.
    static let buildDirectory = builtProductsDirectory

    static func run(_ source: String) throws -> Result {
        let manifest = buildDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("\(buildDirectory.lastPathComponent).yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let compiler = try #require(firstMatch(#""([^"]*/swiftc)""#, in: text),
                                    "SwiftPM's build manifest \(manifest.path) should name the compiler")
        let moduleMaps = Set(allMatches(#"-fmodule-map-file=([^"]+)"#, in: text))
            .filter { FileManager.default.fileExists(atPath: $0) }.sorted()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gesturekit-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let run = try runProcess(compiler, ["-typecheck", "-parse-as-library", "-swift-version", "6",
                                            "-I", buildDirectory.appendingPathComponent("Modules").path,
                                            "-module-cache-path", directory.appendingPathComponent("cache").path]
                                     + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path],
                                 errors: .intoOutput)
        return Result(status: run.status, output: run.output)
    }

    static func firstMatch(_ pattern: String, in text: String) -> String? {
        allMatches(pattern, in: text).first
    }

    static func allMatches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
