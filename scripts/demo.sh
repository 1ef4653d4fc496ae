#!/usr/bin/env bash
# The main job until the Postgres runner lands: canonical JSON, a decode-equivalence
# report and seeded property runs, all with the release `equijson` binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/equijson}
tmp=${TMPDIR:-/tmp}/equijson-demo.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

echo "### 1. RFC 8785 canonical form of the reference samples"
for f in tests/data/jcs/input/*.json; do
  name=$(basename "$f")
  printf -- '-- %s (%s bytes in)\n' "$name" "$(wc -c < "$f")"
  "$bin" canon "$f"
  printf '\n   sha256 %s  ' "$("$bin" canon "$f" | sha256sum | cut -d' ' -f1)"
  if cmp -s <("$bin" canon "$f") "tests/data/jcs/output/$name"; then
    echo "matches the RFC 8785 reference output"
  else
    echo "DIFFERS from the RFC 8785 reference output"; exit 1
  fi
done

echo
echo "### 2. A rejected document: the error names file, line and column"
printf '{\n  "id": 1,\n  "id": 2\n}\n' > "$tmp/dup.json"
if "$bin" canon "$tmp/dup.json"; then exit 1; else echo "-- exit code $?"; fi

echo
echo "### 3. One document through every decode path (ledger-entry: i128, f32, borrowed &str)"
"$bin" dtos --sample ledger-entry > "$tmp/ledger.json"
cat "$tmp/ledger.json"; echo
"$bin" decode --dto ledger-entry "$tmp/ledger.json" || echo "-- exit code $? (divergent, as expected for this DTO)"

echo
echo "### 4. Seeded property runs over the DTO catalogue (same digest on every platform)"
for dto in contact drive-policy event-context articles value; do
  ("$bin" props --seed 2026 --cases 500 --dto "$dto" || true) | awk '/^(dto|passed|failed|digest):/' | paste -sd' '
done
echo "-- and the divergent example, shrunk to a minimal counterexample:"
("$bin" props --seed 2026 --cases 200 --dto ledger-entry || true) | sed -n '/^first failure/,$p'
