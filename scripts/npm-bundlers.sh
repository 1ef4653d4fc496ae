#!/usr/bin/env bash
# The npm package in real toolchains: installs target/npm/equijson-<version>.tgz (from
# `just npm-pack`) into target/npm/bundlers, builds tiny apps with esbuild, webpack, Vite
# and Rollup (pinned in npm/test/bundlers/package-lock.json) for Node, browsers and
# Cloudflare Workers, and runs them: node, headless Chromium, workerd (npm/test/bundlers/run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(node -p "require('./npm/package.json').version")
tgz=$root/target/npm/equijson-$version.tgz
if [ ! -f "$tgz" ]; then
  echo "npm-bundlers: $tgz not found: run \`just npm-pack\` first" >&2
  exit 2
fi
for dir in npm npm/test/bundlers; do
  if [ ! -f $dir/node_modules/.package-lock.json ] || [ $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]; then
    (cd $dir && npm ci --no-audit --no-fund --loglevel=error)
  fi
done

# The tarball unpacked where the apps resolve `equijson` (what `npm install` does for a
# package without dependencies).
work=$root/target/npm/bundlers
rm -rf "$work"
mkdir -p "$work/node_modules/equijson"
tar -xzf "$tgz" -C "$work/node_modules/equijson" --strip-components=1

export EQUIJSON_REPO=$root
export EQUIJSON_NPM_MODULES=$root/npm/node_modules
node npm/test/bundlers/run.mjs "$work"
