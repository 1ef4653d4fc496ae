#!/usr/bin/env bash
# Prints tests/data/props-digests.tsv from the native build: the digests that the native
# test (crates/equijson-check/tests/props.rs) and the wasm32 test (crates/equijson-page/tests/node.rs)
# both must reproduce. Regenerate only when the generators change on purpose:
#   bash scripts/props-golden.sh > tests/data/props-digests.tsv
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --locked -p equijson-cli
bin=target/release/equijson
printf '# seed\tcases\tdto\tsize\tpassed\tfailed\tdigest\n'
printf '# Written by scripts/props-golden.sh from the native build; checked natively and under wasm32.\n'
while read -r seed cases dto size; do
  out=$("$bin" props --seed "$seed" --cases "$cases" --dto "$dto" --size "$size" || true)
  field() { printf '%s\n' "$out" | awk -v k="$1:" '$1 == k { print $2; exit }'; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$cases" "$dto" "$size" "$(field passed)" "$(field failed)" "$(field digest)"
done <<'ROWS'
1 200 value 6
2 50 value 12
42 100 contact 6
5 100 drive-policy 6
3 100 event-context 6
3735928559 60 articles 4
7 100 ledger-entry 6
0 1 value 6
ROWS
