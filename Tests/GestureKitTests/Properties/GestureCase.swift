@testable import GestureKit
import GestureTestSupport

/// What the random cases ask of GestureTestSupport's seeded generator.
extension SeededRandom {
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &self) }
    mutating func double(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &self) }
    /// The seed of case `index` of a run with seed `base`.
    static func caseSeed(base: UInt64, index: Int) -> UInt64 {
        var g = SeededRandom(seed: base ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return g.next()
    }
}

/// One random test case as plain values: views, recognizers of every kind with their
/// parameters and delivery flags, a requireToFail graph without cycles (a recognizer only
/// requires earlier ones), simultaneous pairs, and frames of 1–10 touches. Plain values so
/// that it can be shrunk (parts removed) and printed.
struct GestureCase: CustomStringConvertible {
    struct ViewSpec {
        var frame: Rect
        var parent: Int?
    }
    enum Kind: String, CaseIterable { case tap, longPress, pinch, pan, rotation, swipe }
    struct RecognizerSpec {
        var kind: Kind
        var view: Int
        var parameters: [String: Double] = [:]
        var cancels = true
        var delaysBegan = false
        var delaysEnded = true
        var requires: [Int] = []
        /// What the recognizer's action does to the engine, the first time it runs.
        var reentry: Reentry?
    }
    /// Actions that re-enter the engine (each runs once per case).
    enum Reentry: String, CaseIterable {
        case disableSelf, removeSelf, removeFirst, addTap, sendTap, advanceTime, failingWork
    }
    struct Change {
        /// 0–9: a finger on the touchscreen; `Change.mouse`: the mouse's primary button
        /// (began: pressed, moved: the pointer moved while pressed, ended: released).
        var finger: Int
        var phase: TouchPhase
        var x: Double
        var y: Double
    }
    struct Frame {
        /// Seconds after the previous frame (0: the same instant).
        var dt: Double
        var changes: [Change]
    }

    var views: [ViewSpec]
    var recognizers: [RecognizerSpec]
    /// The finger number of the mouse's button in a `Change`.
    static let mouse = -1
    var simultaneous: [(Int, Int)]
    var frames: [Frame]

    var size: Int {
        views.count + recognizers.count * 3 + simultaneous.count
            + recognizers.reduce(0) { $0 + $1.requires.count + $1.parameters.count }
            + frames.reduce(0) { $0 + 2 + $1.changes.count }
    }

    // MARK: Generation

