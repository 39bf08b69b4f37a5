import Foundation
import GestureKit
@testable import GestureWayland
import Testing

/// An output's logical size as sway 1.7 says it (`zxdg_output_v1`), at a fractional scale where
/// `wl_output.scale` says only the integer above it. sway's outputs here are headless: they say
/// 0 × 0 mm, so the points per millimetre themselves are tested without a compositor
/// (OutputGeometryTests); here, that a headless output's touchscreen is announced with none.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct OutputGeometryCompositorTests {
    @Test("under sway with `output * scale 1.5`, the output's logical size is its mode over 1.5 (wl_output.scale says 2); its touchscreen, on a 0x0 mm headless output, has no points per millimetre")
    func fractionalScaleThroughSway() throws {
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-tap-1f.evemu"), hold: true,
                                           client: "sleep 30", swayConfig: "output * scale 1.5")
        defer { session.remove() }
        defer { session.stopCompositor() }
        let connection = try CompositorRobustnessTests.connect(session, whenSwayHas: "touch")
        defer { connection.disconnect() }
        let events = try CompositorRobustnessTests.collect(connection, seconds: 0.5)
        let output = try #require(connection.outputs.first, "sway's headless output is bound")
        let mode = try #require(output.pixelSize, "the output says its mode")
        #expect(output.scale == 2, "wl_output.scale, an integer: \(output.scale)")
        let logical = try #require(output.compositorLogicalSize, "sway says the logical size (zxdg_output_v1)")
        // sway says the logical size in whole points: the tests' 1000 x 1000 mode over 1.5 is 666 x 666
        // (measured), so the scale read back is 1000 / 666 = 1.5015.
        #expect(abs(logical.width - mode.width / 1.5) < 1 && abs(logical.height - mode.height / 1.5) < 1,
                "mode \(mode), logical \(logical)")
        #expect(abs(output.geometry.scale - 1.5) < 0.01, "the output's scale: \(output.geometry.scale)")
        #expect(output.physicalSize == nil, "a headless output says 0 x 0 mm")
        #expect(output.pointsPerMillimetre == nil && connection.pointsPerMillimetre == nil)
        let touchscreen = try #require(CompositorRobustnessTests.added(events).first { $0.kind == .touchscreen })
        #expect(touchscreen.pointsPerMillimetre == nil && touchscreen.sizeMillimetres == nil, "\(touchscreen)")
    }
}
