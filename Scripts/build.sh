#!/usr/bin/env bash
# Builds everything: the den host, the bundled module plugins (lib<Name>Module.so) and the test
# fixtures. `swift run den` alone would build only the host. Extra arguments go to `swift build`.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build "$@"
