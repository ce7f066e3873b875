#!/usr/bin/env bash
# Installs what building and testing Den needs on a fresh Debian machine (idempotent, quiet when
# everything is there). Swift itself must already be on PATH.
set -euo pipefail

missing=()
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
# The terminal's line editing and history (the CEditLine system-library target).
dpkg -s libedit-dev >/dev/null 2>&1 || missing+=(libedit-dev)
# libffi calls module exports: its headers build the CFFI target, and den opens the library
# (libffi8, which libffi-dev brings) when a module first registers an export.
dpkg -s libffi-dev >/dev/null 2>&1 || missing+=(libffi-dev)
# The C example module (Examples/CounterC) reads and writes JSON with cJSON; make builds it.
dpkg -s libcjson-dev >/dev/null 2>&1 || missing+=(libcjson-dev)
# The isolated worker's seccomp filter (the CDenSandbox target links libseccomp).
dpkg -s libseccomp-dev >/dev/null 2>&1 || missing+=(libseccomp-dev)
# BLAKE2b for minisign's module signatures (the CSodium target, linked into libDenCrypto.so).
dpkg -s libsodium-dev >/dev/null 2>&1 || missing+=(libsodium-dev)
# The signing tests sign with Debian's minisign and verify what den signs with it (docs/SIGNING.md).
command -v minisign >/dev/null 2>&1 || missing+=(minisign)
command -v make >/dev/null 2>&1 || missing+=(make)
# The connection tests start den serve under a descriptor limit with prlimit.
command -v prlimit >/dev/null 2>&1 || missing+=(util-linux)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# The terminal end-to-end tests drive `den run` in a real terminal through tmux.
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
# The browser tests drive Debian's headless Chromium through its driver (never a downloaded build).
for package in chromium chromium-driver fonts-dejavu-core; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
# The PostgreSQL tests start their own throwaway cluster (initdb, pg_ctl: the server binaries under
# /usr/lib/postgresql/<version>/bin) and the deployment tests put nginx in front of three hosts;
# neither service is enabled or started by the tests' set-up, only its binaries are used.
for package in postgresql nginx; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The tests validate every ABI document against docs/schema with the `jsonschema` package.
if ! python3 -c 'import jsonschema, referencing' >/dev/null 2>&1; then
    echo "setup: installing the Python package jsonschema (for the schema tests)" >&2
    python3 -m pip install --quiet 'jsonschema>=4.18' >/dev/null 2>&1 \
        || { apt-get install -y -qq python3-jsonschema >/dev/null 2>&1 || true; }
    python3 -c 'import jsonschema, referencing' >/dev/null 2>&1 \
        || echo "setup: could not install jsonschema; the schema tests will fail (pip install jsonschema)" >&2
fi

# The tracing tests' OTLP receiver decodes den's spans with OpenTelemetry's official protobuf classes.
if ! python3 -c 'from opentelemetry.proto.collector.trace.v1 import trace_service_pb2' >/dev/null 2>&1; then
    echo "setup: installing the Python package opentelemetry-proto (for the tracing tests)" >&2
    python3 -m pip install --quiet opentelemetry-proto >/dev/null 2>&1 \
        || python3 -m pip install --quiet --break-system-packages opentelemetry-proto >/dev/null 2>&1 \
        || echo "setup: could not install opentelemetry-proto; the tracing tests will fail (pip install opentelemetry-proto)" >&2
fi

# The browser tests' driver library.
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
    echo "setup: installing the Python package selenium (for the browser tests)" >&2
    python3 -m pip install --quiet selenium >/dev/null 2>&1 \
        || python3 -m pip install --quiet --break-system-packages selenium >/dev/null 2>&1 \
        || echo "setup: could not install selenium; the browser tests will fail (pip install selenium)" >&2
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH; install the Swift 6.3 toolchain first" >&2; exit 1; }
