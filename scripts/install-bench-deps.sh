#!/usr/bin/env bash
# Installs the Debian packages `make bench` needs, only those that are missing.
#   libinput-tools python3-libevdev python3-yaml: libinput's own analysis tool
#     (/usr/libexec/libinput/libinput-analyze-per-slot-delta), timed side by side with our
#     replay pipeline on the same recording.
# The Swift benchmarks themselves need no system library: ordo-one/benchmark counts mallocs
# with its malloc interposer (built from source), not jemalloc.
set -euo pipefail
packages=(libinput-tools python3-libevdev python3-yaml)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
