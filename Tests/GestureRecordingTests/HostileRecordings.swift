import GestureRecording

/// Recordings made to stall or flood a reader, generated (docs/RECORDING.md, "Budgets"): the
/// shapes a security read of the format found, and others like them. Each either replays
/// (it keeps to the budgets) or is refused at a line, naming the budget it passes.
struct HostileRecording: Sendable, CustomStringConvertible {
    /// What the file is.
    var name: String
    /// What reading it must end in: nil for a replay to its end, else the refused line and
    /// words of the message.
    var refusedAt: (line: Int, message: String)?
    var make: @Sendable () -> [UInt8]

    var description: String { name }

    static let header = #"{"format":"gesturekit-input","version":1,"source":"app","screen":[1000,1000],"scale":1}"# + "\n"

    /// The header and `count` lines made by `line`.
    static func lines(_ count: Int, _ line: (Int) -> String) -> [UInt8] {
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(count * 96)
        for i in 0..<count { bytes.append(contentsOf: line(i).utf8); bytes.append(0x0A) }
        return bytes
    }

    static func touch(_ t: Int, device: Int = 0, _ changes: String) -> String {
        #"{"t":\#(t),"e":"touch","device":\#(device),"kind":"touchscreen","changes":[\#(changes)]}"#
    }

    static let all: [HostileRecording] = [
        // The issue's shapes, at the issue's sizes.
        HostileRecording(name: "20,000 touches that never lift, one a line (1.8 MB)",
                         refusedAt: (66, "at most 64")) {
            lines(20_000) { touch($0 * 1000, #"[\#($0),"began",\#($0 % 1000),5]"#) }
        },
        HostileRecording(name: "80,000 touches that never lift, 1,000 a line (1.6 MB)",
                         refusedAt: (2, "a line holds at most 128")) {
            lines(80) { k in touch(k * 1000, (0..<1000).map { #"[\#(k * 1000 + $0),"began",1,1]"# }.joined(separator: ",")) }
        },
        HostileRecording(name: "one 1 MB line of distinct keys", refusedAt: (2, "more than 16 keys")) {
            Array((header + #"{"t":0,"e":"note","device":0,"#
                + (0..<90_000).map { #""k\#($0)":0"# }.joined(separator: ",") + "}\n").utf8)
        },
        HostileRecording(name: "100,000 devices (11 MB)", refusedAt: (258, "names at most 256")) {
            lines(100_000) { #"{"e":"device-added","device":\#($0),"name":"d","system":"event","kind":"touchscreen","capabilities":["touch"]}"# }
        },
        // Others like them.
        HostileRecording(name: "a touch held while 20,000 taps come and go", refusedAt: (257, "at most 128")) {
            lines(40_001) { i in
                i == 0 ? touch(0, #"[0,"began",5,5]"#)
                    : touch(i * 1_000_000, #"[1,"\#(i % 2 == 1 ? "began" : "ended")",\#(i % 900),50]"#)
            }
        },
        HostileRecording(name: "one touch begun again 20,000 times while down", refusedAt: (130, "at most 128")) {
            lines(20_000) { touch($0 * 1000, #"[0,"began",\#($0 % 900),5]"#) }
        },
        HostileRecording(name: "20,000 touches down on as many devices", refusedAt: (130, "at most 128")) {
            lines(20_000) { touch($0 * 1000, device: $0, #"[0,"began",\#($0 % 900),5]"#) }
        },
        HostileRecording(name: "20,000 pens down on as many devices", refusedAt: (130, "at most 128")) {
            lines(20_000) { #"{"t":\#($0 * 1000),"e":"pen","device":\#($0),"phase":"down","at":[5,5],"force":0.5,"altitude":1,"azimuth":0,"tool":"pen"}"# }
        },
        HostileRecording(name: "20,000 touchpad pinches begun on as many devices", refusedAt: (258, "names at most 256")) {
            lines(20_000) { #"{"t":\#($0 * 1000),"e":"gesture","device":\#($0),"kind":"pinch","phase":"begin","fingers":2,"at":[5,5],"scale":1,"angle":0,"delta":[0,0]}"# }
        },
        HostileRecording(name: "a device name of 1 MB", refusedAt: (2, "a string holds at most 4096")) {
            Array((header + #"{"e":"device-added","device":0,"name":""# + String(repeating: "A", count: 1_000_000)
                + #"","system":"event","capabilities":[]}"# + "\n").utf8)
        },
        HostileRecording(name: "a line of 40,000 moves of touches that are not down", refusedAt: (2, "a line holds at most 128")) {
            lines(1) { _ in touch(0, (0..<40_000).map { #"[\#($0),"moved",1,1]"# }.joined(separator: ",")) }
        },
        HostileRecording(name: "arrays nested 500,000 deep", refusedAt: (2, "nesting deeper than 256")) {
            Array((header + String(repeating: "[", count: 500_000) + "\n").utf8)
        },
        HostileRecording(name: "garbage after the stopped line", refusedAt: (4, "after the \"stopped\" line (line 3)")) {
            Array((header + touch(0, #"[0,"began",5,5]"#) + "\n" + #"{"t":1,"e":"stopped","reason":"full"}"# + "\n"
                + "\u{1B}[2J rm -rf\n").utf8)
        },
        // Within the budgets: these replay to their end.
        HostileRecording(name: "two devices with 64 touches down each, moving (the budgets' limits)", refusedAt: nil) {
            var t = 0
            var out: [String] = []
            for round in 0..<3 {
                for device in 0..<2 {
                    t += 1_000_000
                    out.append(touch(t, device: device, (0..<64).map { #"[\#($0),"began",\#(10 + $0 * 15),\#(100 + device * 400)]"# }.joined(separator: ",")))
                }
                for step in 0..<10 {
                    for device in 0..<2 {
                        t += 8_000_000
                        out.append(touch(t, device: device, (0..<64).map { #"[\#($0),"moved",\#(10 + $0 * 15 + step),\#(100 + device * 400 + round)]"# }.joined(separator: ",")))
                    }
                }
                for device in 0..<2 {
                    t += 1_000_000
                    out.append(touch(t, device: device, (0..<64).map { #"[\#($0),"ended",\#(20 + $0 * 15),\#(100 + device * 400)]"# }.joined(separator: ",")))
                }
            }
            return lines(out.count) { out[$0] }
        },
        HostileRecording(name: "256 devices, each clicking", refusedAt: nil) {
            lines(256 * 3) { i in
                let d = i / 3, t = i * 1_000_000
                switch i % 3 {
                case 0: return #"{"e":"device-added","device":\#(d),"name":"mouse \#(d)","system":"event\#(d)","kind":"pointer","capabilities":["pointer"]}"#
                case 1: return #"{"t":\#(t),"e":"pointer","device":\#(d),"kind":"button","at":[\#(d),5],"button":272,"pressed":true}"#
                default: return #"{"t":\#(t),"e":"pointer","device":\#(d),"kind":"button","at":[\#(d),5],"button":272,"pressed":false}"#
                }
            }
        },
        HostileRecording(name: "times near the end of the format's clock (9e15 ns, 104 days)", refusedAt: nil) {
            lines(4) { i in touch(9_000_000_000_000_000 + i * 500_000_000, #"[0,"\#(["began", "moved", "moved", "ended"][i])",\#(5 + i),5]"#) }
        },
    ]
}
