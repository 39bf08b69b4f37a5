// libFuzzer target: the `libinput debug-events` parser (device scan, touch and gesture
// lines), then the whole replay path. Build and run: `make fuzz`.
@testable import GestureTraces
import GestureKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDebugEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = writeInput(data, size)
    // The parser, whatever the content looks like (detection is bypassed).
    do {
        let screen = Size(width: 1000, height: 1000)
        let scan = try DebugEventsScanner.scan(LineReader(path: path), screen: screen)
        try DebugEventsScanner.run(path: path, screen: screen, devices: scan.devices, origin: scan.origin) { _ in }
    } catch is TraceError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    replayWhole(path)
    return 0
}
