#!/usr/bin/env bash
# Installs den for the current user (or anywhere with --prefix): builds in release, then copies
#   <prefix>/bin/den                                  the executable (runs `den render` itself)
#   <prefix>/bin/den-commands                             every other command (den hands them over)
#   <prefix>/lib/den/modules/lib<Name>Module.so       the bundled modules (only modules: den loads
#                                                     every lib<Name>Module.so here), each with its
#                                                     signature lib<Name>Module.so.minisig
#   <prefix>/lib/den/trusted-keys                     the key that signed them (docs/SIGNING.md)
#   <prefix>/lib/den/libDenHTTPTransport.so           the http service's network library
#   <prefix>/lib/den/libDenSQLiteStorage.so           the storage service's SQLite engine
#   <prefix>/lib/den/libDenCrypto.so                  scrypt, SHA-256, Ed25519, BLAKE2b (auth, signatures)
#   <prefix>/share/bash-completion/completions/den    shell completions (bash, zsh, fish)
#   <prefix>/share/zsh/site-functions/_den
#   <prefix>/share/fish/vendor_completions.d/den.fish
#   <prefix>/share/man/man1/den.1                     `man den`
# den finds its modules from its own location (<prefix>/bin/../lib/den/modules), so a copy or a
# symlink of <prefix>/bin/den works from any folder. Test fixtures are never installed.
#
# Usage: Scripts/install.sh [--prefix DIR] [--from BUILD_DIR]
#   --prefix DIR      where to install (default: ~/.local; den then runs as ~/.local/bin/den)
#   --from BUILD_DIR  install an already-built folder (e.g. .build/release) instead of building
# Installing again replaces the files in place; a running den keeps the versions it loaded.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${HOME:?HOME is not set; pass --prefix DIR}/.local"
from=""
usage() { sed -n '/^# Usage:/,/^# Installing again/p' "$0" | sed 's/^# \{0,1\}//' >&2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] && [ -n "$2" ] || { echo "install: --prefix needs a folder, e.g. --prefix ~/.local" >&2; exit 64; }
                  prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; [ -n "$prefix" ] || { echo "install: --prefix needs a folder" >&2; exit 64; }; shift ;;
        --from) [ $# -ge 2 ] && [ -n "$2" ] || { echo "install: --from needs a build folder, e.g. --from .build/release" >&2; exit 64; }
                from="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install: unknown argument '$1'" >&2; usage; exit 64 ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac

if [ -z "$from" ]; then
    Scripts/setup.sh
    echo "install: building den and its modules in release (a few minutes the first time)..." >&2
    swift build -c release >&2
    # The man page writer from swift-argument-parser (small; best effort below if it fails).
    swift build -c release --product generate-manual >&2 || echo "install: could not build generate-manual; no man page" >&2
    from="$(swift build -c release --show-bin-path)"
fi
[ -x "$from/den" ] || { echo "install: $from/den does not exist; build first (swift build -c release) or leave out --from" >&2; exit 1; }

bin="$prefix/bin"; lib="$prefix/lib/den"; modules="$lib/modules"; share="$prefix/share"
mkdir -p "$bin" "$modules" "$share/bash-completion/completions" "$share/zsh/site-functions" \
         "$share/fish/vendor_completions.d" "$share/man/man1" \
    || { echo "install: cannot create folders under $prefix; choose another --prefix or fix its permissions" >&2; exit 1; }

# Copy, then rename: replacing a running den or a loaded module in place would crash it.
put() { # put SOURCE DEST MODE
    local temp; temp="$(dirname "$2")/.$(basename "$2").install.$$"
    cp "$1" "$temp" && chmod "$3" "$temp" && mv -f "$temp" "$2"
}

for needed in den-commands libDenSQLiteStorage.so libDenHTTPTransport.so libDenCrypto.so; do
    [ -e "$from/$needed" ] || { echo "install: $from/$needed does not exist; build everything (swift build -c release)" >&2; exit 1; }
done
put "$from/den-commands" "$bin/den-commands" 755
put "$from/den" "$bin/den" 755
# An older den named its second executable den-full.
rm -f "$bin/den-full"
shopt -s nullglob
installed=()
for module in "$from"/lib*Module.so; do
    put "$module" "$modules/$(basename "$module")" 644
    installed+=("$(basename "$module")")
done
[ ${#installed[@]} -gt 0 ] || { echo "install: no lib<Name>Module.so in $from; build everything (swift build -c release)" >&2; exit 1; }
# Modules this version no longer bundles would still load: remove them.
for old in "$modules"/lib*Module.so; do
    keep=0; for name in "${installed[@]}"; do [ "$name" = "$(basename "$old")" ] && keep=1; done
    [ $keep = 1 ] || rm -f "$old"
done
put "$from/libDenHTTPTransport.so" "$lib/libDenHTTPTransport.so" 644
put "$from/libDenSQLiteStorage.so" "$lib/libDenSQLiteStorage.so" 644
put "$from/libDenCrypto.so" "$lib/libDenCrypto.so" 644

# The bundled modules pass the strictest trust policy (docs/SIGNING.md): a key made for this
# install signs each one (<module>.minisig beside it), its public key goes in
# $lib/trusted-keys, which every den run from this prefix trusts, and its secret key is
# destroyed, so nothing else can ever be signed with it. Installing again makes a new key.
signing="$(mktemp -d)"
trap 'rm -rf "$signing"' EXIT
DEN_CONFIG_DIR="$signing" "$bin/den" keys generate bundled --as "den bundled modules ($(date -u +%Y-%m-%d))" >/dev/null \
    || { echo "install: could not make the key that signs the bundled modules" >&2; exit 1; }
for name in "${installed[@]}"; do
    DEN_CONFIG_DIR="$signing" "$bin/den" modules sign "$modules/$name" --key bundled >/dev/null \
        || { echo "install: could not sign $modules/$name" >&2; exit 1; }
done
for old in "$modules"/*.minisig; do [ -e "${old%.minisig}" ] || rm -f "$old"; done
put "$signing/trusted-keys" "$lib/trusted-keys" 644
rm -rf "$signing"

# Completions and the man page come from den itself (swift-argument-parser writes them).
"$bin/den" --generate-completion-script bash > "$share/bash-completion/completions/den"
"$bin/den" --generate-completion-script zsh > "$share/zsh/site-functions/_den"
"$bin/den" --generate-completion-script fish > "$share/fish/vendor_completions.d/den.fish"
if [ -x "$from/generate-manual" ]; then
    manual="$(mktemp -d)"
    if "$from/generate-manual" "$bin/den" --output-directory "$manual" >/dev/null 2>&1 && [ -f "$manual/den.1" ]; then
        put "$manual/den.1" "$share/man/man1/den.1" 644
    else
        echo "install: generate-manual failed; no man page (den --help says the same)" >&2
    fi
    rm -rf "$manual"
fi

echo "Installed den $("$bin/den" --version | head -1 | cut -d' ' -f2) in $prefix:"
echo "  $bin/den, ${#installed[@]} bundled modules in $modules"
case ":$PATH:" in
    *":$bin:"*) ;;
    *) echo "  $bin is not on your PATH: add  export PATH=\"$bin:\$PATH\"  to your shell's startup file" ;;
esac
echo "  Your own modules go in \${XDG_DATA_HOME:-~/.local/share}/den/modules. Try: den plugins"
