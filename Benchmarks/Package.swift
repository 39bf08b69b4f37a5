// swift-tools-version:6.1
// GestureKit's benchmarks: a package of their own, so the root package never depends on
// ordo-one/benchmark. Run with `make bench` from the repository root.
import PackageDescription

let package = Package(
    name: "GestureKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "GestureKit", path: ".."),
        // The MallocInterposer trait alone (not the default RuntimeInterposer, whose package
        // the local mirror does not carry): malloc counts come from the interposer, no jemalloc.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The replay pipeline shared by the benchmark and the side-by-side timing tool.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureTraces", package: "GestureKit"),
                .product(name: "GestureReplay", package: "GestureKit"),
                .product(name: "GestureLayout", package: "GestureKit"),
                .product(name: "GestureRecording", package: "GestureKit"),
            ]
        ),
        // Times one replay in a process of its own (peak RSS per file size; the ratio to
        // libinput's analysis tool). Used by scripts/bench.sh.
        .executableTarget(name: "replay-throughput", dependencies: ["BenchSupport"]),
        // Sends frames through the dispatch benchmark's scene, for a profiler.
        .executableTarget(name: "profile-dispatch", dependencies: ["BenchSupport"]),
        // Runs frames of the scrolling benchmark's collection view, for a profiler.
        .executableTarget(name: "profile-scroll", dependencies: ["BenchSupport"]),
        // Records frames of the recording benchmark's two-finger pan, for a profiler.
        .executableTarget(name: "profile-recording", dependencies: ["BenchSupport"]),
        .executableTarget(
            name: "GestureBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GestureKit", package: "GestureKit"),
                .product(name: "GestureTraces", package: "GestureKit"),
                .product(name: "GestureReplay", package: "GestureKit"),
                .product(name: "GestureLayout", package: "GestureKit"),
                // Gestures performed by GestureTester, as an app's tests perform them.
                .product(name: "GestureTesting", package: "GestureKit"),
                .product(name: "GestureRecording", package: "GestureKit"),
                "BenchSupport",
            ],
            path: "Benchmarks/GestureBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
