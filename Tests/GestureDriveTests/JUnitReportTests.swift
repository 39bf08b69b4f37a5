import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GestureDrive
import Testing

/// A JUnit XML document read back by Foundation's XML parser: its elements, in order, with
/// their attributes and text.
final class JUnitDocument: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        var parent: Int?
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var error: Error?

    init(_ xml: String) {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(Element(name: name, attributes: attributes, parent: open.last))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = open.last { elements[i].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The children named `name` of the element at `index`.
    func children(of index: Int, _ name: String) -> [Element] {
        elements.filter { $0.parent == index && $0.name == name }
    }

    /// Each test case's name, with what it holds (failure, error, skipped, or nothing).
    var cases: [(name: String, time: String?, outcome: Element?)] {
        elements.indices.filter { elements[$0].name == "testcase" }.map { i in
            let inner = elements.first { $0.parent == i }
            return (elements[i].attributes["name"] ?? "", elements[i].attributes["time"], inner)
        }
    }
}

@Suite struct JUnitReportTests {
    /// Text every escape must survive: markup, quotes, line breaks, tabs, a control character,
    /// a lone ']]>', non-ASCII.
    static let nasty = "a <b> & \"c\" 'd' ]]> \u{7}bell\ttab\nsecond line é 👆"

    static func report() -> JUnitReport {
        var report = JUnitReport()
        report.timestamp = 1_796_177_913
        report.hostname = "ci & <runner>"
        report.properties = [("app", "eog \"/tmp/a b.png\"")]
        report.cases = [
            .init(name: "start eog", seconds: 2.0144, outcome: .passed),
            .init(name: "step 1: tap 10,20", seconds: 0.25, outcome: .passed),
            .init(name: "step 2: compare <kept>.png 1", seconds: 5.1, outcome: .failed(message: nasty)),
            .init(name: "step 3: pinch center 2 0.5", seconds: 0, outcome: .skipped(why: "not run: step 2 failed")),
        ]
        report.systemOut = ["drive: window eog (pid 7) at 0,0 1280×800 after 2.014 s", "drive: tap 10,20: done in 0.25 s & more"]
        report.systemErr = ["gesturekit: " + nasty]
        return report
    }

    @Test("the report is well formed and reads back: one suite, a case per step with its time, the failure and the skipped steps")
    func readsBack() throws {
        let xml = Self.report().xml
        let doc = JUnitDocument(xml)
        #expect(doc.error == nil, "the report is well-formed XML: \(String(describing: doc.error))\n\(xml)")
        let suites = doc.all("testsuite")
        try #require(suites.count == 1, "one testsuite")
        let suite = suites[0].attributes
        #expect(suite["name"] == "gesturekit drive")
        #expect(suite["tests"] == "4" && suite["failures"] == "1" && suite["skipped"] == "1" && suite["errors"] == "0",
                "the suite counts 4 tests, 1 failure, 1 skipped: \(suite)")
        #expect(suite["timestamp"] == "2026-12-02T02:18:33", "the timestamp is ISO 8601 in UTC: \(suite["timestamp"] ?? "none")")
        #expect(suite["hostname"] == "ci & <runner>", "attributes are unescaped back to their text")
        #expect(suite["time"] == "7.364", "the suite's time is its cases' sum: \(suite["time"] ?? "none")")
        let cases = doc.cases
        #expect(cases.map(\.name) == ["start eog", "step 1: tap 10,20", "step 2: compare <kept>.png 1", "step 3: pinch center 2 0.5"])
        #expect(cases.map(\.time) == ["2.014", "0.250", "5.100", "0.000"], "each case's time in seconds, three decimals")
        #expect(cases[0].outcome == nil && cases[1].outcome == nil, "passed steps hold nothing")
        let failure = try #require(cases[2].outcome)
        #expect(failure.name == "failure")
        let expectedText = Self.nasty.replacingOccurrences(of: "\u{7}", with: "\u{FFFD}")
        #expect(failure.text == expectedText, "the failure's text is the whole message (a control character XML cannot carry replaced): \(failure.text)")
        #expect(failure.attributes["message"] == expectedText.components(separatedBy: "\n")[0],
                "the failure's message attribute is its first line: \(failure.attributes["message"] ?? "none")")
        #expect(cases[3].outcome?.name == "skipped" && cases[3].outcome?.attributes["message"] == "not run: step 2 failed")
        #expect(doc.all("system-out").first?.text.contains("done in 0.25 s & more") == true, "system-out holds drive's lines")
        #expect(doc.all("property").first?.attributes["value"] == "eog \"/tmp/a b.png\"")
    }

    @Test("attributes keep line breaks and tabs as character references")
    func attributeWhitespace() throws {
        var report = JUnitReport()
        report.cases = [.init(name: "line\nbreak\ttab", seconds: 0, outcome: .error(message: "bad\nargument"))]
        let doc = JUnitDocument(report.xml)
        #expect(doc.error == nil)
        #expect(doc.cases.first?.name == "line\nbreak\ttab", "a parser folds raw line breaks in attributes; escaped they come back")
        #expect(doc.cases.first?.outcome?.name == "error" && doc.all("testsuite").first?.attributes["errors"] == "1")
    }

    @Test("an empty run is still a well-formed report")
    func empty() {
        let doc = JUnitDocument(JUnitReport().xml)
        #expect(doc.error == nil && doc.all("testsuite").first?.attributes["tests"] == "0")
    }
}
