#!/usr/bin/env bash
# make realworld: run rea on real Electron code fetched from the npm registry
# and print counts. Opt-in (network, minutes); not part of make test.
#   REALWORLD="nativefier@52.0.0 @theia/core@1.75.0"   packages to fetch
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rea=${REA_BIN:-$root/bin/rea}
work=$root/build/realworld
mkdir -p "$work"
cd "$work"
packages=${REALWORLD:-"nativefier@52.0.0 @theia/core@1.75.0 electron-log@5.4.4"}
printf '%-28s %8s %8s %6s %6s %6s %8s %9s %s\n' package files modules windows ipc preload findings coverage seconds
for spec in $packages; do
	dir=$(echo "$spec" | tr '/@' '__')
	if [ ! -d "$dir/package" ]; then
		mkdir -p "$dir"
		tarball=$(cd "$dir" && npm pack --silent "$spec")
		tar -xzf "$dir/$tarball" -C "$dir"
	fi
	start=$(date +%s.%N)
	set +e
	"$rea" analyze-javascript-application "$dir/package" --format json --fail-on-partial=false --max-ast-nodes 20000000 > "$dir/evidence.json" 2> "$dir/stderr.txt"
	status=$?
	set -e
	took=$(echo "$(date +%s.%N) - $start" | bc)
	if [ $status -ne 0 ]; then
		echo "$spec: exit $status: $(tail -3 "$dir/stderr.txt")"
		continue
	fi
	node -e '
const e = require(process.argv[1]); const r = e.normalized_result, a = r.application, s = a.summary, st = a.statistics;
console.log([process.argv[2].padEnd(28), String(st.parsed_javascript_files).padStart(8), String(st.modules).padStart(8),
  String(s.browser_windows).padStart(6), String(s.ipc.operations).padStart(6), String(s.preload_entrypoints).padStart(6),
  String(a.findings.length).padStart(8), r.coverage.padStart(9), process.argv[3]].join(" "));' "$work/$dir/evidence.json" "$spec" "$took"
done
