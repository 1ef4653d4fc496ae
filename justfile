# equijson task runner. `just verify` is what CI runs; `bash scripts/setup.sh` installs the tools.

set shell := ["bash", "-euo", "pipefail", "-c"]

# List the recipes.
default:
    @just --list

# Everything CI checks: format, lints (native + wasm32), tests, number KAT, wasm32 build
# and tests in Node (same property digests as native).
verify: fmt-check clippy test kat docs package wasm-build wasm-test wasm-test-simd props-cross pglite-sql-canonical pg-versions-quick npm-test npm-bundlers differential web-verify book

# Check formatting.
fmt-check:
    cargo fmt --all -- --check

# Clippy with warnings as errors, natively (all targets) and for wasm32.
clippy:
    cargo clippy --workspace --all-targets --locked -- -D warnings
    cargo clippy -p equijson -p equijson-wasm --target wasm32-unknown-unknown --locked -- -D warnings
    cargo clippy -p equijson-js --target wasm32-unknown-unknown --locked -- -D warnings
    # The simd128 code paths (the npm build's), in wasm-test-simd's target dir.
    CARGO_TARGET_DIR=target/wasm-simd RUSTFLAGS="-C target-feature=+simd128" \
        cargo clippy -p equijson -p equijson-js --target wasm32-unknown-unknown --locked -- -D warnings

# Unit, integration, property and doc tests; PostgreSQL tests may not skip (EQUIJSON_REQUIRE_PG=1).
test:
    EQUIJSON_REQUIRE_PG="${EQUIJSON_REQUIRE_PG:-1}" cargo test --workspace --locked

# The ECMAScript number KAT at 1,000,000 and 10,000,000 lines (release mode).
kat:
    cargo test --release --locked -p equijson --test number_kat -- --ignored --exact kat_1m kat_10m

# The 100,000,000-line KAT (about a minute).
kat-100m:
    cargo test --release --locked -p equijson --test number_kat -- --ignored --exact kat_100m

# The jsonb model's size and element-count limits (inputs of 34 MB to 1.5 GB; release mode).
jsonb-limits:
    cargo test --release --locked -p equijson-check --test jsonb -- --ignored

# The core and its binding build for wasm32-unknown-unknown.
wasm-build:
    cargo build --release --locked -p equijson -p equijson-wasm --target wasm32-unknown-unknown

# The wasm32 tests, run in Node by wasm-bindgen-test-runner: RFC 8785 vectors, the portable
# random stream, and property digests equal to the native ones.
wasm-test:
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo test --locked -p equijson-wasm --target wasm32-unknown-unknown --lib --test node

# The same wasm32 tests with WebAssembly SIMD (`+simd128`, as the npm package is built): the
# string scanner's SIMD blocks against the same expectations (own target dir: other flags).
wasm-test-simd:
    CARGO_TARGET_DIR=target/wasm-simd RUSTFLAGS="-C target-feature=+simd128" EQUIJSON_EXPECT_SIMD=1 \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo test --locked -p equijson-wasm --target wasm32-unknown-unknown --test node

# Native vs WebAssembly (Node) on fresh seeds: same counts, same digests (`just props-cross SEED...`).
props-cross *SEEDS:
    bash scripts/props-cross.sh {{SEEDS}}

# Rewrite tests/data/props-digests.tsv from the native build (only when generators change on purpose).
props-golden:
    bash scripts/props-golden.sh > tests/data/props-digests.tsv

# Throughput against serde_jcs, serde_json_canonicalizer and serde_json (prints a table).
bench *ARGS:
    cargo bench --locked -p equijson-bench --features competitors --bench canon -- {{ARGS}}

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

# API docs of every crate, warnings as errors.
docs:
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

# `cargo package` (with its verifying build) for every publishable crate.
# The verifying build unpacks our crates from a temporary registry under target/package into
# $CARGO_HOME/registry/src/-<hash of that path>/ and silently reuses an earlier unpacking of the
# same name and version, so a second run at the same path built against stale sources (CI, stop
# 12). Both are cleared first.
package:
    rm -rf target/package
    find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -mindepth 2 -maxdepth 2 -type d -path '*/src/-*/equijson*' -exec rm -rf {} +
    cargo package --locked --allow-dirty -p equijson -p equijson-check -p equijson-pg -p equijson-cli

# Peak RSS of canonicalization and --check, tape (before) against streaming (after).
bench-memory *ARGS:
    cargo bench --locked -p equijson-bench --bench memory -- {{ARGS}}

# JSON Lines lines/s and the CLI against the library on a ~100 MB document.
# `EQUIJSON_BIN_BEFORE=path/to/old/equijson` adds an older build's figures.
bench-cli *ARGS:
    cargo build --release --locked -p equijson-cli
    cargo bench --locked -p equijson-bench --bench lines -- {{ARGS}}

# Sorting 1,000,000 ASCII against 1,000,000 non-ASCII member names.
bench-keys *ARGS:
    cargo bench --locked -p equijson-bench --bench keys -- {{ARGS}}

# Every benchmark table of the README.
bench-all: bench bench-allocs bench-memory bench-cli bench-keys

# Inputs past the old limits (not in CI): a 5 GB sparse file refused from its size, and a
# 1.1 GB array of `1e20` whose 4.8 GB canonical form passes 4 GiB (needs about 7 GB RAM).
big-inputs:
    cargo build --release --locked -p equijson-cli
    cargo test --release --locked -p equijson-cli --test big_inputs -- --ignored --nocapture

