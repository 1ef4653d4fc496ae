#!/usr/bin/env bash
# Installs what building and testing equijson needs, skipping whatever is already there.
# Safe to run repeatedly; every later recipe (just verify, just demo) assumes it ran.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }

# Rust: the machine's toolchain, plus the wasm32 target and the lint/format components.
if ! command -v cargo >/dev/null; then
  say "cargo not found: this project needs the machine's rustup toolchain"; exit 2
fi
if ! rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
for comp in rustfmt clippy; do
  if ! rustup component list --installed | grep "^$comp" >/dev/null; then
    say "adding rust component $comp"; rustup component add "$comp"
  fi
done

# just: from npm (seconds), else from crates.io.
if ! command -v just >/dev/null; then
  if command -v npm >/dev/null && npm install -g rust-just >/dev/null 2>&1 && command -v just >/dev/null; then
    say "installed just from npm (rust-just)"
  else
    say "installing just from crates.io"; cargo install just --locked
  fi
fi

# wasm-bindgen-cli (its test runner runs the wasm32 tests in Node): exactly the version of
# the wasm-bindgen crate in Cargo.lock. `--locked` does not work for this crate here.
want=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/[^0-9.]/, "", $0); print; exit }' Cargo.lock)
have=$( (wasm-bindgen --version 2>/dev/null || true) | awk '{print $2}')
if [ -n "$want" ] && [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (about 2.5 minutes)"
  cargo install wasm-bindgen-cli --version "=$want"
fi

# Node.js runs the wasm tests.
if ! command -v node >/dev/null; then
  say "node not found: install Node.js (apt-get install -y nodejs)"; exit 2
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
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
  pg_bin_ok || { say "PostgreSQL installed but initdb not found"; exit 2; }
fi

# The reviewers' page (web/): Chromium and chromedriver for the browser tests, wasm-pack to
# build the page, and web/'s npm packages (playwright-core, PGlite, binaryen) from its lock file.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq chromium chromium-driver
fi
if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack (about 2.5 minutes)"
  cargo install wasm-pack --locked
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

say "ok: $(cargo --version | cut -d' ' -f1-2), $(just --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), node $(node --version)"
