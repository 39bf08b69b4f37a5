# Sourced by scripts/test-debian13.sh, scripts/check-fresh-demo.sh and scripts/check-fresh-test.sh:
# what they need to run GestureKit inside a Debian root made with debootstrap, with this machine's
# Swift toolchain.
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

# What the Swift toolchain needs inside a bookworm minbase root, each found missing by the error it
# gave (swift --version, ldd on the toolchain's programs, then a build of a small package with a C
# target and Foundation, then make demo):
#   libncurses6 libsqlite3-0: swift-driver, swift-package, swift-build-tool ("error while loading
#     shared libraries: libncurses.so.6", then libsqlite3.so.0)
#   libcurl4 libxml2: swift-package (libcurl.so.4, libxml2.so.2: `swift run` is swift-package)
#   binutils: the linker (clang: "posix_spawn failed: No such file or directory" for ld; the
#     toolchain links with ld.gold)
#   libc6-dev: the C library's headers and crt files ("libc not found for
#     'x86_64-unknown-linux-gnu'"), with the kernel's headers (linux-libc-dev)
#   libgcc-12-dev: crtbeginS.o, crtendS.o, -lgcc, -lgcc_s (ld.gold: "cannot open crtbeginS.o")
#   git: SwiftPM clones the package's dependencies with it
#   make: the README's commands are make targets
# Not needed: libedit2 (only lldb and the REPL), libpython3 (lldb), gcc (the toolchain's clang
# compiles the C targets), libstdc++-12-dev (no C++ in the tool). ca-certificates is added only when
# there is no local package mirror (SwiftPM then clones from github.com over https).
bookworm_toolchain_packages=(libncurses6 libsqlite3-0 libcurl4 libxml2 binutils libc6-dev libgcc-12-dev git make)
[ -n "$package_mirror" ] || bookworm_toolchain_packages+=(ca-certificates)

make_bookworm_root() {   # make_bookworm_root MIRROR SECURITY_MIRROR LOG: a new minbase root at $ROOT
    local mirror=$1 security=$2 log=$3
    [ -n "${ROOT:-}" ] && [ "$ROOT" != / ] || { say "make_bookworm_root: ROOT is not set"; return 1; }
    command -v debootstrap >/dev/null || scripts/install-deps.sh debootstrap
    debootstrap --variant=minbase bookworm "$ROOT" "$mirror" >"$log" 2>&1 || {
        say "debootstrap failed; its log: $log"; tail -n 20 "$log" >&2; return 1; }
    # A real Debian 12 install's sources; no services start in the root.
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
        "$mirror" "$mirror" "$security" > "$ROOT/etc/apt/sources.list"
    printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
    chmod +x "$ROOT/usr/sbin/policy-rc.d"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
    write_root_gitconfig
}

install_root_toolchain_packages() {   # what the toolchain needs, then APT's lists and cache emptied
    in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${bookworm_toolchain_packages[*]} >/dev/null" \
        || { say "installing the toolchain's packages failed"; return 1; }
    in_root "apt-get clean && rm -rf /var/lib/apt/lists/*"
    in_root "swift --version" >/dev/null 2>&1 || { say "swift does not run in the root:"; in_root "swift --version" >&2 || true; return 1; }
}

remove_root_tree() {   # unmounts everything, then removes $ROOT (never while something is mounted in it)
    unmount_all
    if awk -v r="$ROOT" '$2 == r || index($2, r "/") == 1 { found = 1 } END { exit !found }' /proc/mounts; then
        say "something is still mounted under $ROOT; left it in place (umount it, then rm -rf it)"
        return 1
    fi
    rm -rf --one-file-system "$ROOT"
}
