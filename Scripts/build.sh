#!/usr/bin/env bash
# Builds everything: den and den-commands, the storage and network libraries beside them, the bundled
# module plugins (lib<Name>Module.so). `swift run den` alone would build only
# den, which hands every command but `render` to den-commands. Extra arguments go to `swift build`.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build "$@"
