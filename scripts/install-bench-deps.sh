#!/usr/bin/env bash
# Installs the Debian packages `make bench` needs, only those that are missing.
#   libinput-tools python3-libevdev python3-yaml: libinput's own analysis tool
#     (/usr/libexec/libinput/libinput-analyze-per-slot-delta), timed side by side with our
#     replay pipeline on the same recording.
# The Swift benchmarks themselves need no system library: ordo-one/benchmark counts mallocs
# with its malloc interposer (built from source), not jemalloc.
set -euo pipefail
exec "$(dirname "$0")/install-deps.sh" libinput-tools python3-libevdev python3-yaml
