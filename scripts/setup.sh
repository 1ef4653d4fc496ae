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

# wasm-pack builds the npm package (crates/equijson-js); its wasm-opt comes from npm's
# binaryen (npm/package-lock.json), so wasm-pack never downloads one.
if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack (about 2.5 minutes)"
  cargo install wasm-pack --locked
fi

# Chromium runs the browser tests of the npm package (playwright-core drives it).
if ! command -v chromium >/dev/null && ! [ -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null; then
    say "installing chromium"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "chromium not found: install it (the npm package's browser test needs it)"; exit 2
  fi
fi

say "ok: $(cargo --version | cut -d' ' -f1-2), $(just --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), node $(node --version)"