    static func generate(seed: UInt64) -> GestureCase {
        var g = SeededRandom(seed: seed)
        var views = [ViewSpec(frame: Rect(x: 0, y: 0, width: 1000, height: 1000), parent: nil)]
        for _ in 0..<g.int(0...3) {
            let parent = g.int(0...(views.count - 1))
            let p = views[parent].frame
            let w = g.double(0.2...0.8) * p.size.width, h = g.double(0.2...0.8) * p.size.height
            views.append(ViewSpec(frame: Rect(x: g.double(0...(p.size.width - w)), y: g.double(0...(p.size.height - h)),
                                              width: w, height: h), parent: parent))
        }
        var recognizers: [RecognizerSpec] = []
        for i in 0..<g.int(1...6) {
            let kind = Kind.allCases.randomElement(using: &g)!
            var r = RecognizerSpec(kind: kind, view: g.int(0...(views.count - 1)))
            switch kind {
            case .tap:
                r.parameters = ["taps": Double(g.int(1...3)), "touches": Double(g.int(1...3)),
                                "allowableMovement": g.double(5...40), "maximumTapDuration": g.double(0.1...1),
                                "maximumTapInterval": g.double(0.1...0.6), "maximumTapDistance": g.double(20...100)]
            case .longPress:
                r.parameters = ["minimumPressDuration": g.double(0.1...1), "allowableMovement": g.double(5...40),
                                "touches": Double(g.int(1...3)), "taps": Double(g.int(0...1))]
            case .pinch:
                r.parameters = ["threshold": g.double(2...30)]
            case .pan:
                let minimum = g.int(1...3)
                r.parameters = ["minimumTouches": Double(minimum), "threshold": g.double(2...30)]
                if g.chance(0.5) { r.parameters["maximumTouches"] = Double(g.int(minimum...4)) }
            case .rotation:
                r.parameters = ["threshold": g.double(0.05...0.5)]
            case .swipe:
                r.parameters = ["direction": Double(g.int(1...15)), "touches": Double(g.int(1...2)),
                                "minimumDistance": g.double(20...100), "maximumDuration": g.double(0.2...1)]
            }
            // Keep a few parameters at their defaults.
            for key in r.parameters.keys.sorted() where g.chance(0.3) { r.parameters[key] = nil }
            if g.chance(0.1) { r.reentry = Reentry.allCases.randomElement(using: &g) }
            r.cancels = g.chance(0.7)
            r.delaysBegan = g.chance(0.25)
            r.delaysEnded = g.chance(0.7)
            if i > 0 && g.chance(0.4) {
                for _ in 0..<g.int(1...2) {
                    let j = g.int(0...(i - 1))
                    if !r.requires.contains(j) { r.requires.append(j) }
                }
            }
            recognizers.append(r)
        }
        var simultaneous: [(Int, Int)] = []
        if recognizers.count > 1 {
            for _ in 0..<g.int(0...2) {
                let a = g.int(0...(recognizers.count - 1)), b = g.int(0...(recognizers.count - 1))
                if a != b && !simultaneous.contains(where: { Set([$0.0, $0.1]) == Set([a, b]) }) { simultaneous.append((a, b)) }
            }
        }
        // Touches: up to 10 fingers, near a moving centre so that they share views.
        var frames: [Frame] = []
        var down: [Int: Point] = [:]
        var mouseDown: Point?
        var centre = Point(x: g.double(50...950), y: g.double(50...950))
        for _ in 0..<g.int(3...40) {
            if g.chance(0.08) {
                // The mouse: a click lands among the fingers, drags, lifts (touch types mix).
                let p = Point(x: centre.x + g.double(-60...60), y: centre.y + g.double(-60...60))
                let phase: TouchPhase = mouseDown == nil ? .began : (g.chance(0.5) ? .moved : .ended)
                mouseDown = phase == .ended ? nil : p
                frames.append(Frame(dt: g.double(0.005...0.1), changes: [Change(finger: mouse, phase: phase, x: p.x, y: p.y)]))
                continue
            }
            let dt: Double
            switch g.double(0...1) {
            case ..<0.1: dt = 0
            case ..<0.75: dt = g.double(0.005...0.1)
            case ..<0.95: dt = g.double(0.1...0.7)
            default: dt = g.double(1...3)
            }
            if g.chance(0.1) { centre = Point(x: g.double(50...950), y: g.double(50...950)) }
            var changes: [Change] = []
            var used: Set<Int> = []
            for _ in 0..<(g.chance(0.7) ? 1 : g.int(2...4)) {
                let free = (0..<10).filter { down[$0] == nil && !used.contains($0) }
                let busy = down.keys.sorted().filter { !used.contains($0) }
                let roll = g.double(0...1)
                if roll < 0.02 {
                    // Nonsense: a finger that is not down moves or lifts, or one that is down lands again.
                    let f = g.int(0...9)
                    let phase: TouchPhase = down[f] == nil ? (g.chance(0.5) ? .moved : .ended) : .began
                    changes.append(Change(finger: f, phase: phase, x: centre.x, y: centre.y))
                    used.insert(f)
                } else if let f = free.first, busy.isEmpty || roll < 0.3 {
                    let p = Point(x: centre.x + g.double(-60...60), y: centre.y + g.double(-60...60))
                    down[f] = p
                    changes.append(Change(finger: f, phase: .began, x: p.x, y: p.y))
                    used.insert(f)
                } else if let f = busy.randomElement(using: &g) {
                    let r2 = g.double(0...1)
                    if r2 < 0.6 {
                        let step = g.chance(0.5) ? 3.0 : 40.0
                        let p = down[f]! + Point(x: g.double(-step...step), y: g.double(-step...step))
                        down[f] = p
                        changes.append(Change(finger: f, phase: .moved, x: p.x, y: p.y))
                    } else {
                        let p = down[f]!
                        down[f] = nil
                        changes.append(Change(finger: f, phase: r2 < 0.95 ? .ended : .cancelled, x: p.x, y: p.y))
                    }
                    used.insert(f)
                }
            }
            if !changes.isEmpty { frames.append(Frame(dt: dt, changes: changes)) }
        }
        return GestureCase(views: views, recognizers: recognizers, simultaneous: simultaneous, frames: frames)
    }

