#!/usr/bin/env bash
# Builds the release binary as the release workflow ships it: `scripts/dist.sh [TARGET]`
# (default: this machine's target) -> target/TARGET/dist/equijson, printed on the last line.
#
# The `dist` cargo profile (fat LTO, one codegen unit, stripped), and on
# x86_64-unknown-linux-gnu a static position-independent executable: glibc linked in,
# relocated by itself at start-up (`-C target-feature=+crt-static`), so no dynamic loader,
# no symbol lookups, and the address-space randomization of a PIE kept; its relative
# relocations packed (`-z pack-relative-relocs`, DT_RELR) when the linking glibc is 2.36 or
# newer (its static start-up code applies them). Start-up, measured with `just
# bench-startup`: docs/src/benchmarks.md#start-up. Other targets: the profile alone.
#
# The flags go to this build only: with `--target`, RUSTFLAGS reach the target's crates,
# not build scripts or proc macros, and the artifacts live under target/TARGET/, apart
# from the debug and release builds (which are not rebuilt).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:-$(rustc -vV | sed -n 's/^host: //p')}"
flags=""
if [ "$target" = x86_64-unknown-linux-gnu ]; then
  flags="-C target-feature=+crt-static"
  glibc=$(ldd --version 2>/dev/null | head -1 | grep -oE '[0-9]+\.[0-9]+$' || true)
  if [ -n "$glibc" ] && printf '2.36\n%s\n' "$glibc" | sort -V -C; then
    flags="$flags -C link-arg=-Wl,-z,pack-relative-relocs"
  fi
fi
RUSTFLAGS="${RUSTFLAGS:-} $flags" cargo build --locked --profile dist -p equijson-cli --target "$target"

bin="target/$target/dist/equijson"
case "$target" in
  *-linux-*)
    # The shipped binary must stay position-independent (ASLR): ELF type DYN.
    if ! readelf -h "$bin" | grep -q 'Type: *DYN'; then
      echo "dist: $bin is not a position-independent executable" >&2
      exit 1
    fi
    ;;
esac
"$bin" --version >&2
echo "$bin"
