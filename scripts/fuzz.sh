#!/usr/bin/env bash
# Runs every `func FuzzXxx` in the repository for FUZZTIME each (default
# 100000x). Prefer execution counts (Nx) to durations: under Go 1.26 a
# duration can end in a spurious "context deadline exceeded" failure with no
# crasher (golang/go#75804, fixed in Go 1.27).
# Seed corpora live in each package's testdata/fuzz/ and are also replayed by
# plain `go test`. The forks under third_party are modules of their own:
# `go test ./third_party` runs their fuzz targets.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-100000x}
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while IFS=: read -r file _ line; do
	name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/' <<<"$line")
	pkg="./$(dirname "$file")"
	start=$SECONDS
	printf 'fuzz %s %s (%s)' "$pkg" "$name" "$fuzztime"
	if ! go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "$pkg" >"$log" 2>&1; then
		echo " FAILED"
		cat "$log"
		status=1
	fi
	echo " $((SECONDS - start)) s"
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' . | grep -v -e '/testdata/' -e '^./third_party/' | sort)
exit $status
