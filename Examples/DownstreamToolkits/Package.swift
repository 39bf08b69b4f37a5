// swift-tools-version:6.0
// Packages outside GestureKit that use it inside a toolkit, as apps would: by path, through
// the `GestureKit` product and `GestureGTK` (a GTK 4 app) or `GestureSDL` (an SDL2 app).
// `scripts/check-downstream-toolkits.sh` builds them, runs the SDL one (it needs no display)
// and the GTK widgets one on Xvfb, and checks that each links its toolkit and nothing else of
// GestureKit's (no libinput, no libwayland, no other toolkit). The documentation's GTK and SDL samples are these files.
import PackageDescription

let package = Package(
    name: "DownstreamToolkits",
    dependencies: [
        .package(name: "GestureKit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "downstream-gtk",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureGTK", package: "GestureKit"),
            ]
        ),
        // A GTK app of real widgets from a GtkBuilder description, calling GTK through the
        // CGTK4 product, with recognizers on its buttons (GTKWindowInput).
        .executableTarget(
            name: "downstream-gtk-widgets",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureGTK", package: "GestureKit"),
                .product(name: "CGTK4", package: "GestureKit"),
            ]
        ),
        .executableTarget(
            name: "downstream-sdl",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureSDL", package: "GestureKit"),
            ]
        ),
    ]
)
