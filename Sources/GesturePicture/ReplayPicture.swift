import GestureFormat
import GestureKit
import GestureLayout
import GestureReplay

/// Draws a replay as SVG: the touch paths on the surface (with the scene's views), and a
/// timeline with one lane per recognizer (its states over time, each failure marked with its
/// reason) and one per view (the touches it received); with a scrolling layout, a lane for the
/// scroll phase and a plot of the content offset against time.
public struct ReplayPicture {
    public struct PathPoint: Hashable, Sendable {
        public var time: Instant
        public var location: Point
    }

    /// One touch's path on the surface.
    public struct TouchPath: Hashable, Sendable {
        public var id: Int
        public var points: [PathPoint]
        public var cancelled: Bool
    }

    public var scene: Scene
    public var records: [ReplayRecord] = []
    public var paths: [TouchPath] = []
    /// The pointer's path (mice and touchpads), its clicks and its scrolls.
    public var pointerPath: [PathPoint] = []
    public var clicks: [(time: Instant, location: Point, pressed: Bool)] = []
    public var scrolls: [(time: Instant, location: Point, delta: Point)] = []
    /// The time the input ended (the timeline runs at least this far).
    public var endTime = Instant.zero

    /// Points closer than this to the previous point of a path are not kept, in points.
    public static let pathResolutionPoints = 1.0
    /// The width of a character of a 9-pixel reason label, in pixels (DejaVu Sans, rounded up).
    static let labelCharacterPixels = 5.5
    /// The picture's width in pixels.
    public static let widthPixels = 1000.0

    public init(scene: Scene) {
        self.scene = scene
    }

    // MARK: Recording

    private var open: [(device: InputDeviceID, source: Int, index: Int)] = []
    private var nextID = 1

    /// Follows the touches of an input frame (call it with every frame fed to the replay).
    public mutating func observe(_ frame: TouchFrame) {
        endTime = max(endTime, frame.time)
        for change in frame.changes {
            let openIndex = open.firstIndex { $0.device == frame.device && $0.source == change.sourceID }
            switch change.phase {
            case .began:
                guard change.location.isFinite else { continue }
                if let i = openIndex {
                    paths[open[i].index].cancelled = true
                    open.remove(at: i)
                }
                paths.append(TouchPath(id: nextID, points: [PathPoint(time: frame.time, location: change.location)], cancelled: false))
                nextID += 1
                open.append((frame.device, change.sourceID, paths.count - 1))
            case .moved, .ended, .cancelled:
                guard let i = openIndex else { continue }
                let p = open[i].index
                if change.location.isFinite,
                   let last = paths[p].points.last,
                   last.location.distance(to: change.location) >= ReplayPicture.pathResolutionPoints || change.phase != .moved {
                    paths[p].points.append(PathPoint(time: frame.time, location: change.location))
                }
                if change.phase != .moved {
                    paths[p].cancelled = change.phase == .cancelled
                    open.remove(at: i)
                }
            }
        }
    }

    /// Follows the pointer (call it with every pointer event fed to the replay).
    public mutating func observe(_ event: PointerEvent) {
        endTime = max(endTime, event.time)
        guard event.location.isFinite else { return }
        if let last = pointerPath.last, last.location.distance(to: event.location) < ReplayPicture.pathResolutionPoints {
        } else {
            pointerPath.append(PathPoint(time: event.time, location: event.location))
        }
        switch event.kind {
        case .motion, .leave: break
        case .button where event.button == PointerEvent.primaryButton:
            clicks.append((event.time, event.location, event.pressed))
        case .button: break
        case .scroll:
            if event.delta != .zero { scrolls.append((event.time, event.location, event.delta)) }
        }
    }

    /// A pen's frames (the replay's `pen` records), in order.
    public var pen: [PenEvent] = []

    public mutating func observe(_ record: ReplayRecord) {
        records.append(record)
        endTime = max(endTime, record.time)
        if case let .pen(event) = record, event.location.isFinite { pen.append(event) }
    }

