#!/usr/bin/env bash
# Regenerates the @electron/asar interop fixtures in testdata/artifact/:
# archives packed by the reference implementation, and what its `list` and
# `extract` report for them, so rea's reader can be compared with it byte for
# byte. Needs node and npm; @electron/asar is installed in a scratch
# directory outside the repository (3.4.1: the newest that runs on Node 20).
set -euo pipefail

ASAR_VERSION=${ASAR_VERSION:-3.4.1}
repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/testdata/artifact"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

(cd "$scratch" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "@electron/asar@$ASAR_VERSION" >/dev/null)
asar="$scratch/node_modules/.bin/asar"

# The source tree: integrity on every file, an unpacked native addon, links,
# an executable, an empty file and directory, a non-ASCII name, nested
# directories, and a file of more than one 4 MiB integrity block.
src="$scratch/src"
mkdir -p "$src/lib/native" "$src/lib/deep/er/still" "$src/empty-dir" "$src/node_modules/dep"
printf 'console.log("hello from main")\n' > "$src/main.js"
printf '{"name":"fixture","version":"1.0.0","main":"main.js"}\n' > "$src/package.json"
: > "$src/empty.txt"
printf '#!/bin/sh\necho tool\n' > "$src/lib/tool.sh"
chmod 755 "$src/lib/tool.sh"
printf 'module.exports = 1\n' > "$src/lib/deep/er/still/index.js"
printf 'exports.dep = true\n' > "$src/node_modules/dep/index.js"
printf 'caf\xc3\xa9\n' > "$src/lib/caf$(printf '\xc3\xa9').txt"
# 100 bytes that stand in for a native addon.
node -e 'const b=Buffer.alloc(100);for(let i=0;i<100;i++)b[i]=(i*37+11)&255;process.stdout.write(b)' > "$src/lib/native/addon.node"
# 4 MiB + 123 bytes, compressible so the repository stays small.
node -e 'const n=4*1024*1024+123;const b=Buffer.alloc(n);for(let i=0;i<n;i++)b[i]=(i%251);process.stdout.write(b)' > "$src/lib/big.bin"
ln -s ../main.js "$src/lib/link.js"
ln -s deep/er "$src/lib/deep-link"

# A second archive with whole directories unpacked (--unpack-dir) and the
# same tree otherwise, minus the large file.
src2="$scratch/src2"
cp -a "$src" "$src2"
rm "$src2/lib/big.bin"

rm -rf "$out"/*.asar "$out"/*.asar.unpacked "$out"/*.asar.*.txt
(cd "$scratch" && "$asar" pack --unpack '*.node' src "$out/app.asar")
(cd "$scratch" && "$asar" pack --unpack-dir '{lib/deep,node_modules}' src2 "$out/unpackdir.asar")

# What the reference reports for each.
for archive in app unpackdir; do
	a="$out/$archive.asar"
	"$asar" list "$a" > "$a.list.txt"
	rm -rf "$scratch/extracted"
	"$asar" extract "$a" "$scratch/extracted"
	(cd "$scratch/extracted" && find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
		rel=${p#./}
		if [ -L "$p" ]; then
			printf 'link %s %s\n' "$rel" "$(readlink "$p")"
		elif [ -d "$p" ]; then
			printf 'dir %s\n' "$rel"
		else
			printf 'file %s %s %s\n' "$rel" "$(stat -c %s "$p")" "$(sha256sum < "$p" | cut -d' ' -f1)"
		fi
	done) > "$a.extract.txt"
done
echo "wrote $(cd "$out" && ls -d *.asar | tr '\n' ' ')with their .unpacked companions, list and extract reports to $out"
