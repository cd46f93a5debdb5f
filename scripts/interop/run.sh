#!/usr/bin/env bash
# make interop: install the third-party peers (pinned in package.json) and
# run them against bin/rea: the TypeScript SDK client with Ajv validation,
# then the MCP Inspector CLI.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rea=${REA_BIN:-$root/bin/rea}
work=$root/build/interop
mkdir -p "$work"
cp "$here/package.json" "$here/check.mjs" "$here/contracts.mjs" "$work/"
cd "$work"
if [ ! -d node_modules/@modelcontextprotocol/sdk ] || [ package.json -nt node_modules ]; then
	npm install --no-audit --no-fund --loglevel=error >/dev/null
	touch node_modules
fi
# The Inspector CLI lists tools and calls one, as a person debugging would.
REA_LOG_LEVEL=error npx --no-install mcp-inspector --cli "$rea" mcp --method tools/list --strict > inspector-tools.json 2> inspector-lint.txt
# --strict lints every schema for portability: errors fail the run; the
# warnings (deliberate input-side type lists, see docs/rationale.md) are
# summarised, the full report stays in build/interop/inspector-lint.txt.
summary=$(grep -E '^[0-9]+ errors' inspector-lint.txt || echo "no lint summary")
echo "inspector --strict: $summary"
case "$summary" in "0 errors"*) ;; *) cat inspector-lint.txt >&2; exit 1 ;; esac
node -e 'const t=require("./inspector-tools.json").tools; if(!t||!t.length){process.exit(1)}; console.log("inspector: "+t.length+" tools")'
REA_LOG_LEVEL=error npx --no-install mcp-inspector --cli "$rea" mcp --method tools/call --tool-name binary_session > inspector-call.json
node -e 'const r=require("./inspector-call.json"); if(r.isError||!r.structuredContent){console.error(JSON.stringify(r).slice(0,500));process.exit(1)}; console.log("inspector: binary_session ok")'
# The strict input-schema profile through the Inspector's --strict lint:
# no errors and, unlike the full profile, no type-list warnings either.
# (The Inspector passes only -e variables to the server it starts.)
REA_LOG_LEVEL=error npx --no-install mcp-inspector --cli -e REA_MCP_INPUT_SCHEMA_PROFILE=strict "$rea" mcp --method tools/list --strict > inspector-strict-tools.json 2> inspector-strict-lint.txt
node -e 'const t=require("./inspector-strict-tools.json").tools; const lists=JSON.stringify(t.map(x=>x.inputSchema)).match(/"type":\[/g); if(!t.length||lists){console.error("strict profile not applied: "+(lists||[]).length+" type lists");process.exit(1)}'
if [ -s inspector-strict-lint.txt ] && ! grep -qE '^0 errors, 0 warnings' inspector-strict-lint.txt; then cat inspector-strict-lint.txt >&2; exit 1; fi
echo "inspector --strict, strict profile: no lint findings"
# Issue 21's contracts (-32602 paths, progress, byte-bounded pages, summary
# references, strict profile, the 10 MiB budget just under and over, doctor).
node contracts.mjs "$rea" "$root"
# Last, so its "N passed, N failed" line closes the run.
node check.mjs "$rea" "$root"
