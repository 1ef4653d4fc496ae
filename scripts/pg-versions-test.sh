#!/usr/bin/env bash
# `just pg-versions`: the SQL-canonical differential suite, the recorded jsonb tables
# (tests/data/jsonb, crates/equijson-pg/tests/jsonb_tables.rs), `pg install-sql`/`uninstall-sql`,
# the hostile-database suites (crates/equijson-pg/tests/hostile.rs, hostile_rows.rs: on 13
# and 14 `public` is writable by default) and a `pg roundtrip` smoke run on PostgreSQL 13, 14, 16 and 17 (binaries pinned in
# tests/pg-versions/, fetched and cached by scripts/pg-versions.sh), each on its own
# ephemeral cluster (EQUIJSON_PG_BINDIR). Prints per version the server version and
# PASS/FAIL, then a summary; exits 1 if any version failed.
#
# Usage: scripts/pg-versions-test.sh [--quick] [MAJOR...]
#   --quick  EQUIJSON_SQL_CANONICAL_QUICK=1: the suite with a tenth of its KAT doubles and
#            generated documents and shallower nesting (see crates/equijson-pg/tests/
#            sql_canonical.rs), without the cluster test that is not about the version
#            and without hostile_rows.rs's memory test (hostile.rs runs whole).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi

start_all=$(date +%s)
lines=$(bash scripts/pg-versions.sh "$@")

# Build once (the debug profile of `just test`, so `just verify` reuses its build).
build_log=$(mktemp)
if ! { cargo test --locked -p equijson-pg --test sql_canonical --test cluster --test jsonb_tables \
         --test hostile --test hostile_rows --no-run \
       && cargo test --locked -p equijson-cli --test pg_sql --no-run \
       && cargo build --locked -p equijson-cli; } >"$build_log" 2>&1; then
  cat "$build_log"; rm -f "$build_log"; exit 1
fi
rm -f "$build_log"

skip=()
rows_skip=()
if [ "$quick" -eq 1 ]; then
  export EQUIJSON_SQL_CANONICAL_QUICK=1
  skip=(--skip explicit_bindir_is_used_or_refused)
  rows_skip=(--skip memory_follows_the_largest_row_not_the_table)
fi

summary=()
failed=0
while IFS=$'\t' read -r major bindir version; do
  t0=$(date +%s)
  log=$(mktemp)
  status=PASS
  echo "== PostgreSQL $major: $version ($bindir)"
  export EQUIJSON_PG_BINDIR=$bindir
  if ! cargo test --locked -q -p equijson-pg --test sql_canonical --test cluster --test jsonb_tables -- ${skip[@]+"${skip[@]}"} >"$log" 2>&1; then
    status=FAIL; echo "-- sql_canonical / cluster / jsonb_tables tests failed:"; tail -n 60 "$log"
  else
    grep -E '^test result' "$log" | sed 's/^/   /'
  fi
  if ! cargo test --locked -q -p equijson-pg --test hostile --test hostile_rows -- ${rows_skip[@]+"${rows_skip[@]}"} >"$log" 2>&1; then
    status=FAIL; echo "-- hostile / hostile_rows tests failed:"; tail -n 60 "$log"
  else
    grep -E '^test result' "$log" | sed 's/^/   /'
  fi
  if ! cargo test --locked -q -p equijson-cli --test pg_sql >"$log" 2>&1; then
    status=FAIL; echo "-- pg install-sql / uninstall-sql test failed:"; tail -n 60 "$log"
  else
    grep -E '^test result' "$log" | sed 's/^/   /'
  fi
  if ! cargo run -q --locked -p equijson-cli -- pg roundtrip --seed 1 --cases 300 >"$log" 2>&1; then
    status=FAIL; echo "-- pg roundtrip --seed 1 --cases 300 failed:"; tail -n 60 "$log"
  else
    grep -E '^equijson: server:|^(passed|failed|digest):|^jsonb rejections' "$log" | sed 's/^/   /'
  fi
  unset EQUIJSON_PG_BINDIR
  rm -f "$log"
  secs=$(( $(date +%s) - t0 ))
  echo "== PostgreSQL $major: $status (${secs}s)"
  summary+=("$(printf '%-4s %-30s %s %4ss' "$major" "$version" "$status" "$secs")")
  [ "$status" = PASS ] || failed=1
done <<<"$lines"

echo "pg-versions$([ "$quick" -eq 0 ] || echo ' --quick') summary ($(( $(date +%s) - start_all ))s in all):"
printf '  %s\n' "${summary[@]}"
exit "$failed"
