#!/usr/bin/env bash
# Runs rea's Go benchmarks and prints the numbers the issues set targets for,
# as ratios to their targets. `make bench` calls it after building; copy the
# printed table into docs/benchmarks.md together with this command.
#
#   BENCH=regexp   restrict to matching benchmarks (default: all)
#   BENCHTIME=…    go test -benchtime of the quick benchmarks (default 20x)
# With no BENCH, heavy benchmarks (generated 1 GiB archives, 50 MB apps,
# 60 MiB binaries) run once each whatever BENCHTIME says.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
out=build/bench.txt
bench=${BENCH:-.}
benchtime=${BENCHTIME:-20x}
# Heavy benchmarks run once each: the list below, and heavy_more (kept on
# its own line so that adding one does not rewrite the list).
heavy_more='DMGVersusTool'
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(go version) on $(nproc) cores" | tee "$out"
pkgs=$(grep -rl --include='*_test.go' -E '^func Benchmark' . | grep -v /testdata/ | xargs -n1 dirname | sort -u)
heavy='GojaParseFloor|SearchGuidance|InspectArtifactVersusSha256sum|InspectArtifactSmallFiles|AnalyzeGeneratedApp|BinaryOverviewSandbox|LayoutAndProcedureDiscovery|3000Module|FourMiB|InstallerFormats|SevenZipVersusTool|NSISVersusTool|NativeDepthDiscoveryAndDiff'
for p in $pkgs; do
	if [ "$bench" = "." ]; then
		# Everything: quick benchmarks BENCHTIME times, heavy ones once.
		go test -run '^$' -bench . -skip "$heavy|$heavy_more" -benchtime "$benchtime" -timeout 30m "$p" 2>&1 | grep -E '^(Benchmark|ok|FAIL|---)' | tee -a "$out"
		go test -run '^$' -bench "$heavy|$heavy_more" -benchtime 1x -timeout 30m "$p" 2>&1 | grep -E '^Benchmark' | tee -a "$out" || true
	else
		go test -run '^$' -bench "$bench" -benchtime "$benchtime" -timeout 30m "$p" 2>&1 | grep -E '^(Benchmark|ok|FAIL|---)' | tee -a "$out"
	fi