    // MARK: Building

    struct Built {
        let engine: GestureEngine
        let views: [View]
        let recognizers: [GestureRecognizer]
        /// Recognizers that actions added.
        let added: () -> [GestureRecognizer]
    }

    func build() -> Built {
        let engine = GestureEngine()
        var views: [View] = []
        for (i, spec) in self.views.enumerated() {
            let v = View(id: "v\(i)", frame: spec.frame)
            if let p = spec.parent, p < views.count { views[p].addSubview(v) } else { engine.addRoot(v) }
            views.append(v)
        }
        var recognizers: [GestureRecognizer] = []
        for (i, spec) in self.recognizers.enumerated() {
            let p = spec.parameters
            let name = "r\(i)"
            let r: GestureRecognizer
            switch spec.kind {
            case .tap:
                let t = TapGestureRecognizer(taps: Int(p["taps"] ?? 1), touches: Int(p["touches"] ?? 1), name: name)
                if let v = p["allowableMovement"] { t.allowableMovement = v }
                if let v = p["maximumTapDuration"] { t.maximumTapDuration = Duration(seconds: v) }
                if let v = p["maximumTapInterval"] { t.maximumTapInterval = Duration(seconds: v) }
                if let v = p["maximumTapDistance"] { t.maximumTapDistance = v }
                r = t
            case .longPress:
                let l = LongPressGestureRecognizer(minimumPressDuration: Duration(seconds: p["minimumPressDuration"] ?? 0.5),
                                                   touches: Int(p["touches"] ?? 1), name: name)
                if let v = p["allowableMovement"] { l.allowableMovement = v }
                if let v = p["taps"] { l.numberOfTapsRequired = Int(v) }
                r = l
            case .pinch:
                let x = PinchGestureRecognizer(name: name)
                if let v = p["threshold"] { x.spanThreshold = v }
                r = x
            case .pan:
                let x = PanGestureRecognizer(minimumTouches: Int(p["minimumTouches"] ?? 1),
                                             maximumTouches: p["maximumTouches"].map { Int($0) } ?? .max, name: name)
                if let v = p["threshold"] { x.threshold = v }
                r = x
            case .rotation:
                let x = RotationGestureRecognizer(name: name)
                if let v = p["threshold"] { x.threshold = v }
                r = x
            case .swipe:
                let x = SwipeGestureRecognizer(direction: SwipeDirection(rawValue: Int(p["direction"] ?? 1)),
                                               touches: Int(p["touches"] ?? 1), name: name)
                if let v = p["minimumDistance"] { x.minimumDistance = v }
                if let v = p["maximumDuration"] { x.maximumDuration = Duration(seconds: v) }
                r = x
            }
            r.cancelsTouchesInView = spec.cancels
            r.delaysTouchesBegan = spec.delaysBegan
            r.delaysTouchesEnded = spec.delaysEnded
            views[min(spec.view, views.count - 1)].addGestureRecognizer(r)
            recognizers.append(r)
        }
        for (i, spec) in self.recognizers.enumerated() {
            for j in spec.requires where j < i { recognizers[i].require(toFail: recognizers[j]) }
        }
        for (a, b) in simultaneous { recognizers[a].recognizeSimultaneously(with: recognizers[b]) }
        var added: [GestureRecognizer] = []
        for (i, spec) in self.recognizers.enumerated() {
            guard let reentry = spec.reentry else { continue }
            var done = false
            let view = views[min(spec.view, views.count - 1)]
            let first = recognizers[0]
            recognizers[i].addTarget { [unowned engine] r in
                guard !done else { return }
                done = true
                switch reentry {
                case .disableSelf: r.isEnabled = false
                case .removeSelf: r.view?.removeGestureRecognizer(r)
                case .removeFirst: first.view?.removeGestureRecognizer(first)
                case .addTap:
                    let tap = TapGestureRecognizer(name: "added\(i)")
                    view.addGestureRecognizer(tap)
                    added.append(tap)
                case .sendTap:
                    // A finger of its own (20) taps where the gesture is, a little later.
                    let p = r.location(in: nil)
                    engine.send(TouchFrame(time: engine.now + Duration(seconds: 0.01),
                                           changes: [TouchChange(sourceID: 20, phase: .began, location: p)]))
                    engine.send(TouchFrame(time: engine.now + Duration(seconds: 0.05),
                                           changes: [TouchChange(sourceID: 20, phase: .ended, location: p)]))
                case .advanceTime:
                    engine.advance(to: engine.now + Duration(seconds: 0.2))
                case .failingWork:
                    struct WorkFailed: Error {}
                    do {
                        func work() throws { throw WorkFailed() }
                        try work()
                    } catch {
                        // The action's own failure: it undoes its side of things and goes on.
                        r.isEnabled = false
                        r.isEnabled = true
                    }
                }
            }
        }
        return Built(engine: engine, views: views, recognizers: recognizers, added: { added })
    }

