# equijson task runner. `just verify` is what CI runs; `bash scripts/setup.sh` installs the tools.

set shell := ["bash", "-euo", "pipefail", "-c"]

# List the recipes.
default:
    @just --list

# Everything CI checks: format, lints (native + wasm32), tests, number KAT, wasm32 build
# and tests in Node (same property digests as native).
verify: fmt-check clippy test kat wasm-build wasm-test props-cross core-minimal docs package npm-test

# Check formatting.
fmt-check:
    cargo fmt --all -- --check

# Clippy with warnings as errors, natively (all targets) and for wasm32.
clippy:
    cargo clippy --workspace --all-targets --locked -- -D warnings
    cargo clippy -p equijson -p equijson-wasm --target wasm32-unknown-unknown --locked -- -D warnings
    cargo clippy -p equijson-js --target wasm32-unknown-unknown --locked -- -D warnings

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

# The main job: canonical forms of the RFC 8785 samples, a decode-equivalence report and
# property runs over the DTO catalogue.
demo:
    cargo build -q --release --locked -p equijson-cli
    bash scripts/demo.sh target/release/equijson

# The core without default features (parser, writer, serializer only): clippy and tests.
core-minimal:
    cargo clippy -p equijson --no-default-features --all-targets --locked -- -D warnings
    cargo test -p equijson --no-default-features --locked

# API docs of every crate, warnings as errors.
docs:
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

# `cargo package` (with its verifying build) for every publishable crate.
package:
    cargo package --locked --allow-dirty -p equijson -p equijson-cli

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

# npm package `equijson` (npm/, crates/equijson-js): wasm-pack, wasm-opt -> target/npm/equijson-<version>.tgz.
npm-pack:
    bash scripts/npm-pack.sh

# The tarball installed in a scratch project: node:test via require and import, native CLI agreement, Chromium.
npm-test: npm-pack
    bash scripts/npm-test.sh

# The package against canonicalize@5 and json-canonicalize@3, strings in and out (`--samples N`, files).
npm-bench *ARGS: npm-pack
    node npm/bench/bench.mjs {{ARGS}}
