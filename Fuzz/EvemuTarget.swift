// libFuzzer target: the evemu parser (header, E: lines) and the decoder behind it, then the
// whole replay path. Build and run: `make fuzz`.
@testable import GestureTraces
import GestureKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemu(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = writeInput(data, size)
    // The evemu parser, whatever the content looks like (detection is bypassed).
    do {
        let (description, section) = try EvemuHeaderParser.parse(LineReader(path: path))
        var stream = try EvdevStream(path: path, section: section)
        var decoder = MultitouchDecoder(description: description, screen: Size(width: 1000, height: 1000))
        var frame = TouchFrame(time: .zero)
        while let event = try stream.next() { _ = decoder.feed(event, into: &frame) }
    } catch is TraceError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    replayWhole(path)
    return 0
}
