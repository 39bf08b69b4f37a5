// swift-tools-version:6.0
import PackageDescription

/// A debug build (yours, and the test suite's) compiles out every shortcut past Swift's
/// run-time checks in the engine and the collection view (`@exclusivity(unchecked)`,
/// `unowned(unsafe)`, `Unmanaged`: each on one named type whose comment names the benchmark
/// that needs it), so an access that overlaps another traps there instead of hiding. A
/// release build takes them (Benchmarks/README.md measures what each buys).
let checkedInDebug: [SwiftSetting] = [.define("GESTUREKIT_CHECKED_ACCESS", .when(configuration: .debug))]

let package = Package(
    name: "GestureKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GestureKit", targets: ["GestureKit"]),
        .library(name: "GestureLayout", targets: ["GestureLayout"]),
        .library(name: "GestureTraces", targets: ["GestureTraces"]),
        .library(name: "GestureReplay", targets: ["GestureReplay"]),
        // Testing your own gestures: a tester on virtual time that performs gestures on your
        // views and explains what the recognizers did. Needs only GestureKit.
        .library(name: "GestureTesting", targets: ["GestureTesting"]),
        // What an app received, written down as it arrived (docs/RECORDING.md), and read back.
        .library(name: "GestureRecording", targets: ["GestureRecording"]),
        // Recordings (evemu, libinput record, debug-events) replayed into a tester's views.
        .library(name: "GestureTestingTraces", targets: ["GestureTestingTraces"]),
        .library(name: "GesturePicture", targets: ["GesturePicture"]),
        .executable(name: "gesturekit", targets: ["gesturekit"]),
        .library(name: "GestureLibinput", targets: ["GestureLibinput"]),
        .library(name: "GestureMockDevice", targets: ["GestureMockDevice"]),
        // An app under a headless sway, touched through virtual devices (docs/DRIVE.md).
        .library(name: "GestureDrive", targets: ["GestureDrive"]),
        // Live input from libinput into a scene (LiveSession); your own engine takes it from LiveInput (GestureLibinput).
        .library(name: "GestureLive", targets: ["GestureLive"]),
        .library(name: "GestureWayland", targets: ["GestureWayland"]),
        .library(name: "GestureInput", targets: ["GestureInput"]),
        // GestureKit inside a GTK 4 widget (GTKGestureInput), and a window for a view tree.
        .library(name: "GestureGTK", targets: ["GestureGTK"]),
        // GTK 4's C API (gtk/gtk.h, and the few casts GestureGTK's shim makes callable), for a
        // GTK app that calls GTK without a binding of its own: `import CGTK4`.
        .library(name: "CGTK4", targets: ["CGTK4"]),
        // GestureKit in an SDL2 app: SDL's events into the engine.
        .library(name: "GestureSDL", targets: ["GestureSDL"]),
        .executable(name: "gesturekit-gtk", targets: ["gesturekit-gtk"]),
        .executable(name: "gesturekit-libinput-probe", targets: ["gesturekit-libinput-probe"]),
        // The example touch app: a photo wall on the collection view, rendered with SDL2.
        .executable(name: "photowall", targets: ["photowall"]),
        // The same wall in a GTK 4 window, through GestureGTK.
        .executable(name: "photowall-gtk", targets: ["photowall-gtk"]),
        // A GTK 4 app of standard widgets with recognizers on them (Examples/GTKWidgets).
        .executable(name: "gtk-widgets", targets: ["gtk-widgets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Documentation (`make docs`): DocC catalogs into static HTML. Build-time only.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The one number formatter and JSON writer of the package; pure Swift, no dependencies.
        .target(name: "GestureFormat"),
        // The pure-Swift core: recognizers, arbitration, delivery to views, virtual time.
        // It imports no C library.
        .target(
            name: "GestureKit",
            dependencies: [
                "GestureFormat",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: checkedInDebug
        ),
        // Headless layouts driven by gestures: flow layout, table layout, collection view.
        // Links libm on Linux: without Foundation nothing else brings in floor/sqrt.
        .target(
            name: "GestureLayout",
            dependencies: ["GestureKit", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: checkedInDebug,
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        // GestureKit's input recordings (docs/RECORDING.md): every InputEvent a line, written as
        // it arrives and read back. Pure Swift.
        .target(name: "GestureRecording", dependencies: ["GestureKit", "GestureFormat"]),
        // Recorded traces: evemu, libinput record YAML, libinput debug-events; the evdev
        // multitouch decoder. Streams from the file; pure Swift.
        .target(name: "GestureTraces", dependencies: ["GestureKit", "GestureFormat", "GestureRecording",
                                                      .product(name: "RealModule", package: "swift-numerics")]),
        // Scenes (REPLAY.md), replay on virtual time, its records as JSON lines.
        .target(name: "GestureReplay", dependencies: ["GestureKit", "GestureLayout", "GestureTraces", "GestureFormat", "GestureRecording"]),
        // Testing your own gestures (GestureTester): virtual time, gestures from parameters,
        // aim at views, explanations. Pure Swift, GestureKit only.
        .target(name: "GestureTesting", dependencies: ["GestureKit", .product(name: "RealModule", package: "swift-numerics")]),
        // A tester replays recordings through GestureTraces' readers and decoder.
        .target(name: "GestureTestingTraces", dependencies: ["GestureTesting", "GestureKit", "GestureTraces"]),
        // The suite's one shared test support: the engine harness (on GestureTester), the
        // process runner, the package's paths and recordings, the tools' JSON lines, the seeded
        // generator (GestureMockDevice's). Not a product.
        .target(name: "GestureTestSupport", dependencies: ["GestureTesting", "GestureKit", "GestureMockDevice"], path: "Tests/Support"),
        // Pictures of replays and layouts (SVG).
        .target(name: "GesturePicture", dependencies: ["GestureKit", "GestureLayout", "GestureReplay", "GestureFormat"]),
        // The command-line tool: replay, inspect.
        .executableTarget(
            name: "gesturekit",
            dependencies: [
                "GestureKit", "GestureTraces", "GestureReplay", "GesturePicture", "GestureLive", "GestureLibinput", "GestureFormat",
                "GestureMockDevice", "GestureWayland", "GestureInput", "GestureRecording", "GestureDrive", "GestureDriveInput",
                "GestureTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Live input from any source: the one live loop (poll, the engine's timer, time rebased
        // once), the monotonic clock, the client protocol. Backend-neutral: no C library.
        .target(name: "GestureInput", dependencies: ["GestureKit", "GestureRecording", "CLinuxEventFD"]),
        // The C library's timerfd, eventfd and signalfd headers (no library linked).
        .systemLibrary(name: "CLinuxEventFD"),
        // System libraries, touched only by GestureLibinput.
        .systemLibrary(name: "CLibinput", pkgConfig: "libinput", providers: [.apt(["libinput-dev"])]),
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Devices from the seat (seatd or logind) instead of the input group.
        .systemLibrary(name: "CLibseat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        // Live input: the only Swift module that touches libinput, libevdev and libudev.
        .target(
            name: "GestureLibinput",
            dependencies: ["GestureKit", "GestureInput", "GestureTraces", "GestureFormat", "CLibinput", "CLibevdev", "CUdev", "CLibseat"]
        ),
        // Wayland: libwayland-client (a system library) and the protocol code wayland-scanner
        // made from Debian's wayland-protocols (scripts/generate-wayland-protocols.sh).
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"]),
        // xkbcommon: which bits of a compositor's modifier masks are which keys.
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        // Input from a Wayland compositor (desktop sessions): the only module touching
        // libwayland-client (and xkbcommon, for the keyboard's modifiers). A source of
        // GestureInput's live loop.
        .target(name: "GestureWayland",
                dependencies: ["GestureKit", "GestureInput", "CWaylandClient", "CWaylandProtocols", "CXKBCommon"]),
        // GTK 4 (a system library), touched only by GestureGTK.
        .systemLibrary(name: "CGTK4", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        // GestureKit inside GTK 4 widgets: GDK's events into the engine on GLib's main loop.
        .target(name: "GestureGTK", dependencies: ["GestureKit", "GestureInput", "CGTK4"]),
        // A scene in a GTK window through GestureGTK, printing what gesturekit listen prints.
        .executableTarget(name: "gesturekit-gtk",
                          dependencies: ["GestureGTK", "GestureKit", "GestureLive", "GestureReplay", "GestureFormat", "GestureInput", "GestureRecording",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Pure Swift: mock-device files for umockdev and a runner for umockdev-run. It carries
        // the C source of the LD_PRELOAD library that fixes umockdev 0.17.16 for libinput and
        // builds it on first use (UmockdevFixLibrary).
        .target(name: "GestureMockDevice", dependencies: ["GestureKit", "GestureTraces"],
                resources: [.embedInCode("UmockdevFix/umockdev_fix.c")]),
        // Input for a driven app (gesturekit drive): virtual devices' descriptions, and
        // GestureTesting's gestures (and touchpad fingers) as those devices' evdev frames.
        .target(name: "GestureDriveInput", dependencies: ["GestureKit", "GestureTraces", "GestureTesting",
                                                          .product(name: "RealModule", package: "swift-numerics")]),
        // gesturekit drive: an app under a headless sway, touched through GestureDriveInput's
        // virtual devices (umockdev), observed with screenshots (grim) and sway's IPC tree.
        .target(name: "GestureDrive", dependencies: ["GestureDriveInput", "GestureMockDevice", "GestureTesting", "GestureKit",
                                                     "GestureTraces", "GestureFormat", "CZlib"]),
        // zlib, touched only by GestureDrive's PNG reader and writer (kept pictures, screenshots).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Live sessions (libinput into a scene, in real time) and replays through real libinput.
        .target(name: "GestureLive", dependencies: ["GestureKit", "GestureInput", "GestureLibinput", "GestureReplay", "GestureMockDevice", "GestureTraces"]),
        .executableTarget(name: "gesturekit-libinput-probe", dependencies: ["GestureLibinput", "GestureInput", "GestureKit", "GestureFormat", "GestureTraces", "GestureMockDevice"]),
        // The README's sample, compiled and run by the tests so it cannot drift from the API.
        .executableTarget(name: "quickstart", dependencies: ["GestureKit"], path: "Examples/QuickStart"),
        // README's desktop-session sample (Wayland), compiled, and run by the tests under sway.
        .executableTarget(name: "desktop-quickstart", dependencies: ["GestureKit", "GestureInput", "GestureWayland"],
                          path: "Examples/DesktopQuickStart"),
        // SDL2 (a system library), touched by GestureSDL and PhotoWall's renderer.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        // SDL2's input events into the engine (SDLInputAdapter) and SDL's clock bridged to the
        // compositor's (SDLClockBridge): an SDL app's way in.
        .target(name: "GestureSDL", dependencies: ["GestureKit", "GestureInput", "CSDL2"]),
        // PhotoWall (Examples/PhotoWall). SDL_ttf and SDL_image are touched only by PhotoWallRender.
        .systemLibrary(name: "CSDL2TTF", path: "Examples/PhotoWall/CSDL2TTF", pkgConfig: "SDL2_ttf",
                       providers: [.apt(["libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CSDL2Image", path: "Examples/PhotoWall/CSDL2Image", pkgConfig: "SDL2_image",
                       providers: [.apt(["libsdl2-image-dev"])]),
        // The app itself, pure Swift: the scene of views, the recognizers, the colours, what
        // each gesture does, and what to draw (a display list). Tests check it without SDL.
        .target(name: "PhotoWallApp", dependencies: ["GestureKit", "GestureLayout", "GestureTraces", "GestureFormat"],
                path: "Examples/PhotoWall/PhotoWallApp"),
        // Draws display lists with SDL2's software renderer onto an RGB888 surface (and a
        // window), reads pixels back, writes PNGs.
        .target(name: "PhotoWallRender", dependencies: ["PhotoWallApp", "GestureSDL", "CSDL2", "CSDL2TTF", "CSDL2Image"],
                path: "Examples/PhotoWall/PhotoWallRender"),
        .executableTarget(
            name: "photowall",
            dependencies: [
                "PhotoWallApp", "PhotoWallRender", "GestureKit", "GestureTraces", "GestureInput", "GestureLibinput", "GestureRecording",
                "GestureMockDevice", "GestureLive", "GestureWayland", "GestureSDL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/PhotoWall/photowall"
        ),
        // PhotoWall in a GTK 4 window through GestureGTK (Examples/PhotoWallGTK).
        .executableTarget(name: "photowall-gtk",
                          dependencies: ["PhotoWallApp", "GestureGTK", "GestureInput", "GestureKit", "GestureRecording",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Examples/PhotoWallGTK"),
        // Recognizers on a GTK app's real widgets through GTKWindowInput (Examples/GTKWidgets).
        .executableTarget(name: "gtk-widgets",
                          dependencies: ["GestureGTK", "GestureKit", "GestureInput", "CGTK4",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Examples/GTKWidgets"),
        .testTarget(name: "PhotoWallTests",
                    dependencies: ["PhotoWallApp", "PhotoWallRender", "GestureKit", "GestureLayout", "GestureTraces",
                                   "CSDL2", "photowall", "GestureTestSupport"]),
        .testTarget(name: "GestureSDLTests", dependencies: ["GestureSDL", "GestureKit", "CSDL2"]),
        .testTarget(name: "GestureKitTests", dependencies: ["GestureKit", "GestureFormat", "GestureTestSupport"]),
        .testTarget(name: "GestureTracesTests", dependencies: ["GestureTraces", "GestureKit", "GestureTestSupport"]),
        .testTarget(
            name: "GestureLibinputTests",
            dependencies: ["GestureLibinput", "GestureInput", "GestureMockDevice", "GestureKit", "GestureTraces",
                           "gesturekit-libinput-probe", "GestureTestSupport"]
        ),
        .testTarget(name: "GestureInputTests", dependencies: ["GestureInput", "GestureKit"]),
        .testTarget(name: "GestureWaylandTests",
                    dependencies: ["GestureWayland", "GestureInput", "GestureLive", "GestureMockDevice", "GestureKit", "GestureTraces",
                                   "GestureRecording",
                                   "gesturekit-gtk", "photowall-gtk", "gtk-widgets", "GestureTestSupport"]),
        .testTarget(name: "GestureReplayTests", dependencies: ["GestureReplay", "GestureKit", "GestureLayout", "GestureFormat", "GesturePicture",
                                                             "GestureTestSupport"]),
        .testTarget(name: "GestureLayoutTests", dependencies: ["GestureLayout", "GestureKit", "GestureTraces", "GestureTestSupport"]),
        .testTarget(name: "GestureRecordingTests",
                    dependencies: ["GestureRecording", "GestureTraces", "GestureReplay", "GestureInput", "GestureKit", "GestureTesting",
                                   "GestureTestingTraces", "GestureTestSupport", "GestureWayland"]),
        .testTarget(name: "GestureDriveTests",
                    dependencies: ["GestureDrive", "GestureDriveInput", "GestureMockDevice", "GestureTesting", "GestureKit",
                                   "GestureTraces", "GestureTestSupport"]),
        .testTarget(name: "GestureTestingTests",
                    dependencies: ["GestureTesting", "GestureTestingTraces", "GestureKit", "GestureLayout", "GestureReplay",
                                   "GestureTraces", "GestureRecording", "GestureTestSupport"],
                    // The account goldens (requireAccount(matches:)), read by the tests from the source tree.
                    exclude: ["__Accounts__"]),
    ]
)
