// libFuzzer target: the `libinput record` YAML scanner (top-level keys, devices, evdev and
// udev blocks, event rows), then the whole replay path. Build and run: `make fuzz`.
@testable import GestureTraces
import GestureKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = writeInput(data, size)
    // The scanner, whatever the content looks like (detection is bypassed).
    do {
        let devices = try LibinputRecordHeaderParser.parse(LineReader(path: path))
        for device in devices {
            guard let section = device.section else { continue }
            var stream = try EvdevStream(path: path, section: section)
            var decoder = MultitouchDecoder(description: device.description, screen: Size(width: 1000, height: 1000))
            var frame = TouchFrame(time: .zero)
            while let event = try stream.next() { _ = decoder.feed(event, into: &frame) }
        }
    } catch is TraceError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    replayWhole(path)
    return 0
}
