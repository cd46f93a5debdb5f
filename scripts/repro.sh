#!/usr/bin/env bash
# Proves builds are reproducible: builds every module and bin/rea twice —
# here, and in a copy of the tree at another path with an empty Go build
# cache — and compares the sha256 of every metered module and the generated
# product catalog of the two binaries. `make repro` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
other=$(mktemp -d /tmp/rea-repro-XXXXXX)
trap 'rm -rf "$other"' EXIT
make -s modules rea >/dev/null
git ls-files -z | xargs -0 -I{} cp --parents {} "$other"/ 2>/dev/null || true
cp -r wasm/embedded/modules/README.md "$other/wasm/embedded/modules/" 2>/dev/null || true
(cd "$other" && GOCACHE="$other/.gocache" GOFLAGS=-modcacherw make -s modules rea >/dev/null)
status=0
for m in wasm/embedded/modules/*.wasm; do
	a=$(sha256sum "$m" | cut -d' ' -f1)
	b=$(sha256sum "$other/$m" | cut -d' ' -f1)
	if [ "$a" = "$b" ]; then echo "same      $a  $(basename "$m")"; else echo "DIFFERENT $a $b  $(basename "$m")"; status=1; fi
done
a=$(bin/rea catalog --output - 2>/dev/null | sha256sum | cut -d' ' -f1)
b=$("$other/bin/rea" catalog --output - 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ "$a" = "$b" ]; then echo "same      $a  product catalog"; else echo "DIFFERENT $a $b  product catalog"; status=1; fi
exit $status
