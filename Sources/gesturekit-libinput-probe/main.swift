import GestureFormat
// gesturekit-libinput-probe: opens input devices through libinput (path backend, or a
// udev seat), listens for a while, and prints one normalized JSON line per converted event.
//
//   gesturekit-libinput-probe [--duration SECONDS] [--screen WIDTHxHEIGHT] [--verbose]
//                             [--rotate DEGREES] [--calibration "a b c d e f"] [--region WxH+X+Y]
//                             [--open-gate TOKEN] (--udev [--seat NAME] | DEVICE...)
//                             (with --udev, DEVICE... are the nodes whose gate --open-gate opens)
//   gesturekit-libinput-probe --describe DEVICE...   (libevdev's view of each node, as JSON)
//   gesturekit-libinput-probe --lifetime [...] DEVICE... (LiveInput into an engine, then
//                             whether both were freed and libinput closed the devices)
//   gesturekit-libinput-probe --sample [...] DEVICE... (the documentation's photo viewer,
//                             LiveInputSample.swift, on the devices: it prints its own lines)
import GestureKit
import GestureLibinput
import GestureMockDevice
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes one whole line to a file descriptor (unbuffered, so a reader sees it at once).
func emit(_ line: String, to fd: Int32 = 1) {
    var bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}

func fail(_ message: String, status: Int32) -> Never {
    emit("gesturekit-libinput-probe: \(message)", to: 2)
    exit(status)
}

let usage = """
    usage: gesturekit-libinput-probe [--duration SECONDS] [--screen WIDTHxHEIGHT] [--verbose]
                                     [--rotate DEGREES] [--calibration "a b c d e f"] [--region WxH+X+Y]
                                     [--seat-access auto|libseat|open] [--grab]
                                     [--open-gate TOKEN] (--udev [--seat NAME] [DEVICE...] | DEVICE...)
           gesturekit-libinput-probe --describe DEVICE...
           gesturekit-libinput-probe --lifetime [--duration SECONDS] [--open-gate TOKEN] DEVICE...
           gesturekit-libinput-probe --sample [--duration SECONDS] [--screen WIDTHxHEIGHT] [--open-gate TOKEN] DEVICE...
    """

var paths: [String] = []
var useUdev = false
var seat = "seat0"
var duration: Double? = nil
var screen = Size(width: 1000, height: 1000)
var verbose = false
var describe = false
/// Run the devices into an engine through `LiveInput`, then report whether the input, the
/// engine and libinput's device files were let go (`lifetimeCheck`).
var lifetime = false
/// Run the devices through the documentation's sample app (`runPhotoViewer`,
/// LiveInputSample.swift), which prints its own lines.
var sample = false
var mapping = TouchMapping()
var access = DeviceAccess.automatic
var grab = false
/// Written to each DEVICE once libinput has opened them: starts mock recordings gated on it.
var openGate: String? = nil

var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--udev": useUdev = true
    case "--seat":
        guard let v = args.popFirst() else { fail("--seat needs a name\n\(usage)", status: 2) }
        seat = v
        useUdev = true
    case "--open-gate":
        guard let v = args.popFirst(), !v.isEmpty else { fail("--open-gate needs a token\n\(usage)", status: 2) }
        openGate = v
    case "--duration":
        guard let v = args.popFirst(), let d = Double(v), d >= 0 else {
            fail("--duration needs a number of seconds\n\(usage)", status: 2)
        }
        duration = d
    case "--screen":
        let parts = args.popFirst()?.split(separator: "x").compactMap { Double($0) } ?? []
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
            fail("--screen needs WIDTHxHEIGHT in points, e.g. 1000x1000\n\(usage)", status: 2)
        }
        screen = Size(width: parts[0], height: parts[1])
    case "--rotate", "--calibration", "--region":
        guard let v = args.popFirst() else { fail("\(arg) needs a value\n\(usage)", status: 2) }
        do {
            switch arg {
            case "--rotate": mapping.rotation = try TouchMapping.parseRotation(v)
            case "--calibration": mapping.calibration = try TouchMapping.parseMatrix(v)
            default: mapping.region = try TouchMapping.parseRegion(v)
            }
        } catch {
            fail("\(arg): \(error)\n\(usage)", status: 2)
        }
    case "--grab": grab = true
    case "--seat-access":
        guard let v = args.popFirst(), let a = DeviceAccess(rawValue: v) else {
            fail("--seat-access needs auto, libseat or open\n\(usage)", status: 2)
        }
        access = a
    case "--verbose": verbose = true
    case "--describe": describe = true
    case "--lifetime": lifetime = true
    case "--sample": sample = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if arg.hasPrefix("-") { fail("unknown option \(arg)\n\(usage)", status: 2) }
        paths.append(arg)
    }
}
if useUdev ? (!paths.isEmpty && openGate == nil) : paths.isEmpty {
    fail("give device paths or --udev (with --udev, device paths only as the nodes --open-gate opens)\n\(usage)", status: 2)
}

