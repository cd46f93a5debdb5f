#!/usr/bin/env bash
# Runs upstream wazero's own tests of the packages rea patches, over the
# patched files: the module proxy's v1.12.0 (with its tests) is copied to a
# temporary directory, third_party/wazero's files are laid over it, and
# `go test` runs there. A few minutes on 2 cores; not part of `make test`
# (which checks the copy is upstream plus the listed patches).
set -euo pipefail
cd "$(dirname "$0")/.."
version=v1.12.0
src=$(go mod download -json "github.com/tetratelabs/wazero@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -d "$src" ] || { echo "wazero-check: go mod download github.com/tetratelabs/wazero@$version failed (needs the Go module proxy)" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
chmod -R u+w "$work"
(cd third_party/wazero && find . -name '*.go' -print0 | while IFS= read -r -d '' f; do
	cmp -s "$f" "$work/$f" || { echo "patched: ${f#./}"; cp "$f" "$work/$f"; }
done)
cd "$work"
go test -count=1 . ./internal/wasm/... ./internal/engine/wazevo/... ./internal/platform/... ./internal/integration_test/spectest/...