done
echo
echo "## against targets"
awk '
function metric(line, unit,   i, n, f) { n = split(line, f, /[ \t]+/); for (i = 2; i <= n; i++) if (f[i] == unit) return f[i-1]; return "" }
/^BenchmarkTrivialRequestWarm/ { m = metric($0, "median-ms"); printf "sandbox fixed cost, warm: median %s ms (target <= 20 ms, ratio %.2f)\n", m, m/20 }
/^BenchmarkCompileLargestModule/ { c = metric($0, "cached-compile-s"); k = metric($0, "cold-compile-s"); printf "largest module compile: cached %s s (target <= 0.5 s, ratio %.2f), cold %s s\n", c, c/0.5, k }
/^BenchmarkMCPStartToFirstToolsList/ { m = metric($0, "p50-ms"); printf "MCP start to first tools/list: median %s ms (target <= 100 ms, ratio %.2f), p99 %s ms (target <= 200 ms)\n", m, m/100, metric($0, "p99-ms") }
/^BenchmarkMCPSequentialSmallCalls/ { printf "MCP 100 sequential small calls: p50 %s ms, p99 %s ms\n", metric($0, "p50-ms"), metric($0, "p99-ms") }
/^BenchmarkMCPSearchGuidance/ { m = metric($0, "p50-ms"); printf "search_guidance over MCP, new queries paced 20 ms: p50 %s ms (target <= 5 ms, ratio %.2f); back to back p50 %s ms; repeated p50 %s ms\n", m, m/5, metric($0, "burst-p50-ms"), metric($0, "repeat-p50-ms") }
/^BenchmarkSearchGuidance/ { m = metric($0, "p50-ms"); printf "search_guidance in process, new queries paced 20 ms: p50 %s ms (target <= 5 ms, ratio %.2f); back to back p50 %s ms\n", m, m/5, metric($0, "burst-p50-ms") }
/^BenchmarkJSApp3000ModulesVersusNative/ { printf "%s: %s s through the sandbox vs %s s natively = %s x (target <= 4 x); one instance %s x; fuel %s G, module peak %s MiB, service peak RSS %s MiB\n", $1, metric($0, "sandbox-s"), metric($0, "native-s"), metric($0, "x-native"), metric($0, "x-native-one-instance"), metric($0, "Gfuel"), metric($0, "module-peak-MiB"), metric($0, "sandbox-peak-rss-MiB") }
/^BenchmarkGojaParseFloor/ { printf "under that ratio: the goja parse of the 1 MB bundle alone (no rea code), %s ms natively vs %s ms in wazero metered = %s x (unmetered %s x)\n", metric($0, "native-ms"), metric($0, "wazero-metered-ms"), metric($0, "x-native-metered"), metric($0, "x-native") }
/^BenchmarkBinaryOverviewSandbox/ { printf "binary_overview of a %s MiB ELF: %s s vs objdump -d %s s = %s x (target < 1); rea analyze %s x, peak RSS %s MiB\n", metric($0, "file-MiB"), metric($0, "overview-s"), metric($0, "objdump-s"), metric($0, "x-objdump"), metric($0, "rea-analyze-x-objdump"), metric($0, "rea-analyze-peak-rss-MiB") }
/^BenchmarkNativeDepthDiscoveryAndDiff/ { printf "native depth on a %s MiB binary: discovery of %s procedures %s s = %s x objdump -d (%s s; stripped copy %s procedures in %s s), list_types %s s = %s x readelf --debug-dump=info (%s s), diff against the stripped copy %s s = %s x objdump -d (%s unchanged, %s changed); goal (issue 26): discovery and diff of a >= 50 MB binary inside the 1 GiB module limit, %s\n", metric($0, "file-MiB"), metric($0, "procedures"), metric($0, "discovery-s"), metric($0, "discovery-x-objdump"), metric($0, "objdump-s"), metric($0, "stripped-procedures"), metric($0, "stripped-discovery-s"), metric($0, "types-s"), metric($0, "types-x-readelf"), metric($0, "readelf-debug-s"), metric($0, "diff-s"), metric($0, "diff-x-objdump"), metric($0, "diff-unchanged"), metric($0, "diff-changed"), (metric($0, "file-MiB") >= 47.7 ? "met" : "not met: the binary is under 50 MB") }
/^BenchmarkDMGVersusTool/ { printf "%s: a %s MiB .dmg (UDIF of zlib chunks around an HFS+ volume) inspected (inventory + every byte hashed) in %s s vs 7z x unpacking it in %s s = %s x wall, %s x CPU (%s s vs %s s) (target <= 1.5)\n", $1, metric($0, "file-MiB"), metric($0, "inspect-s"), metric($0, "tool-s"), metric($0, "x-tool"), metric($0, "cpu-x-tool"), metric($0, "inspect-cpu-s"), metric($0, "tool-cpu-s") }
/^BenchmarkMeteredVsUnmetered/ { r = metric($0, "metered/unmetered"); if (r != "") printf "fuel metering overhead %s: %+.0f %% (target <= 30 %%)\n", $1, (r-1)*100 }
/^BenchmarkReadJavaScriptSourceOneMegabyteMinified/ { m = metric($0, "warm-ms"); printf "read_javascript_source on a 1 MB minified bundle, warm: %s ms wall (target <= 500 ms, ratio %.2f), %s ms CPU; first read (module list parsed) %s s\n", m, m/500, metric($0, "warm-cpu-ms"), metric($0, "first-read-s") }
/^BenchmarkRender3000Modules/ { m = metric($0, "ns/op") / 1e9; printf "HTML report of a 3,000-module app: %.3f s (target <= 1 s, ratio %.2f)\n", m, m }
/^BenchmarkInstallerFormatsVersusTools/ { printf "%s: a %s MiB package inspected (inventory + every byte hashed) in %s s vs its own tool unpacking it in %s s = %s x wall, %s x CPU (%s s vs %s s) (target <= 1.5)\n", $1, metric($0, "file-MiB"), metric($0, "inspect-s"), metric($0, "tool-s"), metric($0, "x-tool"), metric($0, "cpu-x-tool"), metric($0, "inspect-cpu-s"), metric($0, "tool-cpu-s") }
/^BenchmarkInspectArtifactSmallFilesVersusSha256sum/ { printf "%s: %s x sha256sum wall, %s x its CPU (issue 22 goal for the small-file case <= 1.1), %s us CPU per small entry\n", $1, metric($0, "x-sha256sum"), metric($0, "cpu-x-sha256sum"), metric($0, "per-entry-cpu-us"); next }
/^BenchmarkSevenZipVersusTool/ { printf "%s: a %s MiB 7z archive inspected (inventory + every byte hashed) in %s s vs 7z x unpacking it in %s s = %s x wall, %s x CPU (%s s vs %s s) (target <= 1.5)\n", $1, metric($0, "file-MiB"), metric($0, "inspect-s"), metric($0, "tool-s"), metric($0, "x-tool"), metric($0, "cpu-x-tool"), metric($0, "inspect-cpu-s"), metric($0, "tool-cpu-s") }
/^BenchmarkNSISVersusTool/ { printf "%s: a %s MiB NSIS installer inspected (inventory + CRC-32 + every byte hashed) in %s s vs 7z x unpacking it in %s s = %s x wall, %s x CPU (%s s vs %s s) (target <= 1.5)\n", $1, metric($0, "file-MiB"), metric($0, "inspect-s"), metric($0, "tool-s"), metric($0, "x-tool"), metric($0, "cpu-x-tool"), metric($0, "inspect-cpu-s"), metric($0, "tool-cpu-s") }
/x-sha256sum/ { printf "%s: %s x sha256sum (target <= 1.5), child peak RSS %s MiB (target <= 200)\n", $1, metric($0, "x-sha256sum"), metric($0, "child-peak-rss-MiB") }
' "$out"
# Issue 22's goals on the real apps (skipped apps are named).
[ -n "${BENCH:-}" ] || ./scripts/bench-goals.sh
