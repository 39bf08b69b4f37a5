import GestureKit
import GestureLive
import GestureReplay
@testable import GestureWayland
import Testing

/// How many points a millimetre of an output is (`OutputGeometry`), which a touchscreen read
/// through the compositor is announced with, without a compositor.
///
/// Not through sway: the tests' sway runs headless, and wlroots' headless outputs say a
/// physical size of 0 × 0 mm (they have no panel; `output * ...` sets no physical size), so a
/// touchscreen there is announced with no points per millimetre (the last test's case): the
/// computation is tested here, on the sizes a real panel's output says.
@Suite struct OutputGeometryTests {
    /// A 1920 × 1080 mode on a 344 × 194 mm panel (a 15.6-inch laptop screen).
    static let mode = Size(width: 1920, height: 1080)
    static let panel = Size(width: 344, height: 194)

    @Test("a 1920x1080 output at scale 1 on a 344x194 mm panel: 1920 points over 344 mm")
    func scaleOne() throws {
        let geometry = OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: 1)
        #expect(geometry.logicalSize == Self.mode)
        let ppm = try #require(geometry.pointsPerMillimetre)
        #expect(abs(ppm - 1920.0 / 344) < 1e-12, "\(ppm)")
        #expect(abs(ppm - 5.5814) < 1e-4)
    }

    @Test("the same at scale 2: 960 points over 344 mm, half as many points a millimetre")
    func scaleTwo() throws {
        let geometry = OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: 2)
        #expect(geometry.logicalSize == Size(width: 960, height: 540))
        let ppm = try #require(geometry.pointsPerMillimetre)
        #expect(abs(ppm - 960.0 / 344) < 1e-12, "\(ppm)")
    }

    @Test("the same at scale 1.5, as wp_fractional_scale says it (180 120ths): 1280 points over 344 mm")
    func fractionalFromPreferredScale() throws {
        let scale = OutputGeometry.scale(preferred120: 180)
        #expect(scale == 1.5)
        let geometry = OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: scale)
        #expect(geometry.logicalSize == Size(width: 1280, height: 720))
        let ppm = try #require(geometry.pointsPerMillimetre)
        #expect(abs(ppm - 1280.0 / 344) < 1e-12, "\(ppm)")
    }

    @Test("scale 1.5 as an output says it (zxdg_output_v1's logical size 1280x720; wl_output.scale says 2), turned by 90° too")
    func fractionalFromLogicalSize() throws {
        let scale = try #require(OutputGeometry.scale(modeSize: Self.mode, logicalSize: Size(width: 1280, height: 720), turned: false))
        #expect(scale == 1.5)
        let turned = try #require(OutputGeometry.scale(modeSize: Self.mode, logicalSize: Size(width: 720, height: 1280), turned: true))
        #expect(turned == 1.5, "a portrait output's logical size is the turned one")
        let ppm = try #require(OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: scale).pointsPerMillimetre)
        #expect(abs(ppm - 1280.0 / 344) < 1e-12, "\(ppm)")
        #expect(OutputGeometry.scale(modeSize: Self.mode, logicalSize: Size(width: 0, height: 0), turned: false) == nil)
    }

    @Test("a headless output (0x0 mm) gives no points per millimetre: nil, not infinity")
    func headless() {
        #expect(OutputGeometry(modeSize: Self.mode, physicalSize: Size(width: 0, height: 0), scale: 1).pointsPerMillimetre == nil)
        #expect(OutputGeometry(modeSize: Self.mode, physicalSize: nil, scale: 1).pointsPerMillimetre == nil)
        #expect(OutputGeometry(modeSize: nil, physicalSize: Self.panel, scale: 1).pointsPerMillimetre == nil, "no mode yet")
        #expect(OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: 0).pointsPerMillimetre == nil, "no scale")
    }

    @Test("a device announced with its points per millimetre sets the engine's, without a replay session")
    func engineTakesTheAnnouncedScale() {
        let engine = GestureEngine()
        let id = InputDeviceID(3)
        let ppm = OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: 2).pointsPerMillimetre
        engine.send(.deviceAdded(InputDeviceInfo(id: id, name: "seat0 wl_touch", systemName: "wayland", kind: .touchscreen,
                                                 capabilities: [.touch], sizeMillimetres: Self.panel, pointsPerMillimetre: ppm)))
        #expect(engine.pointsPerMillimetre[id] == 960.0 / 344)
        engine.send(.deviceAdded(InputDeviceInfo(id: InputDeviceID(4), name: "headless wl_touch", systemName: "wayland",
                                                 kind: .touchscreen, capabilities: [.touch], sizeMillimetres: nil)))
        #expect(engine.pointsPerMillimetre[InputDeviceID(4)] == nil, "a headless output's touchscreen: none")
    }

    @Test("a live session keeps a compositor's touchscreen's announced points per millimetre (not the scene's screen over the panel's millimetres)")
    func liveSessionKeepsTheAnnouncedScale() throws {
        let session = try LiveSession(scene: .defaultScene(screen: Size(width: 1000, height: 1000))) { _ in }
        let ppm = try #require(OutputGeometry(modeSize: Self.mode, physicalSize: Self.panel, scale: 1.5).pointsPerMillimetre)
        session.handle(.deviceAdded(InputDeviceInfo(id: InputDeviceID(1), name: "seat0 wl_touch", systemName: "wayland",
                                                    kind: .touchscreen, capabilities: [.touch], sizeMillimetres: Self.panel,
                                                    pointsPerMillimetre: ppm)))
        #expect(session.engine.pointsPerMillimetre[InputDeviceID(1)] == 1280.0 / 344,
                "\(String(describing: session.engine.pointsPerMillimetre[InputDeviceID(1)]))")
        // A recording's or libinput's touchscreen (no scale announced) is still mapped onto the
        // scene's screen: (1000 / 344 + 1000 / 194) / 2.
        session.handle(.deviceAdded(InputDeviceInfo(id: InputDeviceID(2), name: "event5", systemName: "event5",
                                                    kind: .touchscreen, capabilities: [.touch], sizeMillimetres: Self.panel)))
        let mapped = try #require(session.engine.pointsPerMillimetre[InputDeviceID(2)])
        #expect(abs(mapped - (1000.0 / 344 + 1000.0 / 194) / 2) < 1e-9, "\(mapped)")
    }
}
