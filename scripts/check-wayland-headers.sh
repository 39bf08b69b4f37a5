#!/usr/bin/env bash
# Type-checks GestureWayland (the only module touching libwayland-client) against the
# libwayland-client headers of other Debian suites, without installing them: each suite's
# libwayland-dev is downloaded with apt into a cache outside the clone, unpacked, and put first
# on the C include path; the rest of the package (its modules, libinput's headers) is this
# machine's own build. A header that adds or drops a listener field breaks code that fills a C
# struct with Swift's all-fields initializer; this is where that shows.
#   scripts/check-wayland-headers.sh [SUITE…]     (default: trixie and sid: 1.23, and Debian's newest)
# Run by make test, after the build (this machine's own headers are the build's). The oldest libwayland the package supports is 1.20: the committed
# protocol code (wayland-scanner 1.21) calls wl_proxy_marshal_flags, new in 1.20.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
if [ "$(id -u)" -eq 0 ]; then default_cache=/var/cache/gesturekit/wayland-headers
else default_cache=${XDG_CACHE_HOME:-$HOME/.cache}/gesturekit/wayland-headers; fi
CACHE=${WAYLAND_HEADERS_CACHE:-$default_cache}
MIRROR_URL=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(trixie sid)
say() { printf 'check-wayland-headers: %s\n' "$*" >&2; }

"$SWIFT" build --target GestureWayland >/dev/null || { say "the package does not build here"; exit 1; }
bin=$("$SWIFT" build --show-bin-path)
numerics_map=$(find .build/checkouts/swift-numerics -path '*_NumericsShims/include/module.modulemap' | head -n1)
flags=()
# GestureWayland imports GestureKit, GestureInput (the live loop: CLinuxEventFD), libwayland and
# xkbcommon (this machine's: only libwayland's headers are the other suite's).
for m in Sources/CWaylandClient Sources/CLinuxEventFD Sources/CXKBCommon; do
    flags+=(-Xcc "-fmodule-map-file=$m/module.modulemap")
done
# GestureWayland uses GestureInput's package-level API: it is type-checked as part of the package,
# with the package name SwiftPM gave the modules (the checkout's directory name).
package=$(grep '"-module-name","GestureWayland"' .build/debug.yaml | head -1 \
    | sed -n 's/.*"-package-name","\([^"]*\)".*/\1/p')
[ -n "$package" ] || { say "cannot find the package name in .build/debug.yaml"; exit 1; }
flags+=(-package-name "$package")
flags+=(-Xcc "-fmodule-map-file=$bin/CWaylandProtocols.build/module.modulemap" -Xcc "-fmodule-map-file=$numerics_map"
        -Xcc -ISources/CWaylandProtocols/include)

failed=0
for suite in "${suites[@]}"; do
    dir="$CACHE/$suite"
    mkdir -p "$dir/lists/partial" "$dir/deb"
    # A mirror that serves a snapshot of the archive has Release files past their Valid-Until
    # date; for headers to type-check against (nothing is installed) that does not matter.
    apt_options=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
                 -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o APT::Sandbox::User=root
                 -o Acquire::Check-Valid-Until=false)
    echo "deb $MIRROR_URL $suite main" > "$dir/sources.list"
    mkdir -p "$dir/cache/archives/partial"
    apt-get "${apt_options[@]}" update -qq >/dev/null 2>&1 || { say "$suite: apt could not read $MIRROR_URL"; failed=1; continue; }
    version=$(apt-cache "${apt_options[@]}" madison libwayland-dev | awk -v s="$suite" '$0 ~ s {print $3; exit}')
    [ -n "$version" ] || { say "$suite: no libwayland-dev"; failed=1; continue; }
    if [ ! -d "$dir/root-$version" ]; then
        rm -f "$dir"/deb/*.deb
        (cd "$dir/deb" && apt-get "${apt_options[@]}" download "libwayland-dev=$version" >/dev/null 2>&1) \
            || { say "$suite: could not download libwayland-dev $version"; failed=1; continue; }
        dpkg-deb -x "$dir"/deb/*.deb "$dir/root-$version"
    fi
    if out=$(swiftc -typecheck -module-name GestureWayland Sources/GestureWayland/*.swift -I "$bin/Modules" \
                 -module-cache-path "$dir/module-cache" -Xcc "-I$dir/root-$version/usr/include" "${flags[@]}" 2>&1); then
        echo "GestureWayland type-checks against libwayland-client $version (Debian $suite)"
    else
        echo "GestureWayland does NOT type-check against libwayland-client $version (Debian $suite):"
        printf '%s\n' "$out" | grep -E 'error' | head -n 10
        failed=1
    fi
done
exit "$failed"
