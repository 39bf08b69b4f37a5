#!/usr/bin/env bash
# make bench-drive-overhead: what one `gesturekit drive` test costs beside its app: RUNS sessions
# (10) of a trivial app (gesturekit's own `listen --wayland` window, which maps at once), each
# started, screenshot once and stopped, and the medians of drive's own phase times ("started
# in", "stopped in"): sway and its devices, the app's window, the screen settled, the teardown.
set -euo pipefail
SWIFT=${SWIFT:-swift}
RUNS=${RUNS:-10}
"$SWIFT" build --product gesturekit >/dev/null
bin=$("$SWIFT" build --show-bin-path)/gesturekit
dir=$(mktemp -d /tmp/gesturekit-drive-overhead-XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
cp "$bin" "$dir/gesturekit"   # where the session's user can run it
log="$dir/runs.txt"
for i in $(seq "$RUNS"); do
    "$dir/gesturekit" drive --output 800x600 --step "screenshot $dir/shot.png" \
        -- "$dir/gesturekit" listen --wayland --duration 60 >> "$log" 2>&1 || { cat "$log"; exit 1; }
done
median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
field() { sed -n "s/^drive: started in .*$1 \([0-9.]*\) s.*/\1/p" "$log"; }
total=$(sed -n 's/^drive: started in \([0-9.]*\) s:.*/\1/p' "$log" | median)
devices=$(field "sway and its devices" | median)
window=$(field "the app's window" | median)
settled=$(field "settled" | median)
stop=$(sed -n 's/^drive: stopped in \([0-9.]*\) s/\1/p' "$log" | median)
echo "gesturekit drive, $RUNS sessions of gesturekit listen --wayland (800 x 600), medians:"
echo "  start $total s: sway and its devices $devices s, the app's window $window s, settled $settled s"
echo "  stop $stop s"
