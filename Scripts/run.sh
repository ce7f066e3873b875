#!/usr/bin/env bash
# Builds everything, then starts Den. Without arguments it serves the app to a browser
# (`den serve`, http://127.0.0.1:8080); arguments go to `den` instead, e.g.
#   Scripts/run.sh                 the app in a browser: open the address it prints
#   Scripts/run.sh run             the app in the terminal, starting at its first screen
#   Scripts/run.sh render about    one screen as text
#   Scripts/run.sh plugins         what was loaded
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/build.sh >&2
if [ $# -eq 0 ]; then set -- serve; fi
exec "$(swift build --show-bin-path)/den" "$@"