    /// A pen on the surface: where it hovered (thin, grey, dotted), and each stroke of its
    /// tip as segments as wide as it pressed (1 px, plus 5 px at full force), dark blue for
    /// the pen and pink for the eraser.
    func penDrawing(ox: Double, oy: Double, scale: Double) -> String {
        guard !pen.isEmpty else { return "" }
        var svg = "<g id=\"pen\">\n"
        func px(_ p: Point) -> String { "\(n(ox + p.x * scale)),\(n(oy + p.y * scale))" }
        var hover: [String] = []
        func flushHover() {
            if hover.count > 1 {
                svg += "<polyline points=\"\(hover.joined(separator: " "))\" fill=\"none\" stroke=\"#999\" stroke-width=\"1\" stroke-dasharray=\"1 2\"/>\n"
            }
            hover.removeAll()
        }
        var previous: PenEvent?
        for event in pen {
            switch event.phase {
            case .hover, .out:
                hover.append(px(event.location))
                if event.phase == .out { flushHover() }
            case .down:
                hover.append(px(event.location))
                flushHover()
            case .moved, .up:
                if let from = previous, from.phase == .down || from.phase == .moved {
                    let force = max(from.sample.force, event.sample.force)
                    let color = event.sample.tool == .eraser ? "#e377c2" : "#1f3b73"
                    svg += "<line x1=\"\(n(ox + from.location.x * scale))\" y1=\"\(n(oy + from.location.y * scale))\" x2=\"\(n(ox + event.location.x * scale))\" y2=\"\(n(oy + event.location.y * scale))\" stroke=\"\(color)\" stroke-width=\"\(n(1 + 5 * force))\" stroke-linecap=\"round\"><title>\(event.sample.tool.rawValue) at \(value(event.time.seconds)) s, force \(value(event.sample.force))</title></line>\n"
                }
                if event.phase == .up { hover = [px(event.location)] }
            }
            previous = event
        }
        flushHover()
        svg += "</g>\n"
        return svg
    }

    // MARK: Drawing

