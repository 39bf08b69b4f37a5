import GestureFormat
import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An element of an app's accessibility tree, as AT-SPI describes it (GTK 3 and 4, Qt and
/// Chromium export theirs there): what a screen reader reads, and what a test can wait for
/// and aim at.
public struct AccessibleElement: Hashable, Sendable, CustomStringConvertible {
    /// AT-SPI's role name: `push button` (`button` under Debian 13's AT-SPI 2.56), `label`, `text`, `frame`, `application`, …
    public var role: String
    /// Its accessible name (a button's label, a window's title), empty when it has none.
    public var name: String
    /// What its Text interface holds (an entry's, a label's), if it has one.
    public var text: String?
    /// AT-SPI's states: `showing`, `visible`, `sensitive`, `focused`, `checked`, …
    public var states: [String]
    /// Where it is, in its window's points (AT-SPI's window coordinates: a Wayland app knows
    /// no other), if it is on screen.
    public var bounds: Rect?
    public var children: [AccessibleElement]

    public init(role: String, name: String, text: String? = nil, states: [String] = [], bounds: Rect? = nil,
                children: [AccessibleElement] = []) {
        self.role = role
        self.name = name
        self.text = text
        self.states = states
        self.bounds = bounds
        self.children = children
    }

    /// Whether it is shown: AT-SPI's `showing` state (GTK 3, Qt) or, where a toolkit sets only
    /// that (GTK 4 sets `showing` on its windows alone), `visible`, with an area on screen.
    public var isShowing: Bool {
        (states.contains("showing") || states.contains("visible")) && (bounds.map { $0.width > 0 && $0.height > 0 } ?? false)
    }

    /// This element and every one below it, depth first.
    public var all: [AccessibleElement] {
        [self] + children.flatMap(\.all)
    }

    /// Whether its name or its text is `words`.
    public func reads(_ words: String) -> Bool { name == words || text == words }

    public var description: String {
        var s = "\(role) \"\(name)\""
        if let text, text != name { s += " text \"\(text)\"" }
        if let b = bounds { s += " at \(Int(b.minX)),\(Int(b.minY)) \(Int(b.width))×\(Int(b.height))" }
        return s
    }
}

/// Reads an app's accessibility tree from its session bus with AT-SPI's own client library
/// (libatspi, through Debian's Python binding: `python3-gi`, `gir1.2-atspi-2.0`): a short
/// script that writes the tree as JSON, which is read here.
enum AccessibilityReader {
    /// Where Debian's Python is (the one with python3-gi).
    static let python = "/usr/bin/python3"

    /// The program and package the reader needs that are missing, if any.
    static func missingPackage() -> (program: String, package: String)? {
        if access(python, X_OK) != 0 { return (python, "python3-gi") }
        let gi = ["/usr/lib/python3/dist-packages/gi/__init__.py"]
        if !gi.contains(where: { access($0, R_OK) == 0 }) { return ("python3's gi module", "python3-gi") }
        let typelibs = ["/usr/lib/x86_64-linux-gnu/girepository-1.0/Atspi-2.0.typelib",
                        "/usr/lib/aarch64-linux-gnu/girepository-1.0/Atspi-2.0.typelib",
                        "/usr/lib/girepository-1.0/Atspi-2.0.typelib"]
        if !typelibs.contains(where: { access($0, R_OK) == 0 }) { return ("AT-SPI's introspection data (Atspi-2.0.typelib)", "gir1.2-atspi-2.0") }
        return nil
    }

    /// The reader: every application on the bus (DBUS_SESSION_BUS_ADDRESS), each element's
    /// role, name, text, states and window-relative bounds, at most `limit` elements, written
    /// as JSON to the file named by its first argument. Exit status 3: no accessibility bus.
    static let script = #"""
    import json, sys, warnings
    warnings.simplefilter("ignore")
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi

    limit = 20000
    count = 0

    def element(a):
        global count
        count += 1
        if count > limit:
            return None
        try:
            e = {"role": a.get_role_name() or "", "name": a.get_name() or ""}
        except Exception:
            return None
        try:
            c = a.get_component_iface()
            if c is not None:
                r = c.get_extents(Atspi.CoordType.WINDOW)
                e["bounds"] = [r.x, r.y, r.width, r.height]
        except Exception:
            pass
        try:
            t = a.get_text_iface()
            if t is not None:
                e["text"] = t.get_text(0, t.get_character_count())
        except Exception:
            pass
        try:
            e["states"] = [s.value_nick for s in a.get_state_set().get_states()]
        except Exception:
            e["states"] = []
        children = []
        try:
            n = a.get_child_count()
        except Exception:
            n = 0
        for i in range(n):
            try:
                k = a.get_child_at_index(i)
            except Exception:
                k = None
            if k is not None:
                x = element(k)
                if x is not None:
                    children.append(x)
        e["children"] = children
        return e

