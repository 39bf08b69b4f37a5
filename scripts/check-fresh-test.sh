#!/usr/bin/env bash
# make check-fresh-test: CI's run (`CI=true bash .ci/run`, which is `make test`) on a brand-new
# Debian 12 machine that has nothing but Swift, FRESH_RUNS times (3) in a row, each from a new clean
# clone of the committed HEAD. It answers "does a fresh clone's suite pass, again and again, and
# how long does it take?" as CI would.
#
#   1. A new Debian 12 minbase root (debootstrap) in a temporary directory under /var/tmp, with only
#      what this machine's Swift toolchain needs (scripts/debian-root.sh says why each package),
#      APT's lists emptied: the first run installs every package the suite uses, from nothing, as a
#      fresh CI machine does (scripts/install-deps.sh). This machine's toolchain is bound in
#      read-only, and the local mirror of Swift packages where git reads one.
#   2. Each run: `git clone` of HEAD into the root (the previous run's clone removed), then
#      `CI=true bash .ci/run` inside it, holding the build lock (GESTUREKIT_BUILD_LOCK) so that no
#      other build that takes it runs meanwhile; its log, each line with its time, in
#      $OUT/fresh-test/run-N.log.
#   3. $OUT/fresh-test/result.txt: each run's exit status and time, the test summary lines, and the
#      failures; then the root is removed (every process in it stopped, every mount undone), also on
#      failure or Ctrl-C.
#
# Needs root and the network to reach Debian's mirror. Exit status: 0 when every run passed, 1
# otherwise. Settings: FRESH_RUNS (3), SWIFT, OUT (out), FRESH_DEMO_MIRROR and
# FRESH_DEMO_SECURITY_MIRROR (Debian's mirrors, as check-fresh-demo.sh), GESTUREKIT_BUILD_LOCK
# (/tmp/gesturekit-build.lock).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
OUT=${OUT:-out}
RUNS=${FRESH_RUNS:-3}
MIRROR_URL=${FRESH_DEMO_MIRROR:-http://deb.debian.org/debian}
SECURITY_URL=${FRESH_DEMO_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
LOCK=${GESTUREKIT_BUILD_LOCK:-/tmp/gesturekit-build.lock}

say() { printf 'check-fresh-test: %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (debootstrap, mount and chroot); run it as root or with sudo"; exit 2; }
command -v flock >/dev/null || { say "no flock (util-linux)"; exit 2; }

. scripts/debian-root.sh

case "$OUT" in /*) results="$OUT/fresh-test" ;; *) results="$top/$OUT/fresh-test" ;; esac
rm -rf "$results"
mkdir -p "$results"
ROOT=$(mktemp -d /var/tmp/gesturekit-fresh-test.XXXXXX)
chmod 755 "$ROOT"   # a machine's / is 755; mktemp's 700 would keep apt's _apt user out of it
trap 'remove_root_tree || true' EXIT
trap 'exit 130' INT TERM

say "making a Debian 12 minbase root in $ROOT"
make_bookworm_root "$MIRROR_URL" "$SECURITY_URL" "$results/debootstrap.log"
mount_all
say "installing what the Swift toolchain needs: ${bookworm_toolchain_packages[*]}"
install_root_toolchain_packages

head=$(git rev-parse HEAD)
{
    echo "make check-fresh-test, $(date -u '+%Y-%m-%d %H:%M UTC'), commit ${head:0:7}, Debian $(cat "$ROOT/etc/debian_version") minbase, $(in_root 'swift --version 2>/dev/null | head -n1')"
    echo "$RUNS runs of CI=true bash .ci/run, each from a new clone; the first installs every package"
} > "$results/result.txt"

failed=0
for ((run = 1; run <= RUNS; run++)); do
    rm -rf "$ROOT/src/gesturekit"
    git clone --quiet --no-hardlinks "$top" "$ROOT/src/gesturekit"
    git -C "$ROOT/src/gesturekit" checkout --quiet --detach "$head"
    log="$results/run-$run.log"
    say "run $run of $RUNS: CI=true bash .ci/run in a new clone (waiting for $LOCK first if another build holds it)"
    start=$(date +%s)
    status=0
    flock "$LOCK" chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI=true \
        PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c 'cd /src/gesturekit && bash .ci/run 2>&1 | while IFS= read -r line; do printf "%s %s\n" "$(date +%T)" "$line"; done; exit ${PIPESTATUS[0]}' \
        > "$log" 2>&1 || status=$?
    seconds=$(( $(date +%s) - start ))
    [ "$status" -eq 0 ] || failed=1
    {
        echo
        echo "run $run: exit $status, $((seconds / 60)) min $((seconds % 60)) s (packages, build, tests, fuzz, install check, docs)"
        grep -E 'Test run with [0-9]+ tests?' "$log" | sed 's/^[0-9:]* /  /' || true
        if [ "$status" -ne 0 ]; then
            echo "  what failed:"
            grep -E '✘|Fatal error|error:' "$log" | head -n 20 | sed 's/^[0-9:]* /    /' || true
        fi
    } | tee -a "$results/result.txt"
done
say "results in $results/result.txt"
exit "$failed"
