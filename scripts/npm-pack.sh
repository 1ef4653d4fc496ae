#!/usr/bin/env bash
# Builds the npm package `equijson` (npm/) into target/npm/equijson-<version>.tgz:
# crates/equijson-npm for wasm32 (custom cargo profile `npm-wasm`, +simd128) with
# wasm-bindgen's web glue, wasm-opt from npm's binaryen, then npm/scripts/assemble.mjs and `npm pack`.
# The budget (64 KiB gzip) is the .wasm's: the slim entry ships it as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/npm

# The package's own dev dependencies (binaryen's wasm-opt, the benchmark's competitors,
# playwright-core), from npm/package-lock.json.
if [ ! -f npm/node_modules/.package-lock.json ] || [ npm/package-lock.json -nt npm/node_modules/.package-lock.json ]; then
  (cd npm && npm ci --no-audit --no-fund --loglevel=error)
fi

# SIMD for this crate's build only (the flag applies to the whole `cargo build`, whose
# artifacts live under the `npm-wasm` profile, apart from every other build).
# One build: wasm-bindgen's web glue serves every entry (assemble.mjs makes a CommonJS
# copy for Node), so the module is the same bytes in each. cargo plus the wasm-bindgen CLI
# (the version of the crate in Cargo.lock, from scripts/setup.sh) is what
# `wasm-pack build --target web` runs, without installing wasm-pack.
RUSTFLAGS="-C target-feature=+simd128" \
  cargo build -q --locked --lib --target wasm32-unknown-unknown --profile npm-wasm -p equijson-npm
target_dir=$(cargo metadata --format-version 1 --no-deps | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).target_directory')
rm -rf "$out/wasm-web"
wasm-bindgen --target web --no-typescript --out-dir "$out/wasm-web" \
  "$target_dir/wasm32-unknown-unknown/npm-wasm/equijson_npm.wasm"

# Speed first (-O3), then drop the names section; the features are what rustc emitted
# (its default set plus simd128).
npm/node_modules/.bin/wasm-opt "$out/wasm-web/equijson_npm_bg.wasm" -O3 --strip-debug --strip-producers \
  --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  -o "$out/equijson.wasm"

node npm/scripts/assemble.mjs "$out/equijson.wasm" "$out/wasm-web/equijson_npm.js" "$out/package"
version=$(node -p "require('./npm/package.json').version")
rm -f "$out/equijson-$version.tgz"
(cd "$out" && npm pack ./package --pack-destination "$out" --loglevel=error >/dev/null)
raw=$(wc -c < "$out/equijson.wasm")
gz=$(gzip -9c "$out/equijson.wasm" | wc -c)
echo "npm-pack: $out/equijson-$version.tgz (wasm: $raw bytes, $gz gzip -9)"
if [ "$gz" -gt 65536 ]; then
  echo "npm-pack: the wasm is over its 64 KiB gzip budget" >&2
  exit 1
fi