if describe {
    do {
        for path in paths { emit(EvdevDescriber.json(try EvdevDescriber.describe(path: path))) }
        exit(0)
    } catch {
        fail("\(error)", status: 1)
    }
}

/// The files this process has open, by descriptor: what each links to.
func openFiles() -> [Int32: String] {
    guard let dir = opendir("/proc/self/fd") else { return [:] }
    defer { closedir(dir) }
    var files: [Int32: String] = [:]
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let fd = Int32(name), fd != dirfd(dir) else { continue }
        var target = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
        files[fd] = n > 0 ? String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }
    return files
}

/// Runs the devices through `LiveInput` into an engine with a tap and a pan on one view,
/// releases both, and prints one line: whether each was freed, the files the run opened
/// (libinput's devices, its epoll, the loop's timer), those still open after it (none: libinput's
/// context closes its files when it is freed), and how much the engine traced.
func lifetimeCheck(_ listener: LibinputListener, gate: String?, paths: [String]) {
    weak var weakInput: LiveInput?
    weak var weakEngine: GestureEngine?
    weak var weakTap: GestureRecognizer?
    var traced = 0
    let before = openFiles()
    var openedForRun: [String] = []
    do {
        try {
            let engine = GestureEngine()
            let root = View(id: "root", frame: Rect(x: 0, y: 0, width: listener.screenSize.width,
                                                    height: listener.screenSize.height))
            engine.addRoot(root)
            let tap = TapGestureRecognizer(name: "tap")
            root.addGestureRecognizer(tap)
            root.addGestureRecognizer(PanGestureRecognizer(name: "pan"))
            engine.traceHandler = { _ in traced += 1 }
            let input = LiveInput(listener)
            input.onDevicesOpened = {
                openedForRun = openFiles().filter { before[$0.key] != $0.value }.map(\.value).sorted()
                if let gate { try MockDeviceGate.open(Array(gate.utf8), paths: paths) }
            }
            (weakInput, weakEngine, weakTap) = (input, engine, tap)
            try input.run(engine)
        }()
    } catch {
        fail("\(error)", status: 1)
    }
    var line = JSONObjectText()
    line.string("type", "lifetime")
    line.integer("traced", traced)
    line.strings("openedForRun", openedForRun)
    line.strings("stillOpen", openFiles().filter { before[$0.key] != $0.value }.map(\.value).sorted())
    line.strings("notFreed", [weakInput == nil ? nil : "LiveInput", weakEngine == nil ? nil : "GestureEngine",
                              weakTap == nil ? nil : "TapGestureRecognizer"].compactMap { $0 })
    emit(line.json)
}

var formatter = LibinputJSONFormatter()
var count = 0
var listener = LibinputListener(source: useUdev ? .seat(seat) : .paths(paths),
                                screenSize: screen, mapping: mapping, timeLimit: duration.map(Duration.init(seconds:)),
                                logPriority: verbose ? .debug : .error)
listener.access = access
listener.grab = grab
if lifetime {
    lifetimeCheck(listener, gate: openGate, paths: paths)
    exit(0)
}
if sample {
    do {
        try runPhotoViewer(devices: listener.source, screen: screen, timeLimit: duration.map { .seconds($0) },
                           devicesOpened: openGate.map { token in { try MockDeviceGate.open(Array(token.utf8), paths: paths) } })
        exit(0)
    } catch {
        fail("\(error)", status: 1)
    }
}
do {
    let reason = try listener.run(
        onEvent: { event in
            count += 1
            emit(formatter.line(for: event))
        },
        log: { priority, message in
            if verbose || priority >= .error {
                emit("libinput \(priority): \(message)", to: 2)
            }
        },
        onDevicesOpened: openGate.map { token in { try MockDeviceGate.open(Array(token.utf8), paths: paths) } })
    var stopped = JSONObjectText()
    stopped.string("type", "stopped")
    stopped.string("reason", reason.description)
    stopped.integer("events", count)
    emit(stopped.json)
} catch {
    fail("\(error)", status: 1)
}
