#!/usr/bin/env bash
# Issue 22's goals beside their measurements: cold (empty result cache,
# compiled modules cached) and warm (result-cache hit) wall time and peak
# RSS of `rea analyze-javascript-application` on the real apps (and the
# warm run's CPU, user + system, which a loaded machine does not inflate), and `rea mcp`
# start → tools/list from build/bench.txt. `make bench` runs it last; it
# runs alone too (after `make`). The apps come from `make accuracy`
# (build/accuracy) and `make realworld` (build/realworld); an app not
# materialised is named with the command that brings it.
#
#   GOAL_RUNS=3   runs per app and mode (the median is printed)
#   TSREA=1       also run the TypeScript REA (built by scripts/tsrea.sh) once
#                 per app, cold, with its default limits, and print the
#                 speed-up measured here beside the recorded one (minutes per app)
set -euo pipefail
cd "$(dirname "$0")/.."
rea=${REA_BIN:-bin/rea}
runs=${GOAL_RUNS:-3}
echo
echo "## issue 22 goals ($(date -u +%H:%MZ), load:$(uptime | sed 's/.*load average://'))"
# name | path | goal cold s | speed-up goal over the TypeScript REA |
# TypeScript REA seconds ("" = none recorded) | where that figure comes from.
# Every figure is the TypeScript REA 3.1 (scripts/tsrea.sh's build, its
# default limits, an empty HOME) measured on this project's 2-vCPU VM in
# session 16: the median of three cold runs (docs/benchmarks.md). Issue
# 22's own figures (create-electron about 21 s, fiddle about 39 s) were
# for inputs or a machine other than these: the same tool takes 3 s and
# 20 s on the apps below. TSREA=1 measures it again beside rea.
apps=(
	"create-electron|build/accuracy/create-electron-svelte-ts/src|0.6|40|2.96|2.74-3.18 s, session 16"
	"nativefier app|build/accuracy/nativefier/src/package/app|0.6|40|43.29|40.2-46.9 s, session 16"
	"fiddle src|build/accuracy/electron-fiddle/src|0.8|40|19.97|18.2-23.3 s, session 16"
	"@theia/core lib|build/realworld/_theia_core_1.75.0/package/lib|2.5|100|177.68|171-244 s, session 16"
	"whole @theia/core|build/realworld/_theia_core_1.75.0/package|5|100|202.02|194-221 s, session 16"
)
tsrea_dir=$PWD/build/tsrea
if [ -n "${TSREA:-}" ] && [ ! -f "$tsrea_dir/src/package.json" ]; then
	echo "TSREA=1 needs the TypeScript REA built: ./scripts/tsrea.sh" >&2
	exit 2
fi
# tsrea_seconds DIR: the TypeScript REA's cold wall time on DIR (its CLI,
# default limits, an empty HOME so no cache or setting of an earlier run is
# read), or "-" when it failed.
tsrea_seconds() {
	local dir home t
	dir=$(cd "$1" && pwd)
	home=$(mktemp -d)
	t=$(mktemp)
	if (cd "$tsrea_dir/src" && env HOME="$home" PATH="$tsrea_dir/node22/package/bin:$PATH" \
		REA_INVESTIGATION_INPUT_ROOTS_JSON="[\"$dir\"]" /usr/bin/time -o "$t" -f '%e' \
		node scripts/rea.mjs analyze-javascript-application "$dir" --approved --format json >/dev/null 2>&1); then
		tail -1 "$t"
	else
		echo "-"
	fi
	rm -rf "$home" "$t"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }
