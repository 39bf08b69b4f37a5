#!/bin/sh
# Builds the DocC documentation of every library module into static HTML (out/docs/site),
# with warnings as errors, after regenerating the state-machine diagrams from the code
# (docs/diagrams/*.dot and the catalog's SVGs). Open out/docs/site/documentation/gesturekit/
# through a web server, or the screenshot at docs/docs-getting-started.png.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
command -v dot >/dev/null || scripts/install-deps.sh graphviz
$SWIFT build --product gesturekit
.build/debug/gesturekit diagrams --dot docs/diagrams --svg Sources/GestureKit/GestureKit.docc/Resources
mkdir -p out/docs
rm -rf out/docs/site
targets=""
for t in GestureKit GestureLayout GestureTraces GestureReplay GestureTesting GestureTestingTraces GestureRecording GesturePicture GestureInput GestureLibinput GestureLive GestureMockDevice GestureDrive GestureWayland GestureGTK GestureSDL; do
    targets="$targets --target $t"
done
# shellcheck disable=SC2086
$SWIFT package --allow-writing-to-directory out/docs generate-documentation $targets \
    --enable-experimental-combined-documentation --warnings-as-errors \
    --transform-for-static-hosting --output-path out/docs/site
echo "documentation: out/docs/site (serve it: python3 -m http.server -d out/docs/site, then /documentation/gesturekit)"
