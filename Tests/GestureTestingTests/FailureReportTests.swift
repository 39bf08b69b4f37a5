import GestureKit
import GestureLayout
import GestureTesting
import Testing

@Suite("Failures that point at the line that checked, say why, and show the timeline")
struct FailureReportTests {
    /// A photo with a double tap and a single tap that requires it to fail.
    static func photo() -> (View, TapGestureRecognizer, TapGestureRecognizer) {
        let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
        let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
        let singleTap = TapGestureRecognizer(name: "singleTap")
        singleTap.require(toFail: doubleTap)
        photo.addGestureRecognizer(doubleTap)
        photo.addGestureRecognizer(singleTap)
        return (photo, doubleTap, singleTap)
    }

    @Test("A failed requireRecognized records one issue, at the calling line, with the account and the timeline's path, which holds an SVG")
    func failurePointsAtTheLine() throws {
        let (photo, doubleTap, singleTap) = Self.photo()
        let tester = GestureTester(root: photo)
        try tester.doubleTap(on: photo)
        try tester.requireRecognized(doubleTap)
        let line = #line + 2
        let issues = recordedIssues {
            try tester.requireRecognized(singleTap)
        }
        #expect(issues.count == 1, "one issue, not a second for the thrown error: \(issues)")
        let issue = try #require(issues.first)
        #expect(issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "FailureReportTests.swift",
                "the issue is at the require's line \(line): \(String(describing: issue.sourceLocation))")
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        #expect(text.contains("expected singleTap to recognize; it did not"), "\(text)")
        #expect(text.contains("singleTap: possible → failed at"), "the account: \(text)")
        let path = try #require(text.split(separator: "\n").first { $0.hasPrefix("timeline: ") }.map { String($0.dropFirst(10)) })
        let svg = try String(contentsOfFile: path)
        #expect(svg.hasPrefix("<svg") && svg.contains("singleTap") && svg.contains("doubleTap"), "the timeline draws both recognizers")
    }

    @Test("failure(of:) gives a check's failure as a value, without reporting it")
    func failureAsAValue() throws {
        let (photo, doubleTap, singleTap) = Self.photo()
        let tester = GestureTester(root: photo)
        try tester.doubleTap(on: photo)
        #expect(tester.failure(of: .recognized(doubleTap)) == nil)
        let failure = try #require(tester.failure(of: .recognized(singleTap)))
        #expect(failure.description.hasPrefix("expected singleTap to recognize; it did not\nwhat the recognizers did:"))
        #expect(tester.failure(of: .states(doubleTap, [.ended])) == nil)
    }

    @Test("The account collapses a pan's run of changed into one line")
    func changedRunsCollapse() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        let tester = GestureTester(root: root)
        try tester.drag(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100))
        let lines = tester.account(of: pan).split(separator: "\n")
        #expect(lines.count == 4, "began, the first changed, the run, ended: \(lines)")
        #expect(lines[2].hasPrefix("pan: changed ×") && lines[2].contains(" from ") && lines[2].hasSuffix(" s"), "\(lines)")
        #expect(tester.states(of: pan).count > 10, "the states themselves are all there")
    }

    @Test("A tap's account states its margins: how long it was held, how far it moved, how long the pause was, against the limits")
    func marginsAreStated() throws {
        let (photo, doubleTap, _) = Self.photo()
        let tester = GestureTester(root: photo)
        try tester.doubleTap(on: photo)
        #expect(!tester.account.contains("allowed"), "the plain account states none")
        let line = try #require(tester.account(of: doubleTap, margins: true).split(separator: "\n").last)
        #expect(line.hasSuffix("(held 80 of 500 ms allowed; moved 0 of 10 pt allowed; second tap 140 of 300 ms allowed)"), "\(line)")
        let press = LongPressGestureRecognizer(name: "press")
        photo.addGestureRecognizer(press)
        try tester.settle()
        tester.clearRecords()
        try tester.longPress(on: photo)
        #expect(tester.account(of: press, margins: true).contains("(held 600 of 500 ms needed; moved 0 of 10 pt allowed)"),
                "\(tester.account(of: press, margins: true))")
        // An engine fed by the app, not the tester: no margins, which the tester cannot know.
        let engine = GestureEngine()
        let pad = View(id: "pad", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let tap = TapGestureRecognizer(name: "tap")
        pad.addGestureRecognizer(tap)
        engine.addRoot(pad)
        let watcher = GestureTester(engine: engine)
        engine.send(TouchFrame(time: .zero, changes: [TouchChange(sourceID: 1, phase: .began, location: Point(x: 50, y: 50))]))
        engine.send(TouchFrame(time: Instant(seconds: 0.1), changes: [TouchChange(sourceID: 1, phase: .ended, location: Point(x: 55, y: 50))]))
        #expect(watcher.account(margins: true) == "tap: possible → ended at 0.100000 s: 1 tap of 1 touch completed", "\(watcher.account(margins: true))")
    }
}
