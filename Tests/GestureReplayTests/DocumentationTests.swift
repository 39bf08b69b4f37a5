import Foundation
import GesturePicture
import Testing
import GestureTestSupport

@Suite("Documentation")
struct DocumentationTests {
    static let diagrams = StateMachineDiagram.builtIn()

    @Test("the committed state-machine diagram is the one the recognizer's code draws today",
          arguments: diagrams.map(\.file))
    func diagramIsCurrent(file: String) throws {
        let diagram = try #require(Self.diagrams.first { $0.file == file }?.diagram)
        let path = packageRoot.appendingPathComponent("docs/diagrams/\(file).dot")
        let committed = try String(contentsOf: path, encoding: .utf8)
        #expect(committed == diagram.dot,
                "docs/diagrams/\(file).dot should be what the \(diagram.title) does now; run `make docs` to draw it again")
        let svg = packageRoot.appendingPathComponent("Sources/GestureKit/GestureKit.docc/Resources/state-machine-\(file).svg")
        #expect(FileManager.default.fileExists(atPath: svg.path), "the documentation should show the \(file) diagram as SVG")
    }

    @Test("the explorer finds what a tap and a double tap do, with the reasons users read")
    func explorerFindsTheTapRules() throws {
        let tap = try #require(Self.diagrams.first { $0.file == "tap" }?.diagram)
        let fromTouching = Set(tap.edges.filter { $0.from == "touching" }.map(\.label))
        #expect(fromTouching.isSuperset(of: ["ended: taps completed", "failed: moved too far", "failed: held too long"]),
                "a tap should end when its touch lifts in place and fail when it moves too far or is held too long; found \(fromTouching)")
        let double = try #require(Self.diagrams.first { $0.file == "double-tap" }?.diagram)
        #expect(double.edges.contains { $0.from == "betweenTaps" && $0.label == "failed: tap interval expired" },
                "a double tap should fail when the second tap comes too late")
        #expect(double.edges.contains { $0.from == "touching" && $0.to == "ended" },
                "a double tap should end after its second tap")
        let pan = try #require(Self.diagrams.first { $0.file == "pan" }?.diagram)
        #expect(pan.edges.contains { $0.label == "began: panned" }, "a pan should begin when its touches move past the threshold")
    }

    @Test("each sample in the documentation is its example's source, word for word",
          arguments: [
            ("Sources/GestureKit/GestureKit.docc/GettingStarted.md", "quickstart", "Examples/QuickStart/main.swift"),
            ("Sources/GestureKit/GestureKit.docc/CustomRecognizers.md", "checkmark",
             "Examples/Downstream/Sources/DownstreamApp/CheckmarkGestureRecognizer.swift"),
            ("Sources/GestureKit/GestureKit.docc/CustomRecognizers.md", "scratch",
             "Tests/GestureKitTests/ScratchGestureRecognizer.swift"),
            ("Sources/GestureLayout/GestureLayout.docc/LayoutsAndCollectionView.md", "photos",
             "Examples/Downstream/Sources/DownstreamApp/Photos.swift"),
            ("Sources/GestureKit/GestureKit.docc/DesktopInput.md", "canvas",
             "Tests/GestureKitTests/DrawingCanvasSample.swift"),
            ("Sources/GestureGTK/GestureGTK.docc/UsingGestureKitInAGTKApp.md", "gtk",
             "Examples/DownstreamToolkits/Sources/downstream-gtk/main.swift"),
            ("Sources/GestureGTK/GestureGTK.docc/UsingGestureKitInAGTKApp.md", "gtk-widgets",
             "Examples/DownstreamToolkits/Sources/downstream-gtk/PhotoGestures.swift"),
            ("Sources/GestureGTK/GestureGTK.docc/UsingGestureKitInAGTKApp.md", "gtk-builder",
             "Examples/DownstreamToolkits/Sources/downstream-gtk-widgets/main.swift"),
            ("Sources/GestureSDL/GestureSDL.docc/UsingGestureKitInAnSDLApp.md", "sdl",
             "Examples/DownstreamToolkits/Sources/downstream-sdl/main.swift"),
            ("Sources/GestureLibinput/GestureLibinput.docc/LiveInputInYourApp.md", "live-input",
             "Sources/gesturekit-libinput-probe/LiveInputSample.swift"),
            ("Sources/GestureWayland/GestureWayland.docc/AWaylandWindow.md", "desktop-quickstart",
             "Examples/DesktopQuickStart/main.swift"),
            ("Sources/GestureKit/GestureKit.docc/BuildingAKiosk.md", "kiosk",
             "Tests/GestureReplayTests/ReadmeKioskSample.swift#readme:kiosk"),
            ("Sources/GestureKit/GestureKit.docc/BuildingAKiosk.md", "kiosk-input",
             "Tests/GestureLibinputTests/KioskInputSample.swift"),
            ("Sources/GestureKit/GestureKit.docc/BadInputAndFaults.md", "set-aside-input",
             "Tests/GestureKitTests/SetAsideInputSample.swift"),
            ("Sources/GestureKit/GestureKit.docc/Threads.md", "threads",
             "Tests/GestureKitTests/ThreadsSample.swift"),
            ("Sources/GestureKit/GestureKit.docc/ContextMenusAndDragAndDrop.md", "context-menu",
             "Tests/GestureKitTests/ContextMenuSample.swift"),
            ("Sources/GestureKit/GestureKit.docc/ContextMenusAndDragAndDrop.md", "drag-and-drop",
             "Tests/GestureKitTests/PhotoDragSample.swift"),
            // Testing your gestures: the tests of Examples/Downstream, which check-downstream.sh
            // builds and runs (`swift test`) in a package of its own.
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-first-test",
             "Examples/Downstream/Tests/DownstreamTests/QuickStartTests.swift"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-app-model",
             "Examples/Downstream/Sources/DownstreamApp/PhotoViewer.swift"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-app-tests",
             "Examples/Downstream/Tests/DownstreamTests/PhotoViewerTests.swift#testing-app-tests"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-app-clock",
             "Examples/Downstream/Tests/DownstreamTests/CaptionClockTests.swift#testing-app-clock"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-sweep",
             "Examples/Downstream/Tests/DownstreamTests/PhotoViewerTests.swift#testing-sweep"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-golden",
             "Examples/Downstream/Tests/DownstreamTests/PhotoViewerTests.swift#testing-golden"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-clock",
             "Examples/Downstream/Tests/DownstreamTests/ClockTests.swift#testing-clock"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-aim",
             "Examples/Downstream/Tests/DownstreamTests/AimingTests.swift#testing-aim"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-defaults",
             "Examples/Downstream/Tests/DownstreamTests/DefaultsTests.swift#testing-defaults"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-desktop",
             "Examples/Downstream/Tests/DownstreamTests/DesktopTests.swift#testing-desktop"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-replay",
             "Examples/Downstream/Tests/DownstreamTests/RecordingTests.swift#testing-replay"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-account",
             "Examples/Downstream/Tests/DownstreamTests/AccountTests.swift#testing-account"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-checkmark",
             "Examples/Downstream/Tests/DownstreamTests/CheckmarkTests.swift"),
            ("Sources/GestureTesting/GestureTesting.docc/TestingYourGestures.md", "testing-xctest",
             "Examples/Downstream/Tests/DownstreamTests/PhotoXCTests.swift"),
            ("Sources/GestureRecording/GestureRecording.docc/RecordingABugReport.md", "recording-app",
             "Tests/GestureRecordingTests/RecordingArticleSamples.swift#recording-app"),
            ("Sources/GestureRecording/GestureRecording.docc/RecordingABugReport.md", "recording-test",
             "Tests/GestureRecordingTests/RecordingArticleSamples.swift#recording-test"),
          ])
    func sampleIsTheExample(article: String, marker: String, source: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(article), encoding: .utf8)
        // "FILE#REGION": the lines of FILE between `// REGION:begin` and `// REGION:end`, a
        // sample inside a compiled function, its indentation of four spaces removed.
        let parts = source.split(separator: "#", maxSplits: 1).map(String.init)
        var code = try String(contentsOf: packageRoot.appendingPathComponent(parts[0]), encoding: .utf8)
        if parts.count == 2 {
            let from = try #require(code.range(of: "    // \(parts[1]):begin\n"), "\(parts[0]) should mark its \(parts[1]) region")
            let to = try #require(code.range(of: "    // \(parts[1]):end\n"), "\(parts[0]) should end its \(parts[1]) region")
            code = code[from.upperBound..<to.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
        }
        let begin = try #require(text.range(of: "<!-- \(marker):begin -->\n```swift\n"), "\(article) should mark its \(marker) sample")
        let end = try #require(text.range(of: "```\n<!-- \(marker):end -->"), "\(article) should end its \(marker) sample")
        #expect(String(text[begin.upperBound..<end.lowerBound]) == code, "\(article)'s sample should be \(source) as it is")
    }

    @Test("the custom recognizer's usage in the article is the downstream program's, word for word")
    func usageSampleIsInTheProgram() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Sources/GestureKit/GestureKit.docc/CustomRecognizers.md"), encoding: .utf8)
        let program = try String(contentsOf: packageRoot.appendingPathComponent("Examples/Downstream/Sources/DownstreamApp/Program.swift"), encoding: .utf8)
        let start = try #require(text.range(of: "Attach it like any recognizer"))
        let block = try #require(text.range(of: "```swift\n", range: start.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "```\n", range: block.upperBound..<text.endIndex))
        // The program's code is the body of `runDownstreamProgram()`, indented by four spaces.
        let usage = text[block.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        #expect(program.contains(usage), "the article's usage sample should be part of Examples/Downstream's program (DownstreamApp/Program.swift)")
    }
}
