#!/usr/bin/env bash
# make check-fresh-demo: proves the README's first command, `make demo`, on a brand-new Debian 12
# (bookworm) machine that has nothing but Swift, and measures it.
#
# What it does and checks:
#   1. Makes a new Debian 12 minbase root with debootstrap in a temporary directory under /var/tmp
#      (debootstrap is installed through scripts/install-deps.sh if missing). Its APT sources are a
#      real install's: bookworm, bookworm-updates and bookworm-security.
#   2. Installs in it only what this machine's Swift toolchain needs to run and link there (the
#      list below: each package was added because an error said it was missing), then empties
#      APT's package lists and cache, as on a fresh machine or container image: the demo's
#      `apt-get update` starts from nothing.
#   3. Binds this machine's Swift toolchain at /opt/swift (read-only) and, where git here reads
#      github.com from a local mirror of Swift packages (url.<dir>.insteadOf in the system git
#      config), that mirror at the same path (read-only) with the same rules.
#   4. Copies a clean `git clone` of the repository's committed HEAD (not the work tree:
#      uncommitted changes are left out) to /src/gesturekit in the root.
#   5. Runs `make demo` there, holding a build lock (flock on GESTUREKIT_BUILD_LOCK, so that no
#      other build that takes the same lock runs during the timed part; the clock starts once it is
#      held), and times its parts from the time each line of its output appeared:
#        - packages: scripts/install-deps.sh demo (apt-get update, then the install)
#        - build: `swift run gesturekit` up to "Build of product 'gesturekit' complete!"
#          (resolving the Swift packages from the mirror, then compiling)
#        - replay: the gesturekit replay itself, up to rsvg-convert
#        - PNG: rsvg-convert
#   6. Checks that out/replay.png exists and is a PNG; prints the times and the Debian packages
#      that `make demo` installed (dpkg's list before and after).
#   7. Removes the root (every process in it stopped and every mount undone first), also on failure
#      or Ctrl-C. What to keep goes to $OUT/fresh-demo/ (default out/fresh-demo): result.txt,
#      demo.log (make demo's output, each line with its time), debootstrap.log, replay.svg and
#      replay.png.
#
# How long it takes (2 cores; two runs on 2026-11-27, at 80c06cd and 42622c6):
#   debootstrap 29-35 s (88 packages); the toolchain's packages 12-33 s (57 more);
#   `make demo` 59-67 s in all: its packages 15-17 s (apt-get update from empty lists 2-3 s, then
#   101 packages), the build 44-50 s (resolving the Swift packages from the local mirror 7-8 s,
#   compiling the tool 37-41 s), the replay 0.1 s, rsvg-convert 0.1 s;
#   removing the root about 55 s (this machine's disk is mounted with discard: deleting is slow);
#   the whole script about 2 min 45 s, plus any wait for the build lock (minutes while a test run
#   holds it).
#
# Needs root (debootstrap, mount, chroot) and the network to reach Debian's mirror. Exit status:
# make demo's if it failed, 1 if out/replay.png is missing or not a PNG, else 0.
#
# Settings (environment): SWIFT (the swift whose toolchain is bound in; default the one on PATH),
# OUT (default out), FRESH_DEMO_MIRROR (default http://deb.debian.org/debian),
# FRESH_DEMO_SECURITY_MIRROR (default http://deb.debian.org/debian-security),
# GESTUREKIT_BUILD_LOCK (default /tmp/gesturekit-build.lock).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
OUT=${OUT:-out}
MIRROR_URL=${FRESH_DEMO_MIRROR:-http://deb.debian.org/debian}
SECURITY_URL=${FRESH_DEMO_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
LOCK=${GESTUREKIT_BUILD_LOCK:-/tmp/gesturekit-build.lock}

say() { printf 'check-fresh-demo: %s\n' "$*" >&2; }
diff_s() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }   # seconds from $1 to $2
[ "$(id -u)" -eq 0 ] || { say "needs root (debootstrap, mount and chroot); run it as root or with sudo"; exit 2; }

command -v flock >/dev/null || { say "no flock (util-linux)"; exit 2; }

. scripts/debian-root.sh
toolchain_packages=("${bookworm_toolchain_packages[@]}")   # scripts/debian-root.sh says why each

script_start=$EPOCHREALTIME
results="$top/$OUT/fresh-demo"
mkdir -p "$results"
rm -f "$results"/{result.txt,demo.log,debootstrap.log,replay.svg,replay.png}
command -v debootstrap >/dev/null || scripts/install-deps.sh debootstrap
ROOT=$(mktemp -d /var/tmp/gesturekit-fresh-demo.XXXXXX)
chmod 755 "$ROOT"   # a machine's / is 755; mktemp's 700 would keep apt's _apt user out of it

remove_root() {
    local t=$EPOCHREALTIME
    remove_root_tree || return
    local note="removing the root: $(diff_s "$t" "$EPOCHREALTIME") s; the whole script: $(diff_s "$script_start" "$EPOCHREALTIME") s"
    say "$note"
    [ ! -f "$results/result.txt" ] || echo "$note" >> "$results/result.txt"
}
trap remove_root EXIT
trap 'exit 130' INT TERM


say "making a Debian 12 minbase root in $ROOT"
t=$EPOCHREALTIME
make_bookworm_root "$MIRROR_URL" "$SECURITY_URL" "$results/debootstrap.log" || exit 1
debootstrap_s=$(diff_s "$t" "$EPOCHREALTIME")
minbase_count=$(chroot "$ROOT" dpkg-query -W -f='${Status}\n' | grep -c 'install ok installed')

mount_all

say "installing what the Swift toolchain needs: ${toolchain_packages[*]}"
t=$EPOCHREALTIME
install_root_toolchain_packages || exit 1
toolchain_s=$(diff_s "$t" "$EPOCHREALTIME")

# The committed HEAD, cloned: what a person who clones the repository gets.
head=$(git -C "$top" rev-parse HEAD)
git clone --quiet --no-hardlinks "$top" "$ROOT/src/gesturekit"
git -C "$ROOT/src/gesturekit" checkout --quiet --detach "$head"

chroot "$ROOT" dpkg-query -W -f='${Status} ${Package}\n' | awk '/install ok installed/ { print $4 }' | sort > "$ROOT/root/packages-before"
before_count=$(wc -l < "$ROOT/root/packages-before")

# The timed part, run inside the root once the build lock is held: make demo, each output line with
# the time it appeared.
cat > "$ROOT/root/timed-demo.sh" <<'EOF'
cd /src/gesturekit
start=$EPOCHREALTIME
make demo 2>&1 | while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; printf '%s\n' "$line" >&2; done > /root/demo.log
status=${PIPESTATUS[0]}
echo "$start $EPOCHREALTIME $status" > /root/demo.times
exit "$status"
EOF
say "running make demo in the root (waiting for $LOCK first if another build holds it)"
lock_asked=$EPOCHREALTIME
status=0
flock "$LOCK" chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
    PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash /root/timed-demo.sh || status=$?

read -r demo_start demo_end demo_status < "$ROOT/root/demo.times" || { say "make demo did not run"; exit 1; }
cp "$ROOT/root/demo.log" "$results/demo.log"
chroot "$ROOT" dpkg-query -W -f='${Status} ${Package}\n' | awk '/install ok installed/ { print $4 }' | sort > "$ROOT/root/packages-after"
after_count=$(wc -l < "$ROOT/root/packages-after")
new_packages=$(comm -13 "$ROOT/root/packages-before" "$ROOT/root/packages-after" | tr '\n' ' ')

# The parts of make demo, from the time of the first line that marks each boundary.
first_time() { awk -v re="$1" '{ t = $1; sub(/^[^ ]+ /, ""); if ($0 ~ re) { print t; exit } }' "$results/demo.log"; }
t_installing=$(first_time '^installing Debian packages')
t_swift=$(first_time '^[^ ]*swift run gesturekit ')
t_building=$(first_time '^Building for ')
t_built=$(first_time "^Build (of product 'gesturekit' )?complete")
t_rsvg=$(first_time '^rsvg-convert ')
part() { if [ -n "$1" ] && [ -n "$2" ]; then echo "$(diff_s "$1" "$2") s"; else echo "(not reached)"; fi; }

png="$ROOT/src/gesturekit/out/replay.png"
png_ok=no
if [ -f "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    png_ok=yes
    size=$(head -c 24 "$png" | tail -c 8 | od -An -tu1 | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
    cp "$png" "$results/replay.png"
    png_note="yes, a PNG of ${size} pixels, $(stat -c %s "$png") bytes"
elif [ -f "$png" ]; then
    png_note="no: out/replay.png is there but is not a PNG"
else
    png_note="no: there is no out/replay.png"
fi
cp "$ROOT/src/gesturekit/out/replay.svg" "$results/replay.svg" 2>/dev/null || true

{
    echo "make check-fresh-demo, $(date -u '+%Y-%m-%d %H:%M UTC'), commit ${head:0:7}, Debian $(cat "$ROOT/etc/debian_version") minbase, $(in_root 'swift --version 2>/dev/null | head -n1')"
    echo "make demo: exit $demo_status; out/replay.png made: $png_note"
    echo "debootstrap: $debootstrap_s s ($minbase_count packages)"
    echo "the toolchain's packages: $toolchain_s s (${toolchain_packages[*]})"
    echo "wait for the build lock: $(diff_s "$lock_asked" "$demo_start") s"
    echo "make demo, in all: $(diff_s "$demo_start" "$demo_end") s"
    if [ -n "$t_installing" ]; then
        echo "  packages (scripts/install-deps.sh demo): $(part "$demo_start" "$t_swift") (apt-get update $(part "$demo_start" "$t_installing"), the install $(part "$t_installing" "$t_swift"))"
    else
        echo "  packages (scripts/install-deps.sh demo): $(part "$demo_start" "$t_swift")"
    fi
    echo "  build (swift run's build of gesturekit): $(part "$t_swift" "$t_built") (resolving the Swift packages $(part "$t_swift" "$t_building"), compiling $(part "$t_building" "$t_built"))"
    echo "  replay (gesturekit replay --svg): $(part "$t_built" "$t_rsvg")"
    echo "  PNG (rsvg-convert): $(part "$t_rsvg" "$demo_end")"
    echo "the script until now (the root is removed next): $(diff_s "$script_start" "$EPOCHREALTIME") s"
    echo "Debian packages: $minbase_count after debootstrap, $before_count before make demo, $after_count after: make demo installed $((after_count - before_count))"
    echo "installed by make demo: $new_packages"
} | tee "$results/result.txt"

[ "$status" -eq 0 ] || { say "make demo failed (exit $status); its output: $results/demo.log"; exit "$status"; }
[ "$png_ok" = yes ] || { say "out/replay.png was not made"; exit 1; }
say "passed; results in $results"
