#!/usr/bin/env bash
# `make bench`: GestureKit's benchmarks (Benchmarks/, ordo-one/benchmark), then the replay
# figures that need a process of their own (peak RSS per file size) and the side-by-side
# timing against libinput's own analysis tool. Everything it prints also goes to
# out/bench/; Benchmarks/README.md's figures are copied from that.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/out/bench"
traces="$root/Benchmarks/traces"      # git-ignored; generated once, then reused
mkdir -p "$out" "$traces"
swift=${SWIFT:-swift}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "swift: $($swift --version 2>&1 | head -1)"
  if command -v perf >/dev/null; then
    if perf stat -x, -e instructions true 2>&1 | grep -q "not supported"; then
      echo "perf instructions: not supported on this machine (no PMU access)"
    else
      echo "perf instructions: supported"
    fi
  else
    echo "perf instructions: perf not installed"
  fi
} | tee "$out/machine.txt"

# 1. The recordings: 10 MB and 50 MB of libinput record YAML, 50 MB of evemu.
gen() {  # FORMAT SIZE_MB FILE
  if [ ! -s "$traces/$3" ] || [ "$root/Benchmarks/generate_traces.py" -nt "$traces/$3" ]; then
    echo "generating $3 ($2 MB, $1)"
    python3 Benchmarks/generate_traces.py --format "$1" --size-mb "$2" --out "$traces/$3" > "$traces/$3.counts"
  fi
}
gen libinput 10 touch-10mb.yml
gen libinput 50 touch-50mb.yml
gen evemu 50 touch-50mb.evemu

# 2. The benchmark suite (release build).
cd Benchmarks
$swift build -c release --product replay-throughput
GESTUREKIT_BENCH_TRACES="$traces" $swift package --disable-sandbox benchmark --no-progress \
  | grep -v '^\[' | tee "$out/benchmarks.txt"

# 3. Replay in processes of their own: throughput and peak RSS per file size.
for f in touch-10mb.yml touch-50mb.yml touch-50mb.evemu; do
  .build/release/replay-throughput "$traces/$f" | tee "$out/replay-$f.txt"
done

# 4. Side by side, in this one run: libinput's analysis tool and our pipeline on the 10 MB
#    recording, each as a whole process (start-up included), wall clock.
tool=/usr/libexec/libinput/libinput-analyze-per-slot-delta
file="$traces/touch-10mb.yml"
t0=$(date +%s.%N)
/usr/bin/python3 "$tool" "$file" > /dev/null
t1=$(date +%s.%N)
ours=()
for i in 1 2 3 4 5; do   # five runs of ours (a shared machine is noisy); the median counts
  s0=$(date +%s.%N)
  .build/release/replay-throughput --no-count "$file" > /dev/null
  s1=$(date +%s.%N)
  ours+=("$(python3 -c "print($s1 - $s0)")")
done
python3 - "$t0" "$t1" "${ours[@]}" <<'PY' | tee "$out/side-by-side.txt"
import statistics, sys
t0, t1 = map(float, sys.argv[1:3])
ours = sorted(map(float, sys.argv[3:]))
a, b = t1 - t0, statistics.median(ours)
print(f"libinput-analyze-per-slot-delta: {a:.2f} s")
print(f"replay-throughput --no-count (whole process), 5 runs: {' '.join(f'{x:.3f}' for x in ours)} s; median {b:.3f} s")
print(f"ratio (median): {a / b:.0f}x")
PY
# 5. The command-line tool against its own pipeline, whole processes, wall clock, on the 50 MB
#    recordings: `gesturekit replay --json FILE > /dev/null` (format detection, the validation
#    pass, the replay, every line formatted and written) beside `replay-throughput --no-count`
#    (the replay alone, no output). Five runs each; the medians and their ratio.
(cd "$root" && $swift build -c release --product gesturekit >/dev/null)
for f in touch-50mb.yml touch-50mb.evemu; do
  cli=(); pipe=()
  for i in 1 2 3 4 5; do
    s0=$(date +%s.%N); "$root/.build/release/gesturekit" replay --json "$traces/$f" > /dev/null; s1=$(date +%s.%N)
    cli+=("$(python3 -c "print($s1 - $s0)")")
    s0=$(date +%s.%N); .build/release/replay-throughput --no-count "$traces/$f" > /dev/null; s1=$(date +%s.%N)
    pipe+=("$(python3 -c "print($s1 - $s0)")")
  done
  python3 - "$f" "${cli[@]}" "${pipe[@]}" <<'PY' | tee "$out/cli-$f.txt"
import statistics, sys
name, times = sys.argv[1], list(map(float, sys.argv[2:]))
cli, pipe = statistics.median(times[:5]), statistics.median(times[5:])
print(f"{name}: gesturekit replay --json (whole process, output to /dev/null) {cli:.3f} s; "
      f"replay-throughput --no-count {pipe:.3f} s; ratio {cli / pipe:.2f} (target <= 1.5)")
PY
done
echo "results in $out"