    /// The frames as input with their absolute times: a touchscreen's frames, and the
    /// mouse's pointer events (device 1).
    var timedEvents: [InputEvent] {
        var t = 0.0
        return frames.map { f in
            t += f.dt
            if let m = f.changes.first, m.finger == Self.mouse {
                let location = Point(x: m.x, y: m.y)
                return .pointer(m.phase == .moved
                    ? PointerEvent(kind: .motion, time: Instant(seconds: t), device: InputDeviceID(1), location: location)
                    : PointerEvent(kind: .button, time: Instant(seconds: t), device: InputDeviceID(1), location: location,
                                   pressed: m.phase == .began))
            }
            return .touchFrame(TouchFrame(time: Instant(seconds: t),
                                          changes: f.changes.map { TouchChange(sourceID: $0.finger, phase: $0.phase, location: Point(x: $0.x, y: $0.y)) }))
        }
    }

    // MARK: Printing

    var description: String {
        func n(_ x: Double) -> String { fmt(x) }
        var lines: [String] = []
        for (i, v) in views.enumerated() {
            let f = v.frame
            lines.append("view v\(i) [\(n(f.origin.x)), \(n(f.origin.y)), \(n(f.size.width)), \(n(f.size.height))]"
                         + (v.parent.map { " in v\($0)" } ?? ""))
        }
        for (i, r) in recognizers.enumerated() {
            var line = "r\(i) \(r.kind.rawValue) on v\(r.view)"
            if !r.parameters.isEmpty {
                line += " {" + r.parameters.keys.sorted().map { "\($0): \(n(r.parameters[$0]!))" }.joined(separator: ", ") + "}"
            }
            line += " cancels \(r.cancels) delaysBegan \(r.delaysBegan) delaysEnded \(r.delaysEnded)"
            if !r.requires.isEmpty { line += " requires " + r.requires.map { "r\($0)" }.joined(separator: ", ") }
            if let e = r.reentry { line += " action: \(e.rawValue)" }
            lines.append(line)
        }
        for (a, b) in simultaneous { lines.append("simultaneous r\(a) r\(b)") }
        var t = 0.0
        for f in frames {
            t += f.dt
            lines.append("t=\(n(t)) " + f.changes.map { "f\($0.finger) \($0.phase.rawValue) (\(n($0.x)), \(n($0.y)))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Shrinking

    /// Smaller variants of this case, most aggressive first.
    func shrinkCandidates() -> [GestureCase] {
        var out: [GestureCase] = []
        // Frames: halves, quarters, then one at a time (from the end).
        var chunk = frames.count / 2
        while chunk >= 1 {
            var start = 0
            while start < frames.count {
                var c = self
                c.frames.removeSubrange(start..<min(start + chunk, frames.count))
                out.append(c)
                start += chunk
            }
            chunk /= 2
        }
        for i in frames.indices where frames[i].changes.count > 1 {
            for j in frames[i].changes.indices {
                var c = self
                c.frames[i].changes.remove(at: j)
                out.append(c)
            }
        }
        for i in recognizers.indices where recognizers.count > 1 { out.append(removingRecognizer(i)) }
        for i in simultaneous.indices {
            var c = self
            c.simultaneous.remove(at: i)
            out.append(c)
        }
        for i in recognizers.indices {
            for j in recognizers[i].requires.indices {
                var c = self
                c.recognizers[i].requires.remove(at: j)
                out.append(c)
            }
        }
        for i in views.indices.dropFirst() { out.append(removingView(i)) }
        for i in recognizers.indices {
            let r = recognizers[i]
            for key in r.parameters.keys.sorted() {
                var c = self
                c.recognizers[i].parameters[key] = nil
                out.append(c)
            }
            if r.reentry != nil {
                var c = self
                c.recognizers[i].reentry = nil
                out.append(c)
            }
            if !r.cancels || r.delaysBegan || !r.delaysEnded {
                var c = self
                c.recognizers[i].cancels = true
                c.recognizers[i].delaysBegan = false
                c.recognizers[i].delaysEnded = true
                out.append(c)
            }
        }
        for i in frames.indices where frames[i].dt > 0 && frames[i].dt != frames[i].dt.rounded(.down) {
            var c = self
            c.frames[i].dt = (frames[i].dt * 10).rounded() / 10
            out.append(c)
        }
        return out
    }

    func removingRecognizer(_ k: Int) -> GestureCase {
        var c = self
        c.recognizers.remove(at: k)
        func map(_ i: Int) -> Int? { i == k ? nil : (i > k ? i - 1 : i) }
        for i in c.recognizers.indices { c.recognizers[i].requires = c.recognizers[i].requires.compactMap(map) }
        c.simultaneous = c.simultaneous.compactMap { a, b in
            guard let a = map(a), let b = map(b) else { return nil }
            return (a, b)
        }
        return c
    }

    func removingView(_ k: Int) -> GestureCase {
        var c = self
        let parent = views[k].parent ?? 0
        c.views.remove(at: k)
        func map(_ i: Int) -> Int { i == k ? (parent > k ? parent - 1 : parent) : (i > k ? i - 1 : i) }
        for i in c.views.indices { c.views[i].parent = c.views[i].parent.map(map) }
        for i in c.recognizers.indices { c.recognizers[i].view = map(c.recognizers[i].view) }
        return c
    }

    /// The smallest variant that still fails, by greedy descent.
    static func shrink(_ failing: GestureCase, budget: Int = 3000, fails: (GestureCase) -> Bool) -> (GestureCase, Int) {
        var best = failing
        var tries = 0
        var improved = true
        while improved && tries < budget {
            improved = false
            for candidate in best.shrinkCandidates() {
                tries += 1
                if tries >= budget { break }
                if candidate.size < best.size, fails(candidate) {
                    best = candidate
                    improved = true
                    break
                }
            }
        }
        return (best, tries)
    }
}
