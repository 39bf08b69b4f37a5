import GestureKit

/// The tester's records drawn as an SVG timeline: one lane per recognizer (its states over
/// time, coloured, each failure marked with its reason) and one per touch (from its landing to
/// its lift, the view that received it). GestureTesting draws its own rather than using
/// GesturePicture's `ReplayPicture`, which draws a replay's scene and needs GestureReplay,
/// GestureLayout and GestureTraces: a failing check must draw from the tester's records alone,
/// with GestureKit only.
struct TimelinePicture {
    var records: [GestureTraceEvent]
    /// The touch changes the tester sent: a touch's real lift (a view's delivery of it may
    /// be delayed, or cancelled by a recognizer).
    var touchLog: [GestureTester.LoggedChange] = []
    var end: Instant

    static let width = 1000.0
    static let labelWidth = 160.0
    static let laneHeight = 34.0
    static let colours: [GestureRecognizer.State: String] = [
        .possible: "#d9d9d9", .began: "#2ca02c", .changed: "#98df8a", .ended: "#1f77b4", .failed: "#d62728", .cancelled: "#ff7f0e",
    ]

    func svg(title: String) -> String {
        // Recognizers in the order they first appear, with their transitions.
        var recognizers: [GestureRecognizer] = []
        var transitions: [ObjectIdentifier: [GestureTraceEvent.Transition]] = [:]
        var waits: [ObjectIdentifier: [(time: Instant, reason: String)]] = [:]
        // Touches by id: when they landed and lifted, and the view that got them.
        var touches: [(id: TouchID, down: Instant, up: Instant?, view: String)] = []
        var start = end
        for event in records {
            start = Swift.min(start, event.time)
            switch event {
            case let .transition(t):
                let id = ObjectIdentifier(t.recognizer)
                if transitions[id] == nil && waits[id] == nil { recognizers.append(t.recognizer) }
                transitions[id, default: []].append(t)
            case let .waiting(time, r, reason):
                let id = ObjectIdentifier(r)
                if transitions[id] == nil && waits[id] == nil { recognizers.append(r) }
                waits[id, default: []].append((time, reason.description))
            case let .delivery(d):
                for touch in d.touches {
                    if let i = touches.firstIndex(where: { $0.id == touch.id }) {
                        if touches[i].up == nil, d.phase == .ended || d.phase == .cancelled { touches[i].up = d.time }
                    } else {
                        // The lift the tester sent, where it knows it.
                        let lift = touchLog.first {
                            $0.device == touch.device && $0.sourceID == touch.sourceID && $0.time >= touch.beganAt
                                && ($0.phase == .ended || $0.phase == .cancelled)
                        }?.time
                        touches.append((touch.id, touch.beganAt, lift ?? (d.phase == .ended || d.phase == .cancelled ? d.time : nil),
                                        d.view.debugName))
                    }
                }
            default:
                break
            }
        }
        let lanes = recognizers.count + touches.count
        let top = 50.0
        let height = top + Double(max(lanes, 1)) * Self.laneHeight + 60
        let plotLeft = Self.labelWidth + 10, plotWidth = Self.width - plotLeft - 20
        let span = Swift.max((end - start).inSeconds, 0.05) * 1.05
        func x(_ t: Instant) -> Double { plotLeft + (t - start).inSeconds / span * plotWidth }
        func esc(_ s: String) -> String {
            s.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;").replacingAll("\"", "&quot;")
        }
        func n(_ v: Double) -> String { fmt(v) }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(Self.width))" height="\(n(height))" font-family="DejaVu Sans, sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="#fff"/>
        <text x="10" y="20" font-size="13" font-weight="bold">\(esc(title))</text>
        <text x="10" y="38" fill="#555">from \(formatTime(start)) s to \(formatTime(end)) s; lanes: recognizers (states), then touches (down to up)</text>

        """
        for (i, r) in recognizers.enumerated() {
            let y = top + Double(i) * Self.laneHeight
            svg += "<text x=\"10\" y=\"\(n(y + 23))\">\(esc(r.name))</text>\n"
            var state = GestureRecognizer.State.possible, from = start
            for t in transitions[ObjectIdentifier(r)] ?? [] {
                svg += bar(x(from), x(t.time), y, Self.colours[state] ?? "#ccc", "\(state.rawValue) until \(formatTime(t.time)) s")
                // A wait for another recognizer within this stretch: amber from its time.
                for w in waits[ObjectIdentifier(r)] ?? [] where w.time >= from && w.time < t.time && state == .possible {
                    svg += bar(x(w.time), x(t.time), y, "#fdae6b", "possible, \(w.reason), from \(formatTime(w.time)) s")
                }
                if t.to == .failed || t.to == .cancelled {
                    svg += label(x(t.time), y, "✕ " + esc(t.reason.description), colour: "#d62728", right: plotLeft + plotWidth)
                } else if t.to == .ended || t.to == .began {
                    svg += label(x(t.time), y, esc(t.reason.description), colour: "#1f3b73", right: plotLeft + plotWidth)
                }
                state = t.to
                from = t.time
                if [.ended, .failed, .cancelled].contains(t.to) {
                    svg += "<line x1=\"\(n(x(t.time)))\" y1=\"\(n(y + 10))\" x2=\"\(n(x(t.time)))\" y2=\"\(n(y + 28))\" stroke=\"\(Self.colours[t.to]!)\" stroke-width=\"3\"><title>\(esc("\(t.to.rawValue) at \(formatTime(t.time)) s: \(t.reason)"))</title></line>\n"
                    state = .possible
                }
            }
            if state != .possible { svg += bar(x(from), x(end), y, Self.colours[state] ?? "#ccc", "\(state.rawValue)") }
        }
        for (k, touch) in touches.enumerated() {
            let y = top + Double(recognizers.count + k) * Self.laneHeight
            svg += "<text x=\"10\" y=\"\(n(y + 23))\">touch \(touch.id) on \(esc(touch.view))</text>\n"
            svg += bar(x(touch.down), x(touch.up ?? end), y, "#9467bd",
                       "down at \(formatTime(touch.down)) s" + (touch.up.map { ", up at \(formatTime($0)) s" } ?? ", still down"))
        }
        // The time axis, ticked at a round step.
        let axisY = top + Double(max(lanes, 1)) * Self.laneHeight + 12
        svg += "<line x1=\"\(n(plotLeft))\" y1=\"\(n(axisY))\" x2=\"\(n(plotLeft + plotWidth))\" y2=\"\(n(axisY))\" stroke=\"#000\"/>\n"
        let step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 60].first { span / $0 <= 8 } ?? 60
        var tick = (start.seconds / step).rounded(.up) * step
        while tick <= start.seconds + span {
            let t = Instant(seconds: tick)
            svg += "<line x1=\"\(n(x(t)))\" y1=\"\(n(axisY))\" x2=\"\(n(x(t)))\" y2=\"\(n(axisY + 4))\" stroke=\"#000\"/>"
            svg += "<text x=\"\(n(x(t)))\" y=\"\(n(axisY + 16))\" text-anchor=\"middle\">\(fmt(tick)) s</text>\n"
            tick += step
        }
        // The legend.
        var lx = plotLeft
        for (name, colour) in [("possible", "#d9d9d9"), ("waiting for another", "#fdae6b"), ("began", "#2ca02c"), ("changed", "#98df8a"),
                               ("ended", "#1f77b4"), ("failed", "#d62728"), ("cancelled", "#ff7f0e"), ("touch down", "#9467bd")] {
            svg += "<rect x=\"\(n(lx))\" y=\"\(n(axisY + 26))\" width=\"10\" height=\"10\" fill=\"\(colour)\"/><text x=\"\(n(lx + 14))\" y=\"\(n(axisY + 35))\">\(name)</text>\n"
            lx += 14 + Double(name.count) * 6.5 + 12
        }
        return svg + "</svg>\n"
    }

    /// A reason beside a mark: to its right, or to its left where it would run past `right`.
    private func label(_ x: Double, _ y: Double, _ text: String, colour: String, right: Double) -> String {
        let leftward = x + 6 + Double(text.count) * 6 > right
        return "<text x=\"\(fmt(leftward ? x - 4 : x + 4))\" y=\"\(fmt(y + 9))\" font-size=\"10\" fill=\"\(colour)\" text-anchor=\"\(leftward ? "end" : "start")\">\(text)</text>\n"
    }

    private func bar(_ x0: Double, _ x1: Double, _ y: Double, _ colour: String, _ title: String) -> String {
        "<rect x=\"\(fmt(x0))\" y=\"\(fmt(y + 12))\" width=\"\(fmt(Swift.max(x1 - x0, 1)))\" height=\"14\" fill=\"\(colour)\"><title>\(title)</title></rect>\n"
    }
}

extension String {
    /// The string with every `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = "", rest = self[...]
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
