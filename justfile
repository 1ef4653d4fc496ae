# equijson task runner. `just verify` is what CI runs; `bash scripts/setup.sh` installs the tools.

set shell := ["bash", "-euo", "pipefail", "-c"]

# List the recipes.
default:
    @just --list

# Everything CI checks: format, lints (native + wasm32), tests, number KAT, wasm32 build
# and tests in Node (same property digests as native).
verify: fmt-check clippy test kat wasm-build wasm-test props-cross pglite-sql-canonical

# Check formatting.
fmt-check:
    cargo fmt --all -- --check

# Clippy with warnings as errors, natively (all targets) and for wasm32.
clippy:
    cargo clippy --workspace --all-targets --locked -- -D warnings
    cargo clippy -p equijson -p equijson-wasm --target wasm32-unknown-unknown --locked -- -D warnings

# Unit, integration, property and doc tests.
test:
    cargo test --workspace --locked

# The ECMAScript number KAT at 1,000,000 and 10,000,000 lines (release mode).
kat:
    cargo test --release --locked -p equijson --test number_kat -- --ignored --exact kat_1m kat_10m

# The 100,000,000-line KAT (about a minute).
kat-100m:
    cargo test --release --locked -p equijson --test number_kat -- --ignored --exact kat_100m

# The jsonb model's size and element-count limits (inputs of 34 MB to 1.5 GB; release mode).
jsonb-limits:
    cargo test --release --locked -p equijson --test jsonb -- --ignored

# The core and its binding build for wasm32-unknown-unknown.
wasm-build:
    cargo build --release --locked -p equijson -p equijson-wasm --target wasm32-unknown-unknown

# The wasm32 tests, run in Node by wasm-bindgen-test-runner: RFC 8785 vectors, the portable
# random stream, and property digests equal to the native ones.
wasm-test:
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo test --locked -p equijson-wasm --target wasm32-unknown-unknown

# Native vs WebAssembly (Node) on fresh seeds: same counts, same digests (`just props-cross SEED...`).
props-cross *SEEDS:
    bash scripts/props-cross.sh {{SEEDS}}

# Rewrite tests/data/props-digests.tsv from the native build (only when generators change on purpose).
props-golden:
    bash scripts/props-golden.sh > tests/data/props-digests.tsv

# Throughput against serde_jcs, serde_json_canonicalizer and serde_json (prints a table).
bench *ARGS:
    cargo bench --locked -p equijson-bench --bench canon -- {{ARGS}}

# Allocations and time per decode path on contact rows (the allocation gate).
bench-allocs *ARGS:
    cargo bench --locked -p equijson-bench --bench decode_allocs -- {{ARGS}}

# Canonicalize files (or stdin): `just canon a.json b.json`.
canon *ARGS:
    cargo run -q --release --locked -p equijson-cli -- canon {{ARGS}}

# Property checks: `just props --seed 1 --cases 1000 --dto contact`.
props *ARGS:
    cargo run -q --release --locked -p equijson-cli -- props {{ARGS}}

# The main job: `equijson demo`: an ephemeral PostgreSQL cluster, a seeded contacts table,
# json/jsonb round trips and decode-equivalence scans of every row (exit 0 when every
# finding is declared by the DTO or explained by the jsonb model).
demo:
    cargo build -q --release --locked -p equijson-cli
    target/release/equijson demo

# Without PostgreSQL: canonical forms of the RFC 8785 samples, a decode-equivalence report
# and property runs over the DTO catalogue.
demo-offline:
    cargo build -q --release --locked -p equijson-cli
    bash scripts/demo.sh target/release/equijson

# `pg scan` against raw binary COPY on seeded ~330-byte contact rows, peak RSS (ephemeral
# cluster; `just bench-pg 1000000 4000000 --samples 3`).
bench-pg *ARGS:
    cargo run --release --locked -p equijson-pg --example scan_bench -- {{ARGS}}

# equijson_canonical(jsonb) in PostgreSQL against the Rust core on an ephemeral cluster
# (RFC 8785 vectors, 100k-double KAT, 21k generated documents, edge cases; part of `just test`).
sql-canonical-test:
    cargo test --locked -p equijson-pg --test sql_canonical

# Contact rows/s through equijson_canonical vs doc::text (`just bench-sql-canonical --rows 1000000 --samples 3`).
bench-sql-canonical *ARGS:
    cargo run --release --locked -p equijson-pg --example sql_canonical_bench -- {{ARGS}}

# equijson_canonical(jsonb) on PostgreSQL 18 in WebAssembly (PGlite) in Node: edge-case table,
# RFC 8785 vectors, 20,000 KAT doubles against the JS engine's Number.prototype.toString.
pglite-sql-canonical:
    cd tests/pglite && npm ci --no-audit --no-fund --loglevel=error && node check.mjs
