#!/usr/bin/env bash
# Builds everything (host, plugins, fixtures, tests) and runs every test. `swift test` alone does
# not build the plugin libraries that the loader and end-to-end tests load.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build
swift build --build-tests
swift test --skip-build "$@"
