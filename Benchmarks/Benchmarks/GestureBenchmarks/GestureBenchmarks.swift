import Benchmark
import GestureKit
import GestureLayout
import GestureReplay
import GestureRecording
import GestureTesting
import GestureTraces
import BenchSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds what a benchmark's setup builds, for its closure.
final class Box<T>: @unchecked Sendable {
    var value: T?
}

// `perf stat -e instructions true` answers "<not supported>" on this machine (a VM without
// PMU access), so the instructions metric is left out: it would read zero.
let perFrameMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .peakMemoryResident]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: perFrameMetrics,
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )
    dispatchBenchmarks()
    pointerBenchmarks()
    timerBenchmarks()
    layoutBenchmarks()
    scrollBenchmarks()
    replayBenchmarks()
    testingBenchmarks()
    recordingBenchmarks()
}

// MARK: - Dispatch

func dispatchBenchmarks() {
    // Each inner iteration sends one frame; figures are per frame (scaling factor 1000).
    let cases: [(String, Int, Int, DispatchScene.Mode)] = [
        ("Dispatch: 2 touches, 8 recognizers, pan changing (others failed)", 2, 1, .panning),
        ("Dispatch: 2 touches, 8 recognizers, all possible", 2, 1, .undecided),
        ("Dispatch: 1 touch, 8 recognizers, pan changing", 1, 1, .panning),
        ("Dispatch: 5 touches, 8 recognizers, pan changing", 5, 1, .panning),
        ("Dispatch: 10 touches, 8 recognizers, pan changing", 10, 1, .panning),
        ("Dispatch: 2 touches, 64 recognizers, pan changing", 2, 8, .panning),
        ("Dispatch: 2 touches, 64 recognizers, all possible", 2, 8, .undecided),
    ]
    for (name, touches, copies, mode) in cases {
        let box = Box<DispatchScene>()
        Benchmark(name,
                  configuration: .init(metrics: perFrameMetrics, scalingFactor: .kilo),
                  closure: { benchmark in
                      let scene = box.value!
                      for _ in benchmark.scaledIterations { scene.sendNext() }
                      blackHole(scene.counter.value)
                  },
                  setup: {
                      let scene = DispatchScene(touches: touches, copies: copies, mode: mode)
                      scene.check(mode: mode, copies: copies)
                      box.value = scene
                  },
                  teardown: { box.value = nil })
    }
}

// MARK: - Pointer

/// The dispatch scene (one touch panning on the button) with a hover recognizer on the cell:
/// each inner iteration moves the pointer (no button pressed) round a small circle inside the
/// cell, so the hover changes every time. Figures per motion (scaling factor 1000).
func pointerBenchmarks() {
    final class HoverScene {
        let scene = DispatchScene(touches: 1, copies: 1, mode: .panning)
        let hover = HoverGestureRecognizer()
        var step = 0
        var time: Instant
        let path: [Point] = (0..<360).map { i in
            let a = Double(i) * (Double.pi / 180)
            return Point(x: 500 + 100 * cos(a), y: 500 + 100 * sin(a))
        }
        init() {
            scene.views[3].addGestureRecognizer(hover)
            hover.addTarget { [counter = scene.counter] _ in counter.value &+= 1 }
            time = scene.time
            for _ in 0..<400 { next() }
            precondition(hover.state == .changed, "the hover is changing in the steady state")
        }
        @inline(__always)
        func next() {
            step &+= 1
            time = Instant(nanoseconds: time.nanoseconds &+ 8_000_000)
            scene.engine.send(PointerEvent.motion(to: path[step % path.count], at: time, device: InputDeviceID(7)))
        }
    }
    let box = Box<HoverScene>()
    Benchmark("Pointer: motion with a hover recognizer, over the dispatch scene (hover changing)",
              configuration: .init(metrics: perFrameMetrics, scalingFactor: .kilo),
              closure: { benchmark in
                  let scene = box.value!
                  for _ in benchmark.scaledIterations { scene.next() }
                  blackHole(scene.scene.counter.value)
              },
              setup: { box.value = HoverScene() },
              teardown: { box.value = nil })
}

// MARK: - Timers

