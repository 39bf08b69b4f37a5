// libFuzzer target: the scene parser (JSONParser, then Scene.parse); a scene that parses is
// built (LiveScene) and given a fixed script of touches covering every recognizer kind,
// on virtual time. Build and run: `make fuzz`.
import GestureKit
import GestureReplay

/// Points as fractions of the screen, so the script lands in any scene's views.
private func frame(_ t: Double, _ screen: Size, _ changes: [(Int, TouchPhase, Double, Double)]) -> TouchFrame {
    TouchFrame(time: Instant(seconds: t),
               changes: changes.map { TouchChange(sourceID: $0.0, phase: $0.1,
                                                  location: Point(x: $0.2 * screen.width, y: $0.3 * screen.height)) })
}

private func script(_ s: Size) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    // A double tap, then a tap elsewhere.
    frames.append(frame(0.00, s, [(1, .began, 0.5, 0.5)]))
    frames.append(frame(0.05, s, [(1, .ended, 0.5, 0.5)]))
    frames.append(frame(0.20, s, [(2, .began, 0.5, 0.5)]))
    frames.append(frame(0.25, s, [(2, .ended, 0.5, 0.5)]))
    frames.append(frame(1.00, s, [(3, .began, 0.15, 0.2)]))
    frames.append(frame(1.05, s, [(3, .ended, 0.15, 0.2)]))
    // A long press that drifts.
    frames.append(frame(2.00, s, [(4, .began, 0.3, 0.3)]))
    frames.append(frame(2.90, s, [(4, .moved, 0.301, 0.3)]))
    frames.append(frame(3.00, s, [(4, .ended, 0.301, 0.3)]))
    // A pinch that rotates, with a third finger joining and a cancel.
    frames.append(frame(4.00, s, [(5, .began, 0.4, 0.5), (6, .began, 0.6, 0.5)]))
    for i in 1...8 {
        let d = 0.1 + 0.03 * Double(i)
        frames.append(frame(4.0 + 0.02 * Double(i), s, [(5, .moved, 0.5 - d, 0.5 - 0.01 * Double(i)),
                                                        (6, .moved, 0.5 + d, 0.5 + 0.01 * Double(i))]))
    }
    frames.append(frame(4.20, s, [(7, .began, 0.5, 0.8)]))
    frames.append(frame(4.25, s, [(7, .cancelled, 0.5, 0.8), (5, .ended, 0.2, 0.4)]))
    frames.append(frame(4.30, s, [(6, .ended, 0.8, 0.6)]))
    // A fast swipe right and a slow pan down, left down at the end of input.
    frames.append(frame(5.00, s, [(8, .began, 0.1, 0.9)]))
    for i in 1...5 { frames.append(frame(5.0 + 0.02 * Double(i), s, [(8, .moved, 0.1 + 0.1 * Double(i), 0.9)])) }
    frames.append(frame(5.12, s, [(8, .ended, 0.6, 0.9)]))
    frames.append(frame(6.00, s, [(9, .began, 0.9, 0.1)]))
    for i in 1...5 { frames.append(frame(6.0 + 0.2 * Double(i), s, [(9, .moved, 0.9, 0.1 + 0.1 * Double(i))])) }
    return frames
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let scene: Scene
    do {
        scene = try Scene.parse(JSONParser.parse(bytes: bytes))
    } catch is JSONSyntaxError {
        return 0
    } catch is SceneError {
        return 0
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    let session: ReplaySession
    do {
        session = try ReplaySession(scene: scene) { record in
            _ = record.jsonLine
            _ = record.humanLine
        }
    } catch {
        // Scene.parse accepted it: building it must not fail.
        fatalError("a parsed scene does not build: \(error)")
    }
    for f in script(scene.screen) { session.feed(.touchFrame(f)) }
    session.finish()
    checkSettled(session.live, "scene")
    return 0
}
