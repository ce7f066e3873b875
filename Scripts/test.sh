#!/usr/bin/env bash
# Builds everything (host, plugins, fixtures, tests) and runs every test. `swift test` alone does
# not build the plugin libraries that the loader and end-to-end tests load.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build
swift build --build-tests
# The loader tests' broken plugins (Tests/Fixtures), built from C beside den and the modules.
make --quiet -C Tests/Fixtures OUT="$(swift build --show-bin-path)"
# The man page writer, so the install test (Tests/EndToEndTests/InstallEndToEndTests) checks `man den` too.
swift build --product generate-manual
# Every test uses Swift Testing; skipping the empty XCTest pass keeps the summary unambiguous.
swift test --skip-build --disable-xctest "$@"
# The benchmark (Scripts/bench.sh) is its own package on the host's public API: a whole run also
# compiles it, so a change to that API cannot break the figures unseen. Not with a test filter.
if [ "$#" -eq 0 ]; then
    echo "test: compiling the benchmark package (Benchmarks/)..." >&2
    rm -f Benchmarks/.build/debug.yaml Benchmarks/.build/*/debug/description.json # see bench.sh: a stale plan
    # Only den-bench: the other programs there (the monolith, hello) use no Den API, and GRDB,
    # which only the monolith needs, would add minutes to every run.
    swift build --package-path Benchmarks --product den-bench
fi