/// 10,000 long presses on one view, each waiting for two fingers, with durations 0.5 s +
/// i µs; one finger goes down on the view. The touch-down schedules 10,000 deadlines; each
/// deadline then fires on its own (the press's duration passes, the recognizer waits for its
/// second finger), with no arbitration: the cost is the timer queue and the step around it.
final class TimerScene {
    static let count = 10_000
    let engine = GestureEngine()
    let view = View(id: "board", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
    let start = Instant(seconds: 1)

    init() {
        engine.addRoot(view)
        for i in 0..<TimerScene.count {
            let press = LongPressGestureRecognizer(minimumPressDuration: Duration(seconds: 0.5 + Double(i) * 1e-6))
            press.numberOfTouchesRequired = 2
            view.addGestureRecognizer(press)
        }
    }

    func touchDown() {
        engine.send(TouchFrame(time: start, changes: [TouchChange(sourceID: 0, phase: .began, location: Point(x: 500, y: 500))]))
    }

    func fireAll() {
        engine.advance(to: start + Duration(seconds: 0.6))
    }
}

func timerBenchmarks() {
    let config = Benchmark.Configuration(metrics: perFrameMetrics, timeUnits: .microseconds,
                                         warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 20)
    Benchmark("Timers: schedule 10,000 long-press deadlines (one touch-down)", configuration: config) { benchmark in
        let scene = TimerScene()
        benchmark.startMeasurement()
        scene.touchDown()
        benchmark.stopMeasurement()
        precondition(scene.engine.nextDeadline == scene.start + Duration(seconds: 0.5))
        blackHole(scene)
    }
    Benchmark("Timers: fire 10,000 long-press deadlines", configuration: config) { benchmark in
        let scene = TimerScene()
        scene.touchDown()
        benchmark.startMeasurement()
        scene.fireAll()
        benchmark.stopMeasurement()
        precondition(scene.engine.nextDeadline == nil)
        blackHole(scene)
    }
}

// MARK: - Layout

/// A flow layout of `items` items in 1,000 sections (items / 1000 each) on a 1000 × 1000
/// collection view; each iteration is one pinch change: a new itemSize, the metrics
/// invalidation context, and the attributes of the 1000 × 1000 visible rect, kept at the
/// same relative scroll position (the middle of the content).
final class LayoutScene {
    let layout: FlowLayout
    var buffer: [LayoutAttributes] = []
    var step = 0

    init(items: Int) {
        layout = FlowLayout(itemCounts: Array(repeating: items / 1000, count: 1000),
                            boundsSize: Size(width: 1000, height: 1000))
        layout.itemSize = Size(width: 50, height: 50)
        buffer.reserveCapacity(1024)
        for _ in 0..<100 { pinchChange() }
    }

