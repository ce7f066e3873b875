#!/usr/bin/env bash
# Prints Den's speed figures, each as a ratio to a baseline measured in the same run
# (docs/PERFORMANCE.md says what each one measures):
#   1. plugin load + register   vs a bare dlopen of the same plugin image
#   2. route resolution         vs RoutingKit's TrieRouter, 1,000 routes, same requests
#   3. `den render about`       vs a hello-world Swift executable, whole processes
#   4. the call guard           vs an event round trip through a session (its share)
#   5. login (scrypt verify)    vs a bare KDF.Scrypt call with the same parameters
#   6. den serve, GET /about    vs GET /_health (a bare route) in the same server, with wrk
#   7. a module export call     vs a direct C call of the same function (libffi, exports.call)
#   7a. permissions (--only permissions): a storage.get round trip and an http.get refused by
#      127.0.0.1, made as a module held to its permissions vs unchecked (docs/PERMISSIONS.md)
#   6m. metrics (--only metrics): GET /about and the jogs list with den serve --metrics against
#      without, two dens side by side
#   6t. tracing (--only tracing): the same two pages with den serve --otlp-endpoint (every request
#      sampled, a receiver on this machine that drops what it gets) against without
#   8. hot swap (--only swap)   latency with 10 live screens vs a plain load; memory per retained
#                               version vs the image; first screen after 10/100/500 images; inotify vs polling
#   9. den render about with 1, 10 and 100 modules installed, lazy vs --eager, beside hello
#  10. den serve with Login + Jogs vs jogs-monolith (Hummingbird + GRDB, no plugins), with wrk:
#      the jogs list of a logged-in user with 50 jogs, and the add-jog form post (--only monolith)
#  11. den serve under attack (--only attack): login guesses an attacker gets against one account and
#      across many, with throttling against without; GET /jogs with 20,000 jogs, paged against whole
#  12. isolated modules vs the same module in-process (--only isolation): an event round trip on a
#      small and a 4 KiB screen (p50, p99), a worker's first screen, crash to restored screen (p99),
#      the worker's private memory, and den serve GET with the module isolated vs in-process, with wrk
#      (docs/ISOLATION.md)
#  13. den render about with 1 and 100 modules, all signed under require-signature vs unsigned
#      under allow (--only signing)
#  14. deployment (--only deploy): jogs on PostgreSQL vs SQLite, three hosts behind nginx vs one,
#      failed requests and the longest request when a host is killed (Scripts/deploy-bench.sh,
#      which takes --seconds N --connections N --debug)
#  15. catalog (--only catalog): resolving a request against a catalog of 1,000 modules × 10
#      versions vs decoding that catalog's index.json; `den modules install <id>` from a catalog
#      served by nginx vs `den modules install <file>` of the same signed file (docs/CATALOG.md)
# Builds the root package in release (den + plugins), then the Benchmarks package (its own
# .build folder) in release, and runs it. Arguments go to den-bench, e.g.
#   Scripts/bench.sh --only router --rounds 60
#   Scripts/bench.sh --only load --copies 100
#   Scripts/bench.sh --only process --runs 50
#   Scripts/bench.sh --only calls --calls 5000
#   Scripts/bench.sh --only login --logins 30
#   Scripts/bench.sh --only web --web-rounds 9 --web-seconds 5 --connections 32
#   Scripts/bench.sh --only exports --export-batch 2000 --export-samples 30
#   Scripts/bench.sh --only swap --swaps 30 --live 10 --retained-images 100,500
#   Scripts/bench.sh --only startup --module-counts 1,10,100 --runs 20
#   Scripts/bench.sh --only signing --signing-counts 1,100 --runs 20
#   Scripts/bench.sh --only metrics --metrics-rounds 7 --metrics-seconds 3 --connections 16
#   Scripts/bench.sh --only monolith --monolith-rounds 7 --monolith-seconds 5 --connections 16
#   Scripts/bench.sh --only monolith --monolith-data /dev/shm   (SQLite on tmpfs: no fdatasync cost)
#   Scripts/bench.sh --only isolation --isolation-events 2000 --isolation-crashes 50 --isolation-starts 20
#   Scripts/bench.sh --only isolation --isolation-web-rounds 5 --isolation-web-seconds 3 --connections 16
#   Scripts/bench.sh --only catalog --catalog-runs 30 --catalog-rounds 10
#   Scripts/bench.sh --only deploy --seconds 10 --connections 8
# Figures only: nothing here passes or fails on speed (exit 1 only if a benchmark itself broke).
set -euo pipefail
cd "$(dirname "$0")/.."
# The deployment figures need a PostgreSQL cluster and nginx, not den-bench: their own script.
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "deploy" ]; then shift 2; exec Scripts/deploy-bench.sh "$@"; fi
Scripts/setup.sh
# The web figure's load generator and the cookie fetch (Debian packages).
for tool in wrk curl; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench: installing $tool" >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$tool" >/dev/null; }
done

echo "bench: building den and the plugins (release)..." >&2
swift build -c release >&2
DEN_BIN="$(swift build -c release --show-bin-path)"
# The exports figure calls into a test fixture (Tests/Fixtures/DenFixtureExports), built from C.
make --quiet -C Tests/Fixtures OUT="$DEN_BIN" >&2

echo "bench: building den-bench (release)..." >&2
# SwiftPM can keep a stale build plan for a path dependency whose files were added or removed
# ("missing inputs"); dropping the plan makes it re-plan (cheap), the build products stay.
rm -f Benchmarks/.build/release.yaml Benchmarks/.build/*/release/description.json
swift build -c release --package-path Benchmarks >&2
BENCH_BIN="$(swift build -c release --package-path Benchmarks --show-bin-path)"

echo "bench: running (10-20 s; about 2 minutes more with the monolith figure)..." >&2
# The login figure hashes through libDenCrypto.so, which sits beside den, not beside den-bench.
export DEN_CRYPTO_LIBRARY="$DEN_BIN/libDenCrypto.so"
exec "$BENCH_BIN/den-bench" --den-bin "$DEN_BIN" --hello "$BENCH_BIN/hello" --den-include "$PWD/Sources/CDenABI/include" "$@"