printf '%-18s %8s %6s %8s %6s %8s %6s %8s %9s %6s  %s\n' app cold goal x-TS-REA goal warm goal warm-cpu peak-MiB goal "TypeScript REA figure"
for spec in "${apps[@]}"; do
	IFS='|' read -r name dir goal xgoal ts tsnote <<<"$spec"
	if [ ! -d "$dir" ]; then
		tsfig="no recorded figure"
		if [ -n "$ts" ]; then tsfig="≈ $ts s ($tsnote)"; fi
		printf '%-18s %8s %5ss %8s %5sx %8s %5ss %8s %9s %6s  %s — not materialised (%s): run make accuracy / make realworld\n' \
			"$name" "-" "$goal" "-" "≥$xgoal" "-" "0.15" "-" "-" "250" "$tsfig" "$dir"
		continue
	fi
	cache=$(mktemp -d)
	cold=() warm=() rss=() warmcpu=()
	for _ in $(seq "$runs"); do
		rm -rf "$cache" && mkdir -p "$cache"
		for mode in cold warm; do
			/usr/bin/time -o "$cache.time" -f '%e %M %U %S' env REA_RESULT_CACHE_DIR="$cache" "$rea" analyze-javascript-application "$dir" \
				--format json --fail-on-partial=false --max-ast-nodes 20000000 >/dev/null 2>&1 || true
			read -r e m u k < <(tail -1 "$cache.time")
			if [ "$mode" = cold ]; then cold+=("$e"); rss+=("$m"); else warm+=("$e"); warmcpu+=("$(awk -v u="$u" -v k="$k" 'BEGIN { print u + k }')"); fi
		done
	done
	rm -rf "$cache" "$cache.time"
	c=$(printf '%s\n' "${cold[@]}" | median)
	w=$(printf '%s\n' "${warm[@]}" | median)
	wc=$(printf '%s\n' "${warmcpu[@]}" | median)
	m=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1 | awk '{printf "%.0f", $1/1024}')
	x="–"
	if [ -n "$ts" ] && [ "$c" != "-" ]; then x=$(awk -v t="$ts" -v c="$c" 'BEGIN { if (c > 0) printf "%.0fx", t / c; else print "-" }'); fi
	tsfig="no recorded figure"
	if [ -n "$ts" ]; then tsfig="≈ $ts s ($tsnote)"; fi
	if [ -n "${TSREA:-}" ]; then
		here=$(tsrea_seconds "$dir")
		tsfig="$tsfig; here now: $here s"
		if [ "$here" != "-" ] && [ "$c" != "-" ]; then
			tsfig="$tsfig = $(awk -v t="$here" -v c="$c" 'BEGIN { if (c > 0) printf "%.0fx", t / c; else print "-" }')"
		fi
	fi
	printf '%-18s %7ss %5ss %8s %5sx %7ss %5ss %7ss %9s %6s  %s\n' "$name" "$c" "$goal" "$x" "≥$xgoal" "$w" "0.15" "$wc" "$m" "250" "$tsfig"
done
# Issue 22 point 4: the per-entry inventory cost (no TypeScript REA figure:
# it does not verify ASAR integrity).
if [ -f build/bench.txt ] && grep -q '^BenchmarkInspectArtifactSmallFilesVersusSha256sum' build/bench.txt; then
	grep '^BenchmarkInspectArtifactSmallFilesVersusSha256sum' build/bench.txt | awk '
	function metric(unit,   i) { for (i = 2; i <= NF; i++) if ($i == unit) return $(i-1); return "" }
	{ name = $1; sub(/^BenchmarkInspectArtifactSmallFilesVersusSha256sum\//, "", name); sub(/-[0-9]+$/, "", name)
	  goal = (name ~ /small/) ? "goal <= 1.1" : "reference, was 0.96"
	  printf "1 GiB ASAR, %s: %s x sha256sum wall, %s x its CPU (%s); %s us CPU per small entry; no TypeScript REA figure\n", name, metric("x-sha256sum"), metric("cpu-x-sha256sum"), goal, (metric("per-entry-cpu-us") == "" ? "-" : metric("per-entry-cpu-us")) }'
else
	echo "1 GiB ASAR of small files: not measured (BENCH=InspectArtifactSmallFiles BENCHTIME=1x ./scripts/bench.sh)"
fi
if [ -f build/bench.txt ] && grep -q '^BenchmarkMCPStartToFirstToolsList' build/bench.txt; then
	grep '^BenchmarkMCPStartToFirstToolsList' build/bench.txt | tail -1 | awk '
	function metric(unit,   i) { for (i = 2; i <= NF; i++) if ($i == unit) return $(i-1); return "" }
	{ printf "rea mcp start -> tools/list: p50 %s ms (goal <= 100), p99 %s ms (goal <= 200); TypeScript REA: no published figure\n", metric("p50-ms"), metric("p99-ms") }'
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
