#!/usr/bin/env bash
# Regenerates the Wayland protocol code in Sources/CWaylandProtocols from Debian's
# wayland-protocols (1.31 when this was committed) with wayland-scanner (1.21):
#   xdg-shell (stable): a toplevel window for a surface;
#   pointer-gestures-unstable-v1: touchpad pinch, swipe and hold;
#   tablet-unstable-v2: pens (tablet tools) through the compositor;
#   viewporter (stable) and fractional-scale-v1 (staging): a window drawn at a fractional scale;
#   xdg-output-unstable-v1: an output's size in points (its fractional scale).
# Run from the package root: scripts/generate-wayland-protocols.sh
set -euo pipefail
protocols=${WAYLAND_PROTOCOLS_DIR:-$(pkg-config --variable=pkgdatadir wayland-protocols 2>/dev/null || echo /usr/share/wayland-protocols)}
out=Sources/CWaylandProtocols
for xml in "$protocols/stable/xdg-shell/xdg-shell.xml" \
           "$protocols/unstable/pointer-gestures/pointer-gestures-unstable-v1.xml" \
           "$protocols/unstable/tablet/tablet-unstable-v2.xml" \
           "$protocols/stable/viewporter/viewporter.xml" \
           "$protocols/staging/fractional-scale/fractional-scale-v1.xml" \
           "$protocols/unstable/xdg-output/xdg-output-unstable-v1.xml"; do
  name=$(basename "$xml" .xml)
  wayland-scanner client-header "$xml" "$out/include/$name-client-protocol.h"
  wayland-scanner private-code "$xml" "$out/$name-protocol.c"
done
