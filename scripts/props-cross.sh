#!/usr/bin/env bash
# Live cross-check of portable determinism: the same (seed, cases, dto) run natively (the
# release `equijson` binary) and in WebAssembly under Node (the project's page binding, crates/equijson-catalogue-page) must
# give identical passed/failed counts and digests. Seeds are fresh each run (printed), so
# every CI run checks new cases; pass seeds as arguments to repeat a run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --locked -p equijson-cli
cargo build -q --release --locked -p equijson-catalogue-page --target wasm32-unknown-unknown
out=target/wasm-node
wasm-bindgen --target nodejs --out-dir "$out" target/wasm32-unknown-unknown/release/equijson_catalogue_page.wasm

if [ $# -gt 0 ]; then seeds=("$@"); else
  seeds=()
  for _ in 1 2 3; do seeds+=("$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')"); done
fi
dtos=(value contact drive-policy event-context articles ledger-entry)
fail=0
for seed in "${seeds[@]}"; do
  for dto in "${dtos[@]}"; do
    native=$( (target/release/equijson props --seed "$seed" --cases 150 --dto "$dto" || true) \
      | awk '$1 ~ /^(passed|failed|digest):$/ { printf "%s %s ", $1, $2 }')
    wasm=$(node -e '
      const m = require(process.argv[1]);
      const o = JSON.parse(m.props(process.argv[2], 150, process.argv[3], 6));
      process.stdout.write(`passed: ${o.passed} failed: ${o.failed} digest: ${o.digest} `);
    ' "$PWD/$out/equijson_catalogue_page.js" "$seed" "$dto")
    if [ "$native" = "$wasm" ]; then
      echo "same   seed=$seed dto=$dto $native"
    else
      echo "DIFFER seed=$seed dto=$dto"; echo "  native: $native"; echo "  wasm:   $wasm"; fail=1
    fi
  done
done
exit $fail
