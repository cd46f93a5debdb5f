#!/usr/bin/env bash
# Issue 22's goals beside their measurements: cold (empty result cache,
# compiled modules cached) and warm (result-cache hit) wall time and peak
# RSS of `rea analyze-javascript-application` on the real apps, and `rea mcp`
# start → tools/list from build/bench.txt. `make bench` runs it last; it
# runs alone too (after `make`). The apps come from `make accuracy`
# (build/accuracy) and `make realworld` (build/realworld); an app not
# materialised is named with the command that brings it.
#
#   GOAL_RUNS=3   runs per app and mode (the median is printed)
set -euo pipefail
cd "$(dirname "$0")/.."
rea=${REA_BIN:-bin/rea}
runs=${GOAL_RUNS:-3}
echo
echo "## issue 22 goals ($(date -u +%H:%MZ), load:$(uptime | sed 's/.*load average://'))"
# name | path | goal cold s | TypeScript REA figure from the docs
apps=(
	"create-electron|build/accuracy/create-electron-svelte-ts/src|0.6|–"
	"nativefier app|build/accuracy/nativefier/src/package/app|0.6|–"
	"fiddle src|build/accuracy/electron-fiddle/src|0.8|–"
	"@theia/core lib|build/realworld/_theia_core_1.75.0/package/lib|2.5|–"
	"whole @theia/core|build/realworld/_theia_core_1.75.0/package|5|≈ 300 s, 5.6 GB (DESIGN.md: a 17 MB, 3,000-file framework)"
)
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
printf '%-18s %8s %6s %8s %6s %9s %6s  %s\n' app cold goal warm goal peak-MiB goal "TypeScript REA"
for spec in "${apps[@]}"; do
	IFS='|' read -r name dir goal ts <<<"$spec"
	if [ ! -d "$dir" ]; then
		printf '%-18s not materialised (%s): run make accuracy / make realworld\n' "$name" "$dir"
		continue
	fi
	cache=$(mktemp -d)
	cold=() warm=() rss=()
	for _ in $(seq "$runs"); do
		rm -rf "$cache" && mkdir -p "$cache"
		for mode in cold warm; do
			/usr/bin/time -o "$cache.time" -f '%e %M' env REA_RESULT_CACHE_DIR="$cache" "$rea" analyze-javascript-application "$dir" \
				--format json --fail-on-partial=false --max-ast-nodes 20000000 >/dev/null 2>&1 || true
			t=$(tail -1 "$cache.time")
			if [ "$mode" = cold ]; then cold+=("${t% *}"); rss+=("${t#* }"); else warm+=("${t% *}"); fi
		done
	done
	rm -rf "$cache" "$cache.time"
	c=$(printf '%s\n' "${cold[@]}" | median)
	w=$(printf '%s\n' "${warm[@]}" | median)
	m=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1 | awk '{printf "%.0f", $1/1024}')
	printf '%-18s %7ss %5ss %7ss %5ss %9s %6s  %s\n' "$name" "$c" "$goal" "$w" "0.15" "$m" "250" "$ts"
done
if [ -f build/bench.txt ] && grep -q '^BenchmarkMCPStartToFirstToolsList' build/bench.txt; then
	grep '^BenchmarkMCPStartToFirstToolsList' build/bench.txt | tail -1 | awk '
	function metric(unit,   i) { for (i = 2; i <= NF; i++) if ($i == unit) return $(i-1); return "" }
	{ printf "rea mcp start -> tools/list: p50 %s ms (goal <= 100), p99 %s ms (goal <= 200)\n", metric("p50-ms"), metric("p99-ms") }'
else
	echo "rea mcp start -> tools/list: not measured (BENCH=MCPStartToFirstToolsList ./scripts/bench.sh)"
fi
# Issue 23's speed goal, from the same build/bench.txt.
if [ -f build/bench.txt ] && grep -q '^BenchmarkReadJavaScriptSourceOneMegabyteMinified' build/bench.txt; then
	grep '^BenchmarkReadJavaScriptSourceOneMegabyteMinified' build/bench.txt | tail -1 | awk '
	function metric(unit,   i) { for (i = 2; i <= NF; i++) if ($i == unit) return $(i-1); return "" }
	{ printf "read_javascript_source on a 1 MB minified bundle, warm: %s ms wall, %s ms CPU (goal <= 500 ms)\n", metric("warm-ms"), metric("warm-cpu-ms") }'
else
	echo "read_javascript_source on a 1 MB minified bundle: not measured (BENCH=ReadJavaScriptSourceOneMegabyteMinified ./scripts/bench.sh)"
fi
