# Sourced by scripts/test-debian13.sh and scripts/check-fresh-demo.sh: what both need to run
# GestureKit inside a Debian root made with debootstrap, with this machine's Swift toolchain.
#
# Before sourcing, the script defines `say` (its messages) and, before calling the functions
# below, ROOT (the root's directory). Sourcing it finds:
#   toolchain       the Swift toolchain's root (of SWIFT, default the swift on PATH), bound at
#                   /opt/swift in the root, read-only;
#   package_mirror  a local mirror of Swift packages that git reaches through
#                   url.<dir>.insteadOf rules of the system git config (empty without one),
#                   bound at the same path, read-only; `write_root_gitconfig` gives the root
#                   the same rules, so SwiftPM inside resolves as it does here.

swift_bin=$(command -v "${SWIFT:-swift}") || { say "no swift on PATH"; exit 2; }
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")   # …/usr/bin/swift → …
[ -x "$toolchain/usr/bin/swift" ] || { say "cannot find the toolchain root of $swift_bin (looked at $toolchain)"; exit 2; }

package_mirror=""
rules=$(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true)
if [ -n "$rules" ]; then
    package_mirror=$(printf '%s\n' "$rules" | head -n1 | sed -E 's/^url\.(.*)\.insteadof .*/\1/')
    package_mirror=${package_mirror%/}
    [ -d "$package_mirror" ] || package_mirror=""
fi

write_root_gitconfig() {   # the mirror's insteadOf rules, for git inside the root
    [ -n "$package_mirror" ] || return 0
    {
        printf '[url "%s/"]\n' "$package_mirror"
        printf '%s\n' "$rules" | sed -E 's/^url\..*\.insteadof (.*)$/\tinsteadOf = \1/'
    } > "$ROOT/etc/gitconfig"
}

in_root() {   # runs a command in the root, in a clean environment, from the package directory
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
        PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c "cd /src/gesturekit 2>/dev/null || cd /root; $1"
}

mounts=()
stop_root_processes() {   # every process whose root is the root: TERM, then KILL
    local pid root_of
    for pid in $(ls /proc | grep -E '^[0-9]+$'); do
        root_of=$(readlink "/proc/$pid/root" 2>/dev/null) || continue
        [ "$root_of" = "$ROOT" ] && kill -TERM "$pid" 2>/dev/null || true
    done
    sleep 1
    for pid in $(ls /proc | grep -E '^[0-9]+$'); do
        root_of=$(readlink "/proc/$pid/root" 2>/dev/null) || continue
        [ "$root_of" = "$ROOT" ] && kill -KILL "$pid" 2>/dev/null || true
    done
}
unmount_all() {   # a session left running keeps /dev busy: its processes are stopped first
    stop_root_processes
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[$i]}" 2>/dev/null || { say "${mounts[$i]} is busy: unmounting it lazily"; umount -l "${mounts[$i]}" || true; }
    done
    mounts=()
}
mount_at() {   # mount_at TARGET ARGS…
    local target=$1; shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounts+=("$target")
}
mount_all() {
    mount_at "$ROOT/proc" -t proc proc
    mount_at "$ROOT/sys" -t sysfs sysfs
    mount_at "$ROOT/dev" --bind /dev
    mount_at "$ROOT/dev/pts" --bind /dev/pts
    # sway (wlroots 0.18) allocates its buffers in /dev/shm: a plain bind of /dev leaves it
    # out, so it gets a tmpfs of its own.
    mount_at "$ROOT/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev shm
    mount_at "$ROOT/opt/swift" --bind "$toolchain"
    mount -o remount,bind,ro "$ROOT/opt/swift"
    if [ -n "$package_mirror" ]; then
        mount_at "$ROOT$package_mirror" --bind "$package_mirror"
        mount -o remount,bind,ro "$ROOT$package_mirror"
    fi
}
