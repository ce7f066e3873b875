#!/usr/bin/env bash
# Builds everything (host, plugins, fixtures, tests) and runs every test. `swift test` alone does
# not build the plugin libraries that the loader and end-to-end tests load.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build
swift build --build-tests
# The man page writer, so the install test (Tests/EndToEndTests/InstallEndToEndTests) checks `man den` too.
swift build --product generate-manual
# Every test uses Swift Testing; skipping the empty XCTest pass keeps the summary unambiguous.
swift test --skip-build --disable-xctest "$@"