# `pg scan` against raw binary COPY on seeded ~330-byte contact rows, peak RSS (ephemeral
# cluster; `just bench-pg 1000000 4000000 --samples 3`).
bench-pg *ARGS:
    cargo run --release --locked -p equijson-pg --example scan_bench -- {{ARGS}}

# The reviewers' page: build it into target/web and serve it on 127.0.0.1 (`just web 9000`; 0 = any free port).
web PORT="8787": web-build
    node web/serve.mjs --port {{PORT}}

# Build the page into target/web: wasm-pack --target web, npm binaryen's wasm-opt, PGlite's assets.
web-build: web-deps
    cd web && node build.mjs

# web/'s npm packages (playwright-core, PGlite, binaryen), installed from package-lock.json.
web-deps:
    if [ ! -e web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then cd web && npm ci --no-audit --no-fund; fi

# Everything the page is tested with: its oracles in Node, the binding in headless Chromium, then end to end.
web-verify: web-node-test web-wasm-test web-e2e

# The page's oracles in Node: the JS canonicalizer on the RFC 8785 vectors, PGlite on the recorded jsonb tables.
web-node-test: web-deps
    cd web && node --test test/

# The binding's tests in a real headless Chromium (wasm-pack test); fails unless they ran.
web-wasm-test:
    #!/usr/bin/env bash
    set -euo pipefail
    cd crates/equijson-wasm
    out=$(wasm-pack test --headless --chrome --test browser --locked 2>&1) || { printf '%s\n' "$out"; exit 1; }
    printf '%s\n' "$out" | grep -E '^(Running headless tests in|test |test result)'
    # A test file without run_in_browser is skipped with exit 0: insist on a browser run.
    grep -q '^Running headless tests in Chrome' <<<"$out" || { echo "web-wasm-test: not run in Chrome"; exit 1; }
    n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' <<<"$out")
    [ "${n:-0}" -ge 5 ] || { echo "web-wasm-test: expected at least 5 browser tests to pass, saw ${n:-none}"; exit 1; }

# The page end to end in headless Chromium: digests equal the CLI's for every DTO, both oracles agree, errors located.
web-e2e *ARGS: web-build
    cargo build -q --release --locked -p equijson-cli
    node web/e2e.mjs {{ARGS}}

# The npm package `equijson` (npm/): wasm-pack build of crates/equijson-js, wasm-opt, then
# target/npm/equijson-<version>.tgz.
npm-pack:
    bash scripts/npm-pack.sh

# Installs that tarball into a scratch project and runs its node:test suites: require and
# import, RFC 8785 vectors, every error kind, agreement with the native CLI, headless Chromium.
npm-test: npm-pack
    bash scripts/npm-test.sh

# The package against canonicalize@5 and json-canonicalize@3, strings in and out (prints a
# table; `just npm-bench --samples 31 FILE...`).
npm-bench *ARGS: npm-pack
    node npm/bench/bench.mjs {{ARGS}}

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

# Server binaries pinned in tests/pg-versions/, fetched once with npm into target/pg-versions
# (scripts/pg-versions.sh). Per version, on its own ephemeral cluster: the whole sql_canonical
# suite, the recorded jsonb tables, `pg install-sql`/`uninstall-sql`, `pg roundtrip --seed 1
# --cases 300`. `just pg-versions 13 17`: those only.
# equijson_canonical and the jsonb model on PostgreSQL 13, 14, 16, 17: server version and PASS/FAIL each.
pg-versions *MAJORS:
    bash scripts/pg-versions-test.sh {{MAJORS}}

# `just pg-versions` with a tenth of the KAT and of the generated documents (part of `just verify`).
pg-versions-quick *MAJORS:
    bash scripts/pg-versions-test.sh --quick {{MAJORS}}

# Differential runs against the JavaScript engine (`just differential 1 2 3`): canon on
# 20,000 seeded documents and the inexact/negative-zero policies on 20,000 numbers per seed.
differential *SEEDS="1":
    cargo build -q --release --locked -p equijson-cli
    for s in {{SEEDS}}; do node scripts/differential/canon.mjs "$s" 20000 && node scripts/differential/inexact.mjs "$s" 20000; done

# --- docs-book ---

# The book: mdBook builds docs/ into target/book; every internal link and anchor resolves; its examples compile and run.
book:
    mdbook build docs
    node scripts/check-book-links.mjs --html target/book
    EQUIJSON_REQUIRE_PG="${EQUIJSON_REQUIRE_PG:-1}" cargo test --locked -p equijson-check --test readme -p equijson-pg --test book -p equijson-cli --test book

# --- npm-toolchains ---

# The npm package through esbuild, webpack, Vite, Rollup and workerd, run in node/Chromium/workerd.
npm-bundlers: npm-pack
    bash scripts/npm-bundlers.sh

# --- serde-user ---
# The decode engine in a crate built WITH serde_json's float_roundtrip (tests/float-roundtrip-user:
# its own workspace, lockfile and target dir; ~40 s the first time). Also run by
# `cargo test -p equijson-cli --test serde_user`.
float-roundtrip-user:
    CARGO_TARGET_DIR=target/float-roundtrip-user cargo test --locked --manifest-path tests/float-roundtrip-user/Cargo.toml
