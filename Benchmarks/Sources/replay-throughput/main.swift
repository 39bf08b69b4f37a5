// replay-throughput FILE: replays one recording through the benchmark pipeline
// (BenchSupport.ReplayPipeline) and prints what it measured as key=value lines:
// events, seconds (the replay alone), events per second and the process's peak RSS.
// The events are counted in a first, untimed pass; `--no-count` skips it (and the events
// figures), so the process reads the file once, as the tool it is compared with does.
import BenchSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let args = CommandLine.arguments.dropFirst()
guard let path = args.last, !path.hasPrefix("-") else {
    print("usage: replay-throughput [--no-count] FILE")
    exit(2)
}
#if canImport(Glibc)
let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif
let countEvents = !args.contains("--no-count")
do {
    let events = countEvents ? try ReplayPipeline.countEvents(path: path) : 0
    let clock = ContinuousClock()
    let start = clock.now
    let records = try ReplayPipeline.run(path: path)
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    var usage = rusage()
    getrusage(RUSAGE_SELF_WHO, &usage)
    print("file=\(path)")
    if countEvents { print("events=\(events)") }
    print("records=\(records)")
    print("seconds=\(seconds)")
    if countEvents { print("events_per_second=\(Int(Double(events) / seconds))") }
    print("peak_rss_kb=\(usage.ru_maxrss)")
} catch {
    print("replay-throughput: \(error)")
    exit(1)
}
