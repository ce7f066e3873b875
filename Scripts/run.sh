#!/usr/bin/env bash
# Builds everything, then starts Den in the terminal. Arguments go to `den`, e.g.
#   Scripts/run.sh                 the app, starting at its first screen
#   Scripts/run.sh render about    one screen as text
#   Scripts/run.sh plugins         what was loaded
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/build.sh >&2
exec "$(swift build --show-bin-path)/den" "$@"
