// swift-tools-version:6.0
// A package outside GestureKit that uses it as an app would: by path, through the
// `GestureKit` and `GestureLayout` products, and `GestureTesting` (with
// `GestureTestingTraces`) for its tests. It builds and tests with nothing but Swift
// installed (no libinput, no SDL); `scripts/check-downstream.sh` checks that, and the
// documentation's samples are its source files, so they compile.
import PackageDescription

let package = Package(
    name: "Downstream",
    dependencies: [
        .package(name: "GestureKit", path: "../.."),
    ],
    targets: [
        // The app's code: its views, its recognizers, and what the program does with them.
        .target(
            name: "DownstreamApp",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureLayout", package: "GestureKit"),
            ]
        ),
        // The program: main.swift runs the app's code and prints what it recognized.
        .executableTarget(name: "downstream", dependencies: ["DownstreamApp"]),
        // The app's tests, as an app developer writes them: gestures performed with
        // GestureTesting's GestureTester on virtual time, a recording replayed with
        // GestureTestingTraces. The README's and the documentation's testing samples are
        // these files.
        .testTarget(
            name: "DownstreamTests",
            dependencies: [
                "DownstreamApp",
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureLayout", package: "GestureKit"),
                .product(name: "GestureTesting", package: "GestureKit"),
                .product(name: "GestureTestingTraces", package: "GestureKit"),
            ],
            // The account goldens beside the tests (requireAccount(matches:)): read from the
            // source tree, not resources.
            exclude: ["__Accounts__"]
        ),
    ]
)
