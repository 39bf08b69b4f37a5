#!/usr/bin/env bash
# Installs the Debian packages a part of GestureKit needs, only those that are missing (on Debian
# 12 and 13, and Ubuntu: the package names are the same). Each make target asks for its own part:
#
#   scripts/install-deps.sh            everything: make test, make build (every product and test)
#   scripts/install-deps.sh build      what `swift build --build-tests` compiles and links against
#                                      (make test installs the rest while it builds)
#   scripts/install-deps.sh demo       make demo: the gesturekit tool and rsvg-convert
#   scripts/install-deps.sh tool       the gesturekit tool alone (make install builds it too)
#   scripts/install-deps.sh photowall  make photowall: the tool's libraries and SDL2
#   scripts/install-deps.sh docs       make docs: every library module's headers and Graphviz
#   scripts/install-deps.sh soak       make soak: the tool, umockdev and sway
#   scripts/install-deps.sh drive      gesturekit drive: the tool, umockdev, sway, grim, a session bus
#   scripts/install-deps.sh PKG ...    those Debian packages
#
# What each package is for:
#   libinput-dev libevdev-dev libudev-dev pkg-config: the libinput wrapper (system libraries)
#   zlib1g-dev: zlib, with which gesturekit drive reads and writes PNG pictures (its compare step)
#   libseat-dev: devices opened through the seat (seatd, logind) instead of the input group
#   libwayland-dev libxkbcommon-dev: GestureWayland (the compositor's input, its keyboard's
#     modifiers); the gesturekit tool links it and the libinput wrapper
#   librsvg2-bin: rsvg-convert, to turn replay pictures (SVG) into PNG
#   umockdev: real libinput on recorded devices, with no hardware (tests, --backend libinput)
#   sway grim wev wayland-protocols seatd: desktop sessions (GestureWayland's tests against a
#     headless sway compositor fed by umockdev)
#   graphviz: dot, to draw the recognizers' state machines for the documentation (make docs)
#   libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core: the PhotoWall example
#     (text in DejaVu Sans, PNG frames)
#   libgl1-mesa-dri: OpenGL on the CPU (Mesa's llvmpipe), through which SDL2 presents the
#     PhotoWall window at the output's scale (its software renderer has one pixel a point)
#   g++: the C++ standard library libFuzzer links with (make fuzz, and the fuzz run of make test)
#   weston, kwin-wayland: second and third compositors, nested in the headless sway, for the
#     tests of their protocol behaviour (weston's touch frames, KWin's wheel)
#   libgtk-4-dev: GestureGTK (GestureKit inside a GTK 4 widget) and its tool gesturekit-gtk
#   xvfb xauth xdotool: GTK's X11 path in the tests (a window on Xvfb, clicks through XTest;
#     xvfb-run needs xauth, which a minimal Debian lacks)
#   dbus-daemon: dbus-run-session, the session bus gesturekit drive gives the app it runs
#   eog: a GTK 3 app nobody here wrote (Debian's image viewer), driven by the tests of
#     gesturekit drive (GestureDriveTests: a pinch zooms its picture)
#   gnome-calculator: a GTK 4 app nobody here wrote, its buttons found and its display read
#     over AT-SPI by the tests of gesturekit drive
#   at-spi2-core python3-gi gir1.2-atspi-2.0: the accessibility bus an app exports its tree
#     on, and AT-SPI's client library as gesturekit drive reads it (Debian's python3)
#   qml-qt6 qml6-module-qtquick qml6-module-qtquick-window qml6-module-qtqml-workerscript
#     qt6-wayland: a Qt 6 Quick scene run
#     by Qt's own `qml` tool, pinched by the tests of gesturekit drive
#   chromium: a touch page pinched in a browser on Wayland, by the tests of gesturekit drive
#   valgrind (asked for by make bench-gtk-cost alone: scripts/install-deps.sh valgrind): callgrind,
#     which counts GestureGTK's and GTK's instructions per input frame
#   libsdl3-dev (optional: only where the package lists have it, Debian 13 but not 12; never a
#     reason to update them): GestureSDL3 (Packages/GestureSDL3)
set -euo pipefail
tool=(pkg-config libinput-dev libevdev-dev libudev-dev libseat-dev libwayland-dev libxkbcommon-dev zlib1g-dev)
sdl2=(libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core libgl1-mesa-dri)
packages=("${tool[@]}" umockdev librsvg2-bin graphviz "${sdl2[@]}"
          sway grim wev wayland-protocols seatd g++ weston kwin-wayland
          libgtk-4-dev xvfb xauth xdotool dbus-daemon eog gnome-calculator
          at-spi2-core python3-gi gir1.2-atspi-2.0
          qml-qt6 qml6-module-qtquick qml6-module-qtquick-window qml6-module-qtqml-workerscript qt6-wayland chromium)
optional=(libsdl3-dev)
case "${1:-}" in
    "") ;;
    build) packages=("${tool[@]}" libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libgtk-4-dev); optional=() ;;
    demo) packages=("${tool[@]}" librsvg2-bin); optional=() ;;
    tool) packages=("${tool[@]}"); optional=() ;;
    photowall) packages=("${tool[@]}" "${sdl2[@]}"); optional=() ;;
    docs) packages=("${tool[@]}" "${sdl2[@]}" libgtk-4-dev graphviz); optional=() ;;
    soak) packages=("${tool[@]}" umockdev sway seatd); optional=() ;;
    drive) packages=("${tool[@]}" umockdev sway grim seatd dbus-daemon util-linux gcc
                     at-spi2-core python3-gi gir1.2-atspi-2.0); optional=() ;;
    *) packages=("$@"); optional=() ;;
esac
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
has_candidate() { [ -n "$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ]; }
missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
for p in "${optional[@]}"; do
  installed "$p" || ! has_candidate "$p" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# The same names serve Debian 12 and 13 and Ubuntu 22.04 and 24.04; a package this
# distribution does not have is named and left out, and what needs it
# says so when it runs.
available=()
unavailable=()
for p in "${missing[@]}"; do
  if has_candidate "$p"; then
    available+=("$p")
  else
    unavailable+=("$p")
  fi
done
# An optional package these fresh lists have.
for p in "${optional[@]}"; do
  installed "$p" || ! has_candidate "$p" || [[ " ${available[*]} " == *" $p "* ]] || available+=("$p")
done
[ ${#unavailable[@]} -gt 0 ] && echo "not found in this system's package lists, left out: ${unavailable[*]}" >&2
[ ${#available[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${available[*]}" >&2
$sudo apt-get install -y -qq --no-install-recommends "${available[@]}" >/dev/null