    /// The pointer on the surface: its path (thin, black, dashed), each click (a black ring
    /// where the button went down, a dot where it came up) and each scroll (a grey arrow at
    /// the pointer, the way the content was dragged, 2 px per point scrolled, at most 40).
    func pointerDrawing(ox: Double, oy: Double, scale: Double) -> String {
        guard !pointerPath.isEmpty else { return "" }
        var svg = "<g id=\"pointer\">\n"
        func px(_ p: Point) -> (Double, Double) { (ox + p.x * scale, oy + p.y * scale) }
        if pointerPath.count > 1 {
            let pts = pointerPath.map { let (x, y) = px($0.location); return "\(n(x)),\(n(y))" }
            svg += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"#222\" stroke-width=\"1\" stroke-dasharray=\"3 2\"/>\n"
        }
        let (sx, sy) = px(pointerPath[0].location)
        svg += "<path d=\"M\(n(sx)) \(n(sy)) l0 14 l4 -4 l6 0 z\" fill=\"#222\"><title>pointer at \(value(pointerPath[0].time.seconds)) s</title></path>\n"
        for click in clicks {
            let (x, y) = px(click.location)
            svg += click.pressed
                ? "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"6\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"><title>click at \(value(click.time.seconds)) s</title></circle>\n"
                : "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"2\" fill=\"#000\"><title>release at \(value(click.time.seconds)) s</title></circle>\n"
        }
        for scroll in scrolls {
            let (x, y) = px(scroll.location)
            let length = min(scroll.delta.distance(to: .zero) * 2, 40)
            let d = scroll.delta / max(scroll.delta.distance(to: .zero), 1e-9) * length
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(y))\" x2=\"\(n(x + d.x))\" y2=\"\(n(y + d.y))\" stroke=\"#888\" stroke-width=\"1.5\" stroke-opacity=\"0.6\"><title>scroll \(value(scroll.delta.x)), \(value(scroll.delta.y)) pt at \(value(scroll.time.seconds)) s</title></line>\n"
        }
        svg += "</g>\n"
        return svg
    }

    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#d62728"]

    public func svg(title: String) -> String {
        let width = ReplayPicture.widthPixels
        let margin = 20.0
        let surfaceScale = min((width - 2 * margin) / scene.screen.width, 420 / scene.screen.height)
        let surfaceWidth = scene.screen.width * surfaceScale
        let surfaceHeight = scene.screen.height * surfaceScale
        let surfaceTop = 50.0
        let labelWidth = 150.0
        let laneHeight = 34.0
        let timelineTop = surfaceTop + surfaceHeight + 50
        let scrolls = scrollLines
        let lanes = scene.recognizers.map(\.id) + scene.views.map { "view " + $0.id }
            + (records.contains { if case .layout = $0 { true } else { false } } ? ["layout"] : [])
            + (scrolls.isEmpty ? [] : ["scroll phase"])
        let offsetPlotHeight = scrolls.isEmpty ? 0.0 : ReplayPicture.offsetPlotHeight + 40
        let height = timelineTop + Double(lanes.count) * laneHeight + offsetPlotHeight + 60
        let duration = max(endTime.seconds, 0.5) * 1.05
        let plotLeft = margin + labelWidth
        let plotWidth = width - plotLeft - margin
        func x(_ t: Instant) -> Double { plotLeft + t.seconds / duration * plotWidth }
        func laneY(_ i: Int) -> Double { timelineTop + Double(i) * laneHeight }

        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" font-family="DejaVu Sans, sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(n(margin))" y="28" font-size="16" font-weight="bold">\(xmlText(title))</text>

        """
        // Surface: views, then touch paths.
        let ox = margin, oy = surfaceTop
        svg += "<g id=\"surface\">\n"
        svg += "<rect x=\"\(n(ox))\" y=\"\(n(oy))\" width=\"\(n(surfaceWidth))\" height=\"\(n(surfaceHeight))\" fill=\"#f7f7f7\" stroke=\"#333\"/>\n"
        for spec in scene.views {
            let frame = absoluteFrame(of: spec.id)
            svg += "<rect x=\"\(n(ox + frame.minX * surfaceScale))\" y=\"\(n(oy + frame.minY * surfaceScale))\" width=\"\(n(frame.width * surfaceScale))\" height=\"\(n(frame.height * surfaceScale))\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n"
            svg += "<text x=\"\(n(ox + frame.minX * surfaceScale + 4))\" y=\"\(n(oy + frame.minY * surfaceScale + 14))\" fill=\"#777\">\(xmlText(spec.id))</text>\n"
        }
        for path in paths {
            let color = ReplayPicture.palette[(path.id - 1) % ReplayPicture.palette.count]
            let pts = path.points.map { "\(n(ox + $0.location.x * surfaceScale)),\(n(oy + $0.location.y * surfaceScale))" }
            if pts.count > 1 {
                svg += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            }
            if let first = path.points.first {
                let cx = ox + first.location.x * surfaceScale, cy = oy + first.location.y * surfaceScale
                svg += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"5\" fill=\"\(color)\" fill-opacity=\"0.5\" stroke=\"\(color)\"/>\n"
                svg += "<text x=\"\(n(cx + 7))\" y=\"\(n(cy - 6))\" fill=\"\(color)\" font-size=\"11\">\(path.id)</text>\n"
            }
            if let last = path.points.last, path.points.count > 1 || path.cancelled {
                let cx = ox + last.location.x * surfaceScale, cy = oy + last.location.y * surfaceScale
                svg += path.cancelled ? cross(cx, cy, 4, color) : "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"2.5\" fill=\"\(color)\"/>\n"
            }
        }
        svg += pointerDrawing(ox: ox, oy: oy, scale: surfaceScale)
        svg += penDrawing(ox: ox, oy: oy, scale: surfaceScale)
        svg += "</g>\n"
        svg += closeUp(left: ox + surfaceWidth + 30, top: oy, width: width - margin - (ox + surfaceWidth + 30), height: surfaceHeight)

        // Timeline.
        svg += "<g id=\"timeline\">\n"
        svg += "<text x=\"\(n(margin))\" y=\"\(n(timelineTop - 22))\" font-weight=\"bold\">Timeline (s)</text>\n"
        let tickStep = niceStep(duration / 8)
        var tick = 0.0
        while tick <= duration {
            let tx = x(Instant(seconds: tick))
            svg += "<line x1=\"\(n(tx))\" y1=\"\(n(timelineTop - 8))\" x2=\"\(n(tx))\" y2=\"\(n(laneY(lanes.count)))\" stroke=\"#e3e3e3\"/>\n"
            svg += "<text x=\"\(n(tx))\" y=\"\(n(timelineTop - 10))\" text-anchor=\"middle\" fill=\"#666\" font-size=\"10\">\(value(tick))</text>\n"
            tick += tickStep
        }
        for (i, lane) in lanes.enumerated() {
            let y = laneY(i)
            svg += "<line x1=\"\(n(plotLeft))\" y1=\"\(n(y + laneHeight))\" x2=\"\(n(plotLeft + plotWidth))\" y2=\"\(n(y + laneHeight))\" stroke=\"#ccc\"/>\n"
            svg += "<text x=\"\(n(margin))\" y=\"\(n(y + 20))\">\(xmlText(lane))</text>\n"
        }
        // Recognizer lanes.
        for (i, spec) in scene.recognizers.enumerated() {
            let y = laneY(i), mid = y + 15
            var activeSince: Instant?
            // Where the last reason label ends: a label that would overlap it is left to the
            // marker's tooltip.
            var labelEnd = -Double.infinity
            for record in records {
                switch record {
                case let .state(s) where s.recognizer == spec.id:
                    switch s.to {
                    case .began:
                        activeSince = s.time
                    case .changed:
                        break
                    case .ended, .cancelled:
                        let color = s.to == .ended ? "#2ca02c" : "#ff7f0e"
                        if let start = activeSince {
                            svg += "<rect x=\"\(n(x(start)))\" y=\"\(n(mid - 6))\" width=\"\(n(max(1.5, x(s.time) - x(start))))\" height=\"12\" fill=\"\(color)\" fill-opacity=\"0.6\"><title>\(xmlText(spec.id)) \(s.from.rawValue) → \(s.to.rawValue) at \(formatTime(s.time)) s: \(xmlText(s.reason))</title></rect>\n"
                            activeSince = nil
                        } else {
                            svg += diamond(x(s.time), mid, 6, color, "\(spec.id) recognized at \(formatTime(s.time)) s: \(s.reason)")
                        }
                        if s.to == .cancelled { svg += cross(x(s.time), mid, 5, color) }
                    case .failed:
                        svg += cross(x(s.time), mid, 5, "#d62728", title: "\(spec.id) failed at \(formatTime(s.time)) s: \(s.reason)")
                        if x(s.time) + 7 >= labelEnd {
                            svg += "<text x=\"\(n(x(s.time) + 7))\" y=\"\(n(mid + 15))\" fill=\"#d62728\" font-size=\"9\">\(xmlText(s.reason))</text>\n"
                            labelEnd = x(s.time) + 7 + Double(s.reason.count) * ReplayPicture.labelCharacterPixels + 6
                        }
                    case .possible:
                        break
                    }
                case let .waiting(time, recognizer, reason) where recognizer == spec.id:
                    svg += "<circle cx=\"\(n(x(time)))\" cy=\"\(n(mid))\" r=\"5\" fill=\"none\" stroke=\"#9467bd\" stroke-width=\"1.5\"><title>\(xmlText(reason))</title></circle>\n"
                default:
                    break
                }
            }
            if let start = activeSince {
                svg += "<rect x=\"\(n(x(start)))\" y=\"\(n(mid - 6))\" width=\"\(n(x(endTime) - x(start)))\" height=\"12\" fill=\"#2ca02c\" fill-opacity=\"0.3\"/>\n"
            }
        }
        // View lanes.
        for (j, view) in scene.views.enumerated() {
            let mid = laneY(scene.recognizers.count + j) + 15
            for record in records {
                guard case let .touches(time, v, phase, ids, _) = record, v == view.id else { continue }
                let tx = x(time)
                let label = "\(phase.callbackName) \(ids.map(String.init).joined(separator: ",")) at \(formatTime(time)) s"
                switch phase {
                case .began:
                    svg += "<path d=\"M\(n(tx)),\(n(mid - 7)) l5,10 l-10,0 z\" fill=\"#2ca02c\"><title>\(label)</title></path>\n"
                case .moved:
                    svg += "<line x1=\"\(n(tx))\" y1=\"\(n(mid - 3))\" x2=\"\(n(tx))\" y2=\"\(n(mid + 3))\" stroke=\"#999\"><title>\(label)</title></line>\n"
                case .ended:
                    svg += "<path d=\"M\(n(tx)),\(n(mid + 7)) l5,-10 l-10,0 z\" fill=\"#1f77b4\"><title>\(label)</title></path>\n"
                case .cancelled:
                    svg += cross(tx, mid, 5, "#d62728", title: label)
                }
            }
        }
        // Layout lane.
        if let layoutLane = lanes.firstIndex(of: "layout") {
            let mid = laneY(layoutLane) + 15
            for record in records {
                guard case let .layout(time, itemSize, _) = record else { continue }
                svg += "<circle cx=\"\(n(x(time)))\" cy=\"\(n(mid))\" r=\"2.5\" fill=\"#17becf\"><title>itemSize \(value(itemSize.width))×\(value(itemSize.height))</title></circle>\n"
            }
        }
        // Scroll phase lane and the offset plot.
        if !scrolls.isEmpty {
            svg += scrollDrawing(scrolls, laneMid: laneY(lanes.count - 1) + 15, plotTop: laneY(lanes.count) + 30,
                                 left: plotLeft, width: plotWidth, labelLeft: margin, x: x)
        }
        // Legend.
        let ly = laneY(lanes.count) + offsetPlotHeight + 30
        svg += "<g font-size=\"11\" fill=\"#444\">\n"
        svg += diamond(plotLeft, ly - 4, 5, "#2ca02c", "recognized") + "<text x=\"\(n(plotLeft + 9))\" y=\"\(n(ly))\">recognized</text>\n"
        svg += "<rect x=\"\(n(plotLeft + 85))\" y=\"\(n(ly - 10))\" width=\"18\" height=\"10\" fill=\"#2ca02c\" fill-opacity=\"0.6\"/><text x=\"\(n(plotLeft + 108))\" y=\"\(n(ly))\">began → ended</text>\n"
        svg += cross(plotLeft + 205, ly - 4, 4, "#d62728") + "<text x=\"\(n(plotLeft + 214))\" y=\"\(n(ly))\">failed (reason)</text>\n"
        svg += "<circle cx=\"\(n(plotLeft + 315))\" cy=\"\(n(ly - 4))\" r=\"4\" fill=\"none\" stroke=\"#9467bd\"/><text x=\"\(n(plotLeft + 324))\" y=\"\(n(ly))\">waits for another to fail</text>\n"
        svg += "<path d=\"M\(n(plotLeft + 470)),\(n(ly - 9)) l5,10 l-10,0 z\" fill=\"#2ca02c\"/><text x=\"\(n(plotLeft + 479))\" y=\"\(n(ly))\">touchesBegan</text>\n"
        svg += "<path d=\"M\(n(plotLeft + 565)),\(n(ly + 1)) l5,-10 l-10,0 z\" fill=\"#1f77b4\"/><text x=\"\(n(plotLeft + 574))\" y=\"\(n(ly))\">touchesEnded</text>\n"
        svg += cross(plotLeft + 660, ly - 4, 4, "#d62728") + "<text x=\"\(n(plotLeft + 669))\" y=\"\(n(ly))\">touchesCancelled</text>\n"
        svg += "</g>\n</g>\n</svg>\n"
        return svg
    }

    /// The scroll lines: time, offset, velocity, phase.
    var scrollLines: [(time: Instant, offset: Point, velocity: Point, phase: ScrollPhase)] {
        records.compactMap { if case let .scroll(t, o, v, p) = $0 { (t, o, v, p) } else { nil } }
    }

    /// The height of the content offset's plot, in pixels.
    static let offsetPlotHeight = 130.0
    static let phaseColors: [ScrollPhase: String] = [.dragging: "#1f77b4", .decelerating: "#2ca02c",
                                                     .bouncing: "#ff7f0e", .rest: "#333333"]

    /// The scroll phase lane (a band per stretch of time, coloured by the phase the content
    /// was in: dragging blue, decelerating green, bouncing orange; a black bar where it came to
    /// rest) and, below the lanes, the content offset against time on the same time axis
    /// (y solid, x dashed when it moves), its range labelled, the edge at 0 dotted.
    private func scrollDrawing(_ lines: [(time: Instant, offset: Point, velocity: Point, phase: ScrollPhase)],
                               laneMid mid: Double, plotTop: Double, left: Double, width: Double, labelLeft: Double,
                               x: (Instant) -> Double) -> String {
        var svg = "<g id=\"scroll\">\n"
        // One band per run of lines in the same phase, from the line before the run.
        var runStart: Instant?
        var runPhase: ScrollPhase?
        func closeRun(at end: Instant) {
            guard let start = runStart, let phase = runPhase, end > start else { return }
            let color = ReplayPicture.phaseColors[phase] ?? "#999"
            svg += "<rect x=\"\(n(x(start)))\" y=\"\(n(mid - 6))\" width=\"\(n(max(0.8, x(end) - x(start))))\" height=\"12\" fill=\"\(color)\" fill-opacity=\"0.75\"><title>\(phase.rawValue) from \(formatTime(start)) s to \(formatTime(end)) s</title></rect>\n"
        }
        var previous: Instant?
        for line in lines {
            if line.phase != runPhase {
                if let previous { closeRun(at: previous) }
                runStart = previous ?? line.time
                runPhase = line.phase
            }
            if line.phase == .rest {
                closeRun(at: line.time)
                svg += "<rect x=\"\(n(x(line.time) - 1.5))\" y=\"\(n(mid - 8))\" width=\"3\" height=\"16\" fill=\"\(ReplayPicture.phaseColors[.rest]!)\"><title>rest at \(formatTime(line.time)) s, offset (\(value(line.offset.x)), \(value(line.offset.y)))</title></rect>\n"
                runStart = nil
                runPhase = nil
                previous = nil
                continue
            }
            previous = line.time
        }
        if let previous { closeRun(at: previous) }
        let h = ReplayPicture.offsetPlotHeight
        let ys = lines.map(\.offset.y), xs = lines.map(\.offset.x)
        let movesX = xs.contains { $0 != xs.first }
        var lo = min(ys.min() ?? 0, 0), hi = max(ys.max() ?? 0, 0)
        if movesX { lo = min(lo, xs.min() ?? 0); hi = max(hi, xs.max() ?? 0) }
        if hi - lo < 1 { hi = lo + 1 }
        func py(_ v: Double) -> Double { plotTop + (hi - v) / (hi - lo) * h }
        svg += "<text x=\"\(n(labelLeft))\" y=\"\(n(plotTop + 12))\">content offset</text>\n"
        svg += "<text x=\"\(n(labelLeft))\" y=\"\(n(plotTop + 28))\" fill=\"#666\" font-size=\"10\">y solid\(movesX ? ", x dashed" : "") (pt)</text>\n"
        svg += "<rect x=\"\(n(left))\" y=\"\(n(plotTop))\" width=\"\(n(width))\" height=\"\(n(h))\" fill=\"none\" stroke=\"#ccc\"/>\n"
        svg += "<text x=\"\(n(left - 4))\" y=\"\(n(plotTop + 10))\" text-anchor=\"end\" fill=\"#666\" font-size=\"10\">\(value(hi))</text>\n"
        svg += "<text x=\"\(n(left - 4))\" y=\"\(n(plotTop + h))\" text-anchor=\"end\" fill=\"#666\" font-size=\"10\">\(value(lo))</text>\n"
        if lo < 0 && hi > 0 {
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(py(0)))\" x2=\"\(n(left + width))\" y2=\"\(n(py(0)))\" stroke=\"#999\" stroke-dasharray=\"2 3\"><title>the top edge (offset 0)</title></line>\n"
            svg += "<text x=\"\(n(left - 4))\" y=\"\(n(py(0) + 4))\" text-anchor=\"end\" fill=\"#666\" font-size=\"10\">0</text>\n"
        }
        func polyline(_ value: (Point) -> Double, dashed: Bool) -> String {
            // One segment per phase, in the phase's colour.
            var out = ""
            var i = 0
            while i < lines.count {
                var j = i
                while j + 1 < lines.count && lines[j + 1].phase == lines[i].phase { j += 1 }
                let end = min(j + 1, lines.count - 1)
                let pts = lines[i...end].map { "\(n(x($0.time))),\(n(py(value($0.offset))))" }
                let color = ReplayPicture.phaseColors[lines[i].phase] ?? "#999"
                if pts.count > 1 {
                    out += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"5 3\"" : "")/>\n"
                }
                i = j + 1
            }
            return out
        }
        svg += polyline({ $0.y }, dashed: false)
        if movesX { svg += polyline({ $0.x }, dashed: true) }
        // Legend of the phases.
        var lx = left
        for phase in [ScrollPhase.dragging, .decelerating, .bouncing, .rest] {
            svg += "<rect x=\"\(n(lx))\" y=\"\(n(plotTop + h + 8))\" width=\"14\" height=\"8\" fill=\"\(ReplayPicture.phaseColors[phase]!)\"/>"
            svg += "<text x=\"\(n(lx + 18))\" y=\"\(n(plotTop + h + 16))\" fill=\"#444\" font-size=\"11\">\(phase.rawValue)</text>\n"
            lx += 110
        }
        return svg + "</g>\n"
    }

    /// The touches' paths enlarged, beside the surface: taps and small movements are a few
    /// points long and vanish at the surface's scale. Only drawn when there is room.
    private func closeUp(left: Double, top: Double, width: Double, height: Double) -> String {
        let points = paths.flatMap { $0.points.map(\.location) }
        guard width >= 150, let first = points.first else { return "" }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        // At least 40 pt across, with 10 % padding.
        let side = max(maxX - minX, maxY - minY, 40) * 1.2
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        let region = Rect(x: cx - side / 2, y: cy - side / 2, width: side, height: side)
        let k = min(width, height - 30) / side
        func sx(_ x: Double) -> Double { left + (x - region.minX) * k }
        func sy(_ y: Double) -> Double { top + 20 + (y - region.minY) * k }
        var svg = "<g id=\"close-up\">\n"
        svg += "<text x=\"\(n(left))\" y=\"\(n(top + 12))\" fill=\"#444\">close-up: \(value(side)) × \(value(side)) pt around (\(value(cx)), \(value(cy)))</text>\n"
        svg += "<rect x=\"\(n(left))\" y=\"\(n(top + 20))\" width=\"\(n(side * k))\" height=\"\(n(side * k))\" fill=\"#fcfcfc\" stroke=\"#999\"/>\n"
        // A 10 pt scale bar.
        let barY = top + 20 + side * k - 10
        svg += "<line x1=\"\(n(left + 10))\" y1=\"\(n(barY))\" x2=\"\(n(left + 10 + 10 * k))\" y2=\"\(n(barY))\" stroke=\"#333\" stroke-width=\"2\"/>\n"
        svg += "<text x=\"\(n(left + 14 + 10 * k))\" y=\"\(n(barY + 4))\" fill=\"#333\" font-size=\"10\">10 pt</text>\n"
        for path in paths {
            let color = ReplayPicture.palette[(path.id - 1) % ReplayPicture.palette.count]
            let pts = path.points.map { "\(n(sx($0.location.x))),\(n(sy($0.location.y)))" }
            if pts.count > 1 {
                svg += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" stroke-opacity=\"0.8\"/>\n"
            }
            if let p = path.points.first {
                svg += "<circle cx=\"\(n(sx(p.location.x)))\" cy=\"\(n(sy(p.location.y)))\" r=\"6\" fill=\"\(color)\" fill-opacity=\"0.4\" stroke=\"\(color)\"><title>touch \(path.id) down at \(formatTime(p.time)) s</title></circle>\n"
                svg += "<text x=\"\(n(sx(p.location.x) + 8))\" y=\"\(n(sy(p.location.y) - 8))\" fill=\"\(color)\" font-size=\"11\">\(path.id) @\(value(p.time.seconds))s</text>\n"
            }
            if let p = path.points.last, path.points.count > 1 || path.cancelled {
                let x = sx(p.location.x), y = sy(p.location.y)
                svg += path.cancelled ? cross(x, y, 5, color) : "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"3\" fill=\"\(color)\"><title>touch \(path.id) up at \(formatTime(p.time)) s</title></circle>\n"
            }
        }
        return svg + "</g>\n"
    }

    private func absoluteFrame(of id: String) -> Rect {
        guard let spec = scene.views.first(where: { $0.id == id }) else { return .zero }
        var frame = spec.frame
        var parent = spec.parent
        var depth = 0
        while let p = parent, let ps = scene.views.first(where: { $0.id == p }), depth < scene.views.count {
            frame = frame.offsetBy(dx: ps.frame.minX, dy: ps.frame.minY)
            parent = ps.parent
            depth += 1
        }
        return frame
    }
}

private func n(_ v: Double) -> String { value(v) }

private func cross(_ x: Double, _ y: Double, _ r: Double, _ color: String, title: String? = nil) -> String {
    let t = title.map { "<title>\(xmlText($0))</title>" } ?? ""
    return "<path d=\"M\(n(x - r)),\(n(y - r)) L\(n(x + r)),\(n(y + r)) M\(n(x - r)),\(n(y + r)) L\(n(x + r)),\(n(y - r))\" stroke=\"\(color)\" stroke-width=\"2\">\(t)</path>\n"
}

private func diamond(_ x: Double, _ y: Double, _ r: Double, _ color: String, _ title: String) -> String {
    "<path d=\"M\(n(x)),\(n(y - r)) L\(n(x + r)),\(n(y)) L\(n(x)),\(n(y + r)) L\(n(x - r)),\(n(y)) z\" fill=\"\(color)\"><title>\(xmlText(title))</title></path>\n"
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
private func niceStep(_ raw: Double) -> Double {
    guard raw > 0, raw.isFinite else { return 1 }
    var p = 1.0
    while p > raw { p /= 10 }
    while p * 10 <= raw { p *= 10 }
    for m in [1.0, 2.0, 5.0, 10.0] where p * m >= raw { return p * m }
    return p * 10
}
