// libFuzzer target: GestureKit's input recording reader (docs/RECORDING.md: the header and
// every line kind), then the whole replay path. Build and run: `make fuzz`.
import GestureKit
import GestureRecording
import GestureTraces

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputRecording(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Each line as the reader takes it: the first as a header, the rest as entries. Whatever
    // the bytes, a line is an entry or a ReadError, never a crash.
    if let data, size > 0 {
        let lines = UnsafeBufferPointer(start: data, count: size).split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            do {
                if index == 0 { _ = try InputRecording.header(Array(line), number: 1) } else {
                    if case let .event(event) = try InputRecording.entry(Array(line), number: index + 1) {
                        // What reads back, writes again to a line that reads back the same.
                        let again = InputRecording.line(event)
                        guard case let .event(back)? = try? InputRecording.entry(Array(again.utf8.dropLast()), number: 0),
                              InputRecording.line(back) == again else {
                            fatalError("line \(index + 1) read back as \(event), written as \(again), which does not read back the same")
                        }
                    }
                }
            } catch is InputRecording.ReadError {
            } catch {
                fatalError("unexpected error type: \(error)")
            }
        }
    }
    let path = writeInput(data, size)
    do {
        let reader = try TraceReader(path: path)
        try reader.run(advancingClock: { _ in }) { _ in }
    } catch is TraceError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    replayWhole(path)
    return 0
}
