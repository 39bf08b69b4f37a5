import GestureFormat
import GestureKit

/// What `gesturekit inspect` shows: computed by streaming the trace once.
public struct TraceSummary: Sendable, CustomStringConvertible {
    public struct Axis: Hashable, Sendable {
        public var code: EventCode
        public var minimum: Int32
        public var maximum: Int32
        /// Units per mm (0: unknown).
        public var resolution: Int32
    }

    public struct Device: Sendable {
        public var id: InputDeviceID
        public var name: String
        public var kind: InputDeviceKind?
        /// Every absolute axis the device describes, by code (none for debug-events).
        public var axes: [Axis]
        public var slotCount: Int
        public var isSemiMT: Bool
        /// Physical size in mm, when known.
        public var physicalSize: Size?
        /// Time of the device's first and last event (relative to the trace's origin).
        public var firstEventTime: Instant?
        public var lastEventTime: Instant?
        /// Seconds from the device's first to its last event.
        public var duration: Double {
            guard let first = firstEventTime, let last = lastEventTime else { return 0 }
            return (last - first).inSeconds
        }
        /// The most contacts down at once (including synthesized extra fingers).
        public var maxSimultaneousTouches = 0
        /// Contacts that began.
        public var touchCount = 0
        /// Touch frames and touchpad gesture events delivered.
        public var touchFrameCount = 0
        public var gestureEventCount = 0
        /// Raw evdev events, SYN_REPORT frames, and events per type (evemu / libinput record).
        public var evdevEventCount = 0
        public var synReportCount = 0
        public var eventCountsByType: [EventType: Int] = [:]
        /// SYN_DROPPED occurrences.
        public var droppedCount = 0
    }

    public var path: String
    public var format: TraceFormat
    /// Seconds from the trace's first to its last event.
    public var duration: Double
    public var devices: [Device]

    public init(path: String, screen: Size = Size(width: 1000, height: 1000)) throws {
        let reader = try TraceReader(path: path, screen: screen)
        self.path = path
        format = reader.format
        devices = reader.devices.map { d in
            let axes = (d.description?.absInfo ?? [:]).sorted { $0.key < $1.key }.map {
                Axis(code: $0.key, minimum: $0.value.minimum, maximum: $0.value.maximum, resolution: $0.value.resolution)
            }
            return Device(id: d.id, name: d.name, kind: d.kind, axes: axes, slotCount: d.slotCount,
                          isSemiMT: d.isSemiMT, physicalSize: d.physicalSize)
        }
        var typeCounts = Array(repeating: Array(repeating: 0, count: 32), count: devices.count)
        var evdevCounts = Array(repeating: 0, count: devices.count)
        var synReports = Array(repeating: 0, count: devices.count)
        var drops = Array(repeating: 0, count: devices.count)
        var first: [Instant?] = Array(repeating: nil, count: devices.count)
        var last: [Instant?] = Array(repeating: nil, count: devices.count)
        var down = Array(repeating: 0, count: devices.count)
        var devices = self.devices
        // Devices by id: a recording's ids are the source's own, not 0, 1, 2.
        let slot = Dictionary(devices.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Formats without evdev events take their times from the decoded events.
        let timedByEvents = reader.format == .debugEvents || reader.format == .inputRecording
        try reader.run(eventHook: { index, event in
            evdevCounts[index] &+= 1
            typeCounts[index][Int(event.type.rawValue & 31)] &+= 1
            if event.type == .syn && event.code == .synReport { synReports[index] &+= 1 }
            if event.type == .syn && event.code == .synDropped { drops[index] &+= 1 }
            if first[index] == nil { first[index] = event.time }
            last[index] = event.time
        }, touchpads: .contacts) { item in
            switch item {
            case .touchFrame(let frame):
                guard let i = slot[frame.device] else { return }
                devices[i].touchFrameCount += 1
                for change in frame.changes {
                    switch change.phase {
                    case .began:
                        devices[i].touchCount += 1
                        down[i] += 1
                    case .ended, .cancelled:
                        down[i] = max(down[i] - 1, 0)
                    case .moved:
                        break
                    }
                }
                devices[i].maxSimultaneousTouches = max(devices[i].maxSimultaneousTouches, down[i])
                if timedByEvents {
                    if first[i] == nil { first[i] = frame.time }
                    last[i] = frame.time
                }
            case .touchpadGesture(let event):
                guard let i = slot[event.device] else { return }
                devices[i].gestureEventCount += 1
                if first[i] == nil { first[i] = event.time }
                last[i] = event.time
            case .pointer, .pen, .modifiers:
                let device: InputDeviceID? = switch item {
                case let .pointer(p): p.device
                case let .pen(p): p.device
                case let .modifiers(_, d, _): d
                default: nil
                }
                guard timedByEvents, let time = item.time, let device, let i = slot[device] else { return }
                if first[i] == nil { first[i] = time }
                last[i] = time
            default:
                break
            }
        }
        for i in devices.indices {
            devices[i].evdevEventCount = evdevCounts[i]
            devices[i].synReportCount = synReports[i]
            devices[i].droppedCount = drops[i]
            devices[i].firstEventTime = first[i]
            devices[i].lastEventTime = last[i]
            for (t, n) in typeCounts[i].enumerated() where n > 0 {
                devices[i].eventCountsByType[EventType(rawValue: UInt16(t))] = n
            }
        }
        self.devices = devices
        let firsts = first.compactMap { $0 }, lasts = last.compactMap { $0 }
        if let a = firsts.min(), let b = lasts.max() { duration = (b - a).inSeconds } else { duration = 0 }
    }

    public var description: String {
        // A device's name is the file's text: made safe for a terminal.
        var out = "\(printable(path)): \(format.rawValue), \(devices.count) device(s), \(format3(duration)) s\n"
        for d in devices {
            out += "  \(d.id): \"\(printable(d.name))\" \(d.kind?.rawValue ?? "no touch")"
            if d.slotCount > 0 { out += ", \(d.slotCount) slots" }
            if d.isSemiMT { out += ", semi-mt" }
            if let s = d.physicalSize { out += ", \(format3(s.width))×\(format3(s.height)) mm" }
            out += "\n"
            for a in d.axes {
                out += "    \(a.code.absName): \(a.minimum)..\(a.maximum)"
                if a.resolution > 0 { out += " (\(a.resolution)/mm)" }
                out += "\n"
            }
            out += "    duration \(format3(d.duration)) s, touches \(d.touchCount), max simultaneous \(d.maxSimultaneousTouches)"
            out += ", frames \(d.touchFrameCount)"
            if d.gestureEventCount > 0 { out += ", gesture events \(d.gestureEventCount)" }
            out += "\n"
            if d.evdevEventCount > 0 {
                let types = d.eventCountsByType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                out += "    evdev events \(d.evdevEventCount) (\(types.joined(separator: ", "))), SYN_REPORT \(d.synReportCount), SYN_DROPPED \(d.droppedCount)\n"
            }
        }
        return out
    }
}

/// Three decimals, without Foundation.
func format3(_ value: Double) -> String { DecimalText.fixed(value, digits: 3) }
