#!/usr/bin/env bash
# Tests the npm package as a user gets it: installs target/npm/equijson-<version>.tgz (from
# `just npm-pack`) into a scratch project and runs node:test suites there, through
# `require` and `import`, against the native CLI, and in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(node -p "require('./npm/package.json').version")
tgz=$root/target/npm/equijson-$version.tgz
if [ ! -f "$tgz" ]; then
  echo "npm-test: $tgz not found: run \`just npm-pack\` first" >&2
  exit 2
fi

# The native side: the CLI, and documents from the core's portable generators.
cargo build -q --release --locked -p equijson-cli
cargo build -q --release --locked -p equijson-npm --example gen_docs
scratch=$root/target/npm/scratch
rm -rf "$scratch"
mkdir -p "$scratch/test"
"$root/target/release/examples/gen_docs" 20261201 300 6 "$scratch/docs"

# A fresh project that installs the tarball (no registry access: it has no dependencies).
cd "$scratch"
printf '{ "name": "equijson-scratch", "private": true, "version": "0.0.0" }\n' > package.json
npm install --no-audit --no-fund --offline --loglevel=error "$tgz" >/dev/null
cp "$root"/npm/test/*.cjs "$root"/npm/test/*.mjs test/
cp -r "$root"/npm/test/types test/

export EQUIJSON_REPO=$root
export EQUIJSON_NATIVE=$root/target/release/equijson
export EQUIJSON_DOCS=$scratch/docs
export EQUIJSON_NPM_MODULES=$root/npm/node_modules
node --test --test-reporter=spec test/require.test.cjs test/import.test.mjs test/package.test.mjs test/browser.test.mjs