    @inline(__always)
    func pinchChange() {
        step &+= 1
        // The pinch's scale runs 0.8 … 1.2 and back: item sides 40 … 60 points.
        let side = 40 + Double(step % 40 < 20 ? step % 40 : 40 - step % 40)
        layout.itemSize = Size(width: side, height: side)
        layout.invalidateLayout(with: .metrics)
        let height = layout.contentSize.height
        let y = max(0, height / 2 - 500)
        layout.layoutAttributesForElements(in: Rect(x: 0, y: y, width: 1000, height: 1000), into: &buffer)
    }
}

func layoutBenchmarks() {
    for items in [1_000, 10_000, 100_000, 1_000_000] {
        let box = Box<LayoutScene>()
        Benchmark("Layout: pinch change, \(items) items in 1,000 sections",
                  configuration: .init(metrics: perFrameMetrics, scalingFactor: .kilo),
                  closure: { benchmark in
                      let scene = box.value!
                      for _ in benchmark.scaledIterations { scene.pinchChange() }
                      blackHole(scene.buffer.count)
                  },
                  setup: { box.value = LayoutScene(items: items) },
                  teardown: { box.value = nil })
    }
}

// MARK: - Scrolling

/// One display-link frame of a decelerating collection view (BenchSupport's ScrollScene).
func scrollBenchmarks() {
    for items in [1_000, 100_000, 1_000_000] {
        let box = Box<ScrollScene>()
        Benchmark("Scroll: one frame of a decelerating collection view, \(items) items in sections of 1,000",
                  configuration: .init(metrics: perFrameMetrics, scalingFactor: .kilo),
                  closure: { benchmark in
                      let scene = box.value!
                      for _ in benchmark.scaledIterations { scene.frame() }
                      blackHole(scene.collectionView.contentOffset.y)
                  },
                  setup: { box.value = ScrollScene(items: items) },
                  teardown: { box.value = nil })
    }
}

// MARK: - Replay

/// The generated recordings (`make bench` writes them, see Benchmarks/generate_traces.py).
/// Their folder comes from GESTUREKIT_BENCH_TRACES; without it the replay benchmarks are
/// not registered.
func replayBenchmarks() {
    guard let dir = getenv("GESTUREKIT_BENCH_TRACES").map({ String(cString: $0) }) else { return }
    let files = [("libinput record YAML, 10 MB", "touch-10mb.yml"),
                 ("libinput record YAML, 50 MB", "touch-50mb.yml"),
                 ("evemu, 50 MB", "touch-50mb.evemu")]
    for (label, file) in files {
        let path = dir + "/" + file
        guard access(path, R_OK) == 0 else { continue }
        let events = Box<Int>()
        Benchmark("Replay: \(label) (TraceReader → engine, default scene)",
                  configuration: .init(metrics: perFrameMetrics + [.custom("kevents/s", polarity: .prefersLarger, useScalingFactor: false)],
                                       timeUnits: .milliseconds, warmupIterations: 1,
                                       maxDuration: .seconds(10), maxIterations: 5),
                  closure: { benchmark in
                      let clock = ContinuousClock()
                      let start = clock.now
                      let frames = try ReplayPipeline.run(path: path)
                      let elapsed = clock.now - start
                      blackHole(frames)
                      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                      benchmark.measurement(.custom("kevents/s", polarity: .prefersLarger, useScalingFactor: false),
                                            Int(Double(events.value!) / seconds / 1000))
                  },
                  setup: { events.value = try! ReplayPipeline.countEvents(path: path) })
    }
}

// MARK: - GestureTesting

/// A photo as an app's tests set it up: a double tap, a single tap that requires the double
/// tap to fail, and a pan. Each tap is `GestureTester.tap(on:)` followed by `settle()`, which
/// runs the virtual clock past the double tap's 0.3 s interval so the single tap recognizes:
/// the cost of one tap in a test, aiming and explanation records included. The records are
/// cleared every 1,000 taps, as a test's tester would be made anew.
final class TestingTapScene {
    let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
    let singleTap = TapGestureRecognizer(name: "singleTap")
    let pan = PanGestureRecognizer(name: "pan")
    let tester: GestureTester
    var selections = 0

    init() {
        singleTap.require(toFail: doubleTap)
        for r in [doubleTap, singleTap, pan] as [GestureRecognizer] { photo.addGestureRecognizer(r) }
        tester = GestureTester(root: photo)
        singleTap.addTarget { [unowned self] _ in selections &+= 1 }
        for _ in 0..<100 { try! tap() }
        precondition(selections == 100 && !tester.recognized(doubleTap) && !tester.recognized(pan),
                     "every tap selects once the double tap has failed; nothing else recognizes")
        tester.clearRecords()
    }

    @inline(__always)
    func tap() throws {
        try tester.tap(on: photo)
        try tester.settle()
    }
}

func testingBenchmarks() {
    let box = Box<TestingTapScene>()
    // Each inner iteration is one tap and settle; figures are per tap (scaling factor 1000),
    // throughput in taps a second.
    Benchmark("GestureTesting: taps",
              configuration: .init(metrics: perFrameMetrics + [.throughput], scalingFactor: .kilo),
              closure: { benchmark in
                  let scene = box.value!
                  let before = scene.selections
                  for _ in benchmark.scaledIterations { try scene.tap() }
                  precondition(scene.selections == before + benchmark.scaledIterations.count)
                  scene.tester.clearRecords()
                  blackHole(scene.selections)
              },
              setup: { box.value = TestingTapScene() },
              teardown: { box.value = nil })
}

// MARK: - Recording

func recordingBenchmarks() {
    let box = Box<RecordingScene>()
    Benchmark("Recording: a two-finger touch frame written (InputRecordingWriter)",
              configuration: .init(metrics: perFrameMetrics + [.throughput], scalingFactor: .kilo),
              closure: { benchmark in
                  let scene = box.value!
                  for _ in benchmark.scaledIterations { scene.recordFrame() }
                  blackHole(scene.writer.size)
              },
              setup: { box.value = RecordingScene() },
              teardown: {
                  if let scene = box.value {
                      print("Recording: \(scene.writer.size / max(scene.writer.eventCount, 1)) bytes a two-finger frame")
                  }
                  box.value = nil
              })
}
