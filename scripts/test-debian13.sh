#!/usr/bin/env bash
# make test-debian13: builds GestureKit and runs its whole test command (`make test`) inside a
# Debian 13 (trixie) root, with trixie's libraries (libwayland 1.23, libinput 1.28, sway 1.10,
# umockdev 0.19, SDL2 2.32) and this machine's Swift toolchain bound in.
#
# The root is made once with debootstrap and kept outside the clone, in DEBIAN13_ROOT
# (default /var/cache/gesturekit/debian13); later runs reuse it, and its own .build keeps the
# package's build between runs. The work tree (tracked and untracked files, not ignored ones) is
# copied to /src/gesturekit inside it each run. Needs root (debootstrap, mount, chroot).
#
# DEBIAN13_COMMAND replaces `make test OUT=out` (after the dependencies are installed): one
# suite while chasing a difference, e.g. DEBIAN13_COMMAND='swift build --build-tests && swift test
# --skip-build --filter NaturalScrollingTests'.
#
# DEBIAN13_FILTER=PATTERN (make test-debian13 DEBIAN13_FILTER=PointerAgreementTests) builds the
# tests and runs only those `swift test --filter PATTERN` picks, logged to $OUT/debian13/test.log
# like the whole run; no fuzzing, install check or documentation.
#
# What it writes: $OUT/debian13/test.log (the whole log) and $OUT/debian13/result.txt (the
# versions inside, the exit code and the time each step took).
#
# Traps this script handles (every one seen when the root was first tried by hand):
#   - sway (wlroots 0.18) allocates its buffers in /dev/shm: a plain bind of /dev leaves it out,
#     so it gets a tmpfs of its own; without it no output is enabled and no client gets touches.
#   - umockdev 0.19 resolves a relative name in openat() against the working directory, so
#     everything runs from the package directory, never from / (libinput then drops the device).
#   - A session left running keeps /dev busy: before unmounting, every process whose root is the
#     chroot is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
OUT=${OUT:-out}
ROOT=${DEBIAN13_ROOT:-/var/cache/gesturekit/debian13}
MIRROR_URL=${DEBIAN13_MIRROR:-http://deb.debian.org/debian}
# What the Swift toolchain needs inside the root (each found missing by the error it gave):
# libncurses6, libcurl4t64, libxml2, libedit2 (swift's own libraries), libc6-dev (libc), binutils
# (ld), libgcc-14-dev (crtbeginS.o, -lgcc), git and ca-certificates (SwiftPM), make and gcc
# (make install in check-install.sh).
toolchain_packages=(libcurl4t64 libxml2 libedit2 libncurses6 libsqlite3-0 libstdc++6 git ca-certificates
                    libc6-dev binutils libgcc-14-dev make gcc)

say() { printf 'test-debian13: %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (debootstrap, mount and chroot); run it as root or with sudo"; exit 2; }

. scripts/debian-root.sh
trap unmount_all EXIT
trap 'exit 130' INT TERM

now() { date +%s; }
step_times=()
timed() {   # timed NAME COMMAND…: runs it and keeps how long it took
    local name=$1 start; shift
    start=$(now)
    "$@"
    step_times+=("$name: $(( $(now) - start )) s")
}

make_root() {
    say "making the Debian 13 root in $ROOT (once; later runs reuse it)"
    scripts/install-deps.sh debootstrap
    local partial="$ROOT.partial"
    rm -rf "$partial"
    mkdir -p "$(dirname "$ROOT")"
    debootstrap --variant=minbase trixie "$partial" "$MIRROR_URL" >"$(dirname "$ROOT")/debootstrap.log" 2>&1 || {
        say "debootstrap failed; its log: $(dirname "$ROOT")/debootstrap.log"; tail -n 20 "$(dirname "$ROOT")/debootstrap.log" >&2; exit 1; }
    printf '#!/bin/sh\nexit 101\n' > "$partial/usr/sbin/policy-rc.d"   # no services start in the root
    chmod +x "$partial/usr/sbin/policy-rc.d"
    mv "$partial" "$ROOT"
}

if [ ! -f "$ROOT/etc/debian_version" ]; then
    timed "debootstrap" make_root
fi
grep -q '^13' "$ROOT/etc/debian_version" || { say "$ROOT is not a Debian 13 root (debian_version $(cat "$ROOT/etc/debian_version"))"; exit 1; }

cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
write_root_gitconfig

mount_all

stamp="$ROOT/var/lib/gesturekit-toolchain-packages"
if [ "$(cat "$stamp" 2>/dev/null)" != "${toolchain_packages[*]}" ]; then
    say "installing what the Swift toolchain needs in the root"
    timed "toolchain packages" in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${toolchain_packages[*]} >/dev/null"
    echo "${toolchain_packages[*]}" > "$stamp"
fi

# The work tree, as it is now (uncommitted changes included), replaces the root's copy; the
# root's .build stays, so a second run builds only what changed.
dst="$ROOT/src/gesturekit"
mkdir -p "$dst"
find "$dst" -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} +
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -xf - -C "$dst"

mkdir -p "$OUT/debian13"
rm -f "$OUT/debian13/test.log" "$OUT/debian13/result.txt"
status=0
start=$(now)
command=${DEBIAN13_COMMAND:-make test OUT=out}
if [ -n "${DEBIAN13_FILTER:-}" ]; then
    [ -z "${DEBIAN13_COMMAND:-}" ] || { say "DEBIAN13_FILTER and DEBIAN13_COMMAND: give one"; exit 2; }
    filter=$(printf '%q' "$DEBIAN13_FILTER")
    command="mkdir -p out && swift build --build-tests && swift test --skip-build --filter $filter 2>&1 | tee out/test.log; exit \${PIPESTATUS[0]}"
fi
in_root "scripts/install-deps.sh && $command" || status=$?
step_times+=("${DEBIAN13_FILTER:+swift test --filter $DEBIAN13_FILTER (deps, build, tests)}${DEBIAN13_FILTER:-make test (deps, build, tests, install check, docs)}: $(( $(now) - start )) s")
cp "$dst/out/test.log" "$OUT/debian13/test.log" 2>/dev/null || true

versions=$(in_root 'for p in wayland-client wayland-protocols libinput libevdev libudev libseat sdl2 SDL2_ttf SDL2_image; do
    printf "%s %s\n" "$p" "$(pkg-config --modversion $p 2>/dev/null || echo missing)"; done
    printf "sway %s\n" "$(dpkg-query -W -f="\${Version}" sway 2>/dev/null)"
    printf "umockdev %s\n" "$(dpkg-query -W -f="\${Version}" umockdev 2>/dev/null)"
    printf "debian %s\n" "$(cat /etc/debian_version)"')
summary=$(grep -E '^(✔|✘|􀟈|􀢄)? ?Test run with [0-9]+ tests?' "$OUT/debian13/test.log" 2>/dev/null || true)
{
    echo "make test-debian13, $(date -u '+%Y-%m-%d %H:%M UTC'), exit $status"
    printf '%s\n' "$versions"
    printf '%s\n' "${step_times[@]}"
    printf '%s\n' "$summary"
} | tee "$OUT/debian13/result.txt"
exit "$status"