    try:
        desktop = Atspi.get_desktop(0)
        apps = [element(desktop.get_child_at_index(i)) for i in range(desktop.get_child_count())]
    except Exception as error:
        sys.stderr.write("no accessibility bus: %s\n" % error)
        sys.exit(3)
    with open(sys.argv[1], "w") as out:
        json.dump([a for a in apps if a is not None], out)
    """#

    /// The elements of `json` as the script writes it.
    static func parse(_ json: String) throws -> [AccessibleElement] {
        guard case let .array(apps) = try JSONParser.parse(json) else { throw DriveError.accessibility("the reader wrote no list") }
        return apps.compactMap(element)
    }

    private static func element(_ value: JSONValue) -> AccessibleElement? {
        guard case let .object(fields) = value else { return nil }
        func field(_ name: String) -> JSONValue? { fields.first { $0.key == name }?.value }
        func string(_ name: String) -> String? { if case let .string(s)? = field(name) { return s }; return nil }
        var bounds: Rect?
        if case let .array(b)? = field("bounds"), b.count == 4 {
            let n = b.compactMap { v -> Double? in if case let .number(x) = v { return x }; return nil }
            if n.count == 4 { bounds = Rect(x: n[0], y: n[1], width: n[2], height: n[3]) }
        }
        var states: [String] = []
        if case let .array(list)? = field("states") {
            states = list.compactMap { if case let .string(s) = $0 { return s }; return nil }
        }
        var children: [AccessibleElement] = []
        if case let .array(list)? = field("children") { children = list.compactMap(element) }
        return AccessibleElement(role: string("role") ?? "", name: string("name") ?? "", text: string("text"),
                                 states: states, bounds: bounds, children: children)
    }
}

extension DriveSession {
    /// The seconds a step aimed at an element waits for it.
    public static let elementTimeout = 10.0

    /// The JSON the reader wrote for the app's tree now.
    func readAccessibilityTreeJSON() throws -> String {
        guard configuration.accessibility else {
            throw DriveError.accessibility("the session was started without accessibility (Configuration.accessibility)")
        }
        guard let address = readTextFile(directory + "/bus.address"), !address.isEmpty else {
            throw DriveError.accessibility("the app's session bus is not known yet (no bus.address)")
        }
        let script = directory + "/accessibility.py", out = directory + "/accessibility.out.json"
        if access(script, R_OK) != 0 { try writeTextFile(script, AccessibilityReader.script) }
        unlink(out)
        // The session's user writes the tree: the bus is theirs.
        let scratch = directory + "/run"
        let command = launcher + ["/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=\(address)", "HOME=\(scratch)",
                                  "XDG_RUNTIME_DIR=\(runDirectory)", AccessibilityReader.python, script, out]
        let status = try Subprocess.run(command, outputPath: directory + "/accessibility.log", timeout: 20)
        guard status == 0, let json = readTextFile(out) else {
            let log = readTextFile(directory + "/accessibility.log") ?? ""
            throw DriveError.accessibility(status == nil ? "the reader took more than 20 s" : "the reader failed (status \(status!)): \(log.suffix(800))")
        }
        return json
    }

    /// The accessibility tree of every app on the app's session bus (the app, and what it
    /// started), read now. Needs `Configuration.accessibility`.
    public func accessibilityTree() throws -> [AccessibleElement] {
        try AccessibilityReader.parse(readAccessibilityTreeJSON())
    }

    /// Waits up to `timeout` seconds for a shown element that `matches` (the first in the
    /// tree's order), reading the tree again every 0.2 s; `what` names it in the error.
    @discardableResult
    public func waitForElement(_ what: String, timeout: Double = DriveSession.elementTimeout,
                               where matches: (AccessibleElement) -> Bool) throws -> AccessibleElement {
        let (found, shown) = try look(timeout: timeout) { $0.first(where: matches) }
        if let found { return found }
        failed = true
        throw DriveError.elementNotFound(what: what, seconds: timeout, seen: Self.summary(shown))
    }

    /// Waits up to `timeout` seconds until no shown element `matches`.
    public func waitUntilGone(_ what: String, timeout: Double = DriveSession.elementTimeout,
                              where matches: (AccessibleElement) -> Bool) throws {
        let (gone, shown) = try look(timeout: timeout) { $0.contains(where: matches) ? nil : true }
        if gone != nil { return }
        failed = true
        throw DriveError.elementNotFound(what: "\(what) gone", seconds: timeout, seen: Self.summary(shown.filter(matches)))
    }

    /// Reads the tree's shown elements every 0.2 s until `answer` gives something or `timeout`
    /// seconds pass: the answer, and the elements last shown.
    private func look<T>(timeout: Double, _ answer: ([AccessibleElement]) -> T?) throws -> (T?, [AccessibleElement]) {
        let end = monotonic() + timeout
        var shown: [AccessibleElement] = []
        repeat {
            shown = try accessibilityTree().flatMap(\.all).filter(\.isShowing)
            if let found = answer(shown) { return (found, shown) }
            usleep(200_000)
        } while monotonic() < end
        return (nil, shown)
    }

    /// The centre of the shown element named `name` (or reading it), in the window's points:
    /// where a step aimed at it touches.
    public func centre(ofElementNamed name: String, timeout: Double = DriveSession.elementTimeout) throws -> Point {
        let element = try waitForElement("named \"\(name)\"", timeout: timeout) { $0.reads(name) }
        let b = element.bounds!
        return Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2)
    }

    /// The elements that name something, as an error lists them.
    static func summary(_ elements: [AccessibleElement]) -> String {
        let named = elements.filter { !$0.name.isEmpty || !($0.text ?? "").isEmpty }
        let shown = named.prefix(40).map(\.description).joined(separator: "; ")
        return named.isEmpty ? "nothing with a name" : shown + (named.count > 40 ? "; and \(named.count - 40) more" : "")
    }
}
