#!/usr/bin/env bash
# Issue 22 point 3: the lexer-level pass against the full parse on real
# applications. For each DIR, runs `rea analyze-javascript-application DIR
# --format json` RUNS times in each mode (REA_JS_PARSE=full, the default: a
# syntax tree for every file; REA_JS_PARSE=lexer), with the result cache
# off, and prints
#   - whether the two results are identical once the files the lexer pass
#     reported from their scan are given the full parse's bookkeeping
#     (parsed_by "lexer", ast_nodes 0; visited_ast_nodes checked to differ
#     by exactly their nodes): "identical" or "DIFFERENT" (the diff is kept
#     under build/lexpass/);
#   - modules, files reported from their scan, and the minimum wall, user+sys
#     CPU and peak RSS of the runs of each mode.
#
#   RUNS=3 scripts/lexpass-compare.sh build/accuracy/*/src
set -euo pipefail
cd "$(dirname "$0")/.."
rea=${REA_BIN:-bin/rea}
runs=${RUNS:-3}
out=build/lexpass
mkdir -p "$out"
echo "# lexer pass vs full parse ($(date -u +%H:%MZ), load:$(uptime | sed 's/.*load average://'))"
printf '%-44s %-10s %7s %6s %9s %9s %9s %9s %7s %7s\n' app result modules lexed wall-full wall-lex cpu-full cpu-lex rss-full rss-lex
status=0
for dir in "$@"; do
	name=$(echo "$dir" | sed 's|^build/||; s|/|_|g')
	declare -A best=()
	for mode in full lex; do
		env=(REA_JS_PARSE=full)
		[ "$mode" = lex ] && env=(REA_JS_PARSE=lexer)
		for _ in $(seq "$runs"); do
			/usr/bin/time -o "$out/$name.$mode.time" -f '%e %U %S %M' env "${env[@]}" REA_RESULT_CACHE_DIR=off "$rea" \
				analyze-javascript-application "$dir" --format json --fail-on-partial=false --max-ast-nodes 20000000 \
				>"$out/$name.$mode.json" 2>"$out/$name.$mode.err" || true
			read -r w u s m <"$out/$name.$mode.time"
			c=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')
			for k in wall:$w cpu:$c rss:$m; do
				key="${k%%:*}.$mode" v="${k#*:}"
				if [ -z "${best[$key]:-}" ] || awk -v a="$v" -v b="${best[$key]}" 'BEGIN{exit !(a<b)}'; then best[$key]=$v; fi
			done
		done
	done
	norm='.normalized_result.application'
	lexed=$(jq -c "[$norm.modules[] | select(.parsed_by==\"lexer\") | .path]" "$out/$name.lex.json")
	jq -c --argjson lexed "$lexed" --argjson lexvisited "$(jq "$norm.statistics.visited_ast_nodes" "$out/$name.lex.json")" "
		$norm | . as \$a
		| ([.modules[] | select(.path as \$p | \$lexed | index(\$p)) | .ast_nodes] | add // 0) as \$n
		| if (.statistics.visited_ast_nodes - \$n) != \$lexvisited then error(\"visited_ast_nodes differ by more than the lexed files' nodes\") else . end
		| .modules |= map(if (.path as \$p | \$lexed | index(\$p)) then .parsed_by = \"lexer\" | .ast_nodes = 0 else . end)
		| .statistics.visited_ast_nodes = \$lexvisited" "$out/$name.full.json" >"$out/$name.full.norm" || echo '"normalisation failed"' >"$out/$name.full.norm"
	jq -c "$norm" "$out/$name.lex.json" >"$out/$name.lex.norm"
	verdict=identical
	if ! cmp -s "$out/$name.full.norm" "$out/$name.lex.norm"; then
		verdict=DIFFERENT status=1
		diff <(jq . "$out/$name.full.norm") <(jq . "$out/$name.lex.norm") >"$out/$name.diff" || true
	fi
	printf '%-44s %-10s %7s %6s %8ss %8ss %8ss %8ss %6sM %6sM\n' "$name" "$verdict" \
		"$(jq "$norm.modules | length" "$out/$name.lex.json")" "$(jq 'length' <<<"$lexed")" \
		"${best[wall.full]}" "${best[wall.lex]}" "${best[cpu.full]}" "${best[cpu.lex]}" \
		"$((best[rss.full] / 1024))" "$((best[rss.lex] / 1024))"
	unset best
done
exit $status
