#!/usr/bin/env bash
# Installs what building and testing Den needs on a fresh Debian machine (idempotent, quiet when
# everything is there). Swift itself must already be on PATH.
set -euo pipefail

missing=()
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ "${DEN_SETUP_TMUX:-0}" = 1 ]; then command -v tmux >/dev/null 2>&1 || missing+=(tmux); fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH; install the Swift 6.3 toolchain first" >&2; exit 1; }
