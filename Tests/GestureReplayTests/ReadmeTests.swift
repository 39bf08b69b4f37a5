import Foundation
import Testing
import GestureTestSupport

@Suite("README")
struct ReadmeTests {
    @Test("the README's library sample is Examples/QuickStart/main.swift, word for word")
    func sampleMatchesExample() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: packageRoot.appendingPathComponent("Examples/QuickStart/main.swift"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- quickstart:begin -->\n```swift\n"))
        let end = try #require(readme.range(of: "```\n<!-- quickstart:end -->"))
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == example)
    }

    @Test("the README's test of the quick start is Examples/Downstream's QuickStartTests.swift, word for word (run by check-downstream.sh's swift test)")
    func testSampleMatchesDownstreamTest() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: packageRoot.appendingPathComponent("Examples/Downstream/Tests/DownstreamTests/QuickStartTests.swift"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- test-it:begin -->\n```swift\n"))
        let end = try #require(readme.range(of: "```\n<!-- test-it:end -->"))
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == example)
    }

    @Test("the README's desktop-session sample is Examples/DesktopQuickStart/main.swift, word for word (built as desktop-quickstart; run under sway by GestureWaylandTests)")
    func desktopSampleMatchesExample() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: packageRoot.appendingPathComponent("Examples/DesktopQuickStart/main.swift"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- desktop-quickstart:begin -->\n```swift\n"))
        let end = try #require(readme.range(of: "```\n<!-- desktop-quickstart:end -->"))
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == example)
    }

    @Test("the layouts article's Scrolling sample is the one ReadmeScrollingSampleTests runs, word for word")
    func scrollingSampleMatches() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("Sources/GestureLayout/GestureLayout.docc/LayoutsAndCollectionView.md"), encoding: .utf8)
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Tests/GestureReplayTests/ReadmeScrollingSample.swift"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- scrolling:begin -->\n```swift\n"))
        let end = try #require(readme.range(of: "```\n<!-- scrolling:end -->"))
        let from = try #require(source.range(of: "    // readme:scrolling:begin\n"))
        let to = try #require(source.range(of: "    // readme:scrolling:end\n"))
        // The sample is indented by four spaces in the function.
        let sample = source[from.upperBound..<to.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == sample)
    }

    @Test("the sample runs and prints what its comment says")
    func sampleRuns() throws {
        let run = try runProcess(builtProduct("quickstart"), errors: .inherit)
        #expect(run.output == "select at (100.0, 100.0)\n")
    }
}
