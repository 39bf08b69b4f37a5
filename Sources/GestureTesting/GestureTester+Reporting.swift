import GestureKit
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// How a failed check reaches the test that made it. The rule, stated once:
///
/// 1. The tester draws its timeline (`TimelinePicture`) and writes it as SVG into the
///    artifacts directory (`GESTURE_TESTING_ARTIFACTS`, or `gesturetesting` in the system's
///    temporary directory); the failure's text ends with that file's path.
/// 2. Inside a Swift Testing test, it attaches the SVG (`Attachment`, Swift 6.2 and later:
///    written where `swift test --attachments-path` says) and records the failure as an issue
///    at the caller's line, as `#require` does, then stops the test with the error `#require`
///    throws, which Swift Testing does not record again.
/// 3. Inside an XCTest test, it records the failure at the caller's file and line, as
///    `XCTUnwrap` does, and stops the test with the error `XCTUnwrap` throws, which XCTest does
///    not record again (where XCTest has `XCTAttachment`, the SVG is attached too).
/// 4. Anywhere else (a program, a benchmark), it throws the ``GestureTestError``, whose text
///    names the caller's file and line.
///
/// GestureTesting stays pure Swift on GestureKit: Swift Testing and XCTest are the
/// toolchain's own libraries, each used only where it can be imported.
extension GestureTester {
    /// Where a check was called: the caller's `#fileID`, `#filePath`, `#line` and `#column`,
    /// which every `require…` takes as defaults, as XCTest's assertions and Swift Testing's
    /// `SourceLocation` do.
    public struct CallSite: Hashable, Sendable, CustomStringConvertible {
        public var fileID: String
        public var filePath: String
        public var line: Int
        public var column: Int
        let staticFilePath: StaticString

        public init(fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
            self.fileID = "\(fileID)"
            self.filePath = "\(filePath)"
            self.line = Int(line)
            self.column = Int(column)
            staticFilePath = filePath
        }

        public var description: String { "\(fileID):\(line)" }

        public static func == (a: CallSite, b: CallSite) -> Bool {
            a.fileID == b.fileID && a.filePath == b.filePath && a.line == b.line && a.column == b.column
        }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(filePath)
            hasher.combine(line)
            hasher.combine(column)
        }
    }

    /// The directory failures write their timelines to: `GESTURE_TESTING_ARTIFACTS` where set,
    /// else `gesturetesting` in the temporary directory (`TMPDIR`, or /tmp).
    public static var artifactsDirectory: String {
        if let dir = FileIO.environment("GESTURE_TESTING_ARTIFACTS"), !dir.isEmpty { return dir }
        let tmp = FileIO.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (tmp.hasSuffix("/") ? String(tmp.dropLast()) : tmp) + "/gesturetesting"
    }

    /// Writes the timeline of every record as SVG to `path` (made with its directories) and
    /// returns the SVG.
    @discardableResult
    public func writeTimeline(to path: String, title: String = "GestureTester") throws -> String {
        let svg = TimelinePicture(records: records, touchLog: touchLog, end: now).svg(title: title)
        try FileIO.write(svg, to: path)
        return svg
    }

    /// Reports `failure` at `site` (the rule above). Never returns normally.
    func report(_ failure: GestureTestError, at site: CallSite) throws -> Never {
        // A sweep's trial run: quietly, the sweep decides what to report.
        if GestureTester.isSweeping { throw GestureTestError.located(failure, site: site, timeline: nil) }
        let name = site.fileID.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") { $0.append($1) }
        let path = GestureTester.artifactsDirectory + "/\(name)-\(site.line)-\(GestureTester.nextFailureNumber()).svg"
        var svg: String?
        var text = failure.description + "\n(at \(site))"
        do {
            svg = try writeTimeline(to: path, title: "\(site): \(failure.headline)")
            text += "\ntimeline: \(path)"
        } catch {
            text += "\n(the timeline could not be written to \(path): \(error))"
        }
        let located = GestureTestError.located(failure, site: site, timeline: svg == nil ? nil : path)
        try GestureTester.fail(text, error: located, svg: svg.map { ($0, "\(name)-\(site.line).svg") }, at: site)
    }

    /// Fails the running test at `site` with `text` (and the SVG attached), or throws `error`
    /// where no test runs: steps 2 to 4 of the rule above.
    static func fail(_ text: String, error: any Error, svg: (text: String, name: String)?, at site: CallSite) throws -> Never {
        #if canImport(Testing)
        if Test.current != nil {
            let location = SourceLocation(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
            #if compiler(>=6.2)
            if let svg { Attachment.record(svg.text, named: svg.name, sourceLocation: location) }
            #endif
            let gestureTesterCheck = false
            try #require(gestureTesterCheck, Comment(rawValue: text), sourceLocation: location)
        }
        #endif
        #if canImport(XCTest)
        if isRunningXCTest {
            #if canImport(ObjectiveC)
            if let svg {
                let attachment = XCTAttachment(data: Data(svg.text.utf8), uniformTypeIdentifier: "public.svg-image")
                attachment.name = svg.name
                XCTContext.runActivity(named: "timeline") { $0.add(attachment) }
            }
            #endif
            _ = try XCTUnwrap(Optional<GestureTestError>.none, text, file: site.staticFilePath, line: UInt(site.line))
        }
        #endif
        throw error
    }

    /// The number of this process's next failure: numbers the timelines' files (tests run in
    /// parallel, so under a lock).
    static func nextFailureNumber() -> Int { failureNumbers.next() }
    private static let failureNumbers = Counter()

    /// Whether this process runs XCTest's tests: its program is an `.xctest` bundle (SwiftPM's
    /// test runner on Linux, `xctest` on macOS) not running Swift Testing's
    /// (`--testing-library swift-testing`, which `swift test` passes for those).
    static var isRunningXCTest: Bool {
        let arguments = CommandLine.arguments
        guard arguments.contains(where: { $0.hasSuffix(".xctest") || $0.hasSuffix("/xctest") }) else { return false }
        if let i = arguments.firstIndex(of: "--testing-library"), i + 1 < arguments.count { return arguments[i + 1] == "xctest" }
        return true
    }
}

extension GestureTestError {
    /// The first line of the failure.
    var headline: String {
        String(description.split(separator: "\n", maxSplits: 1).first ?? "")
    }
}
