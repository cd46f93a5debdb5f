package app

import (
	"path"
	"strings"

	"rea/analysis/artifact/inventory"
)

// normalisedExtensions are the file names jsengine always sends through
// esbuild (TypeScript, JSX, ES modules, single-file components).
var normalisedExtensions = map[string]bool{
	".ts": true, ".mts": true, ".cts": true, ".tsx": true, ".jsx": true, ".mjs": true, ".vue": true, ".svelte": true,
}

// needsNormaliser reports whether an inventory names a file the jsapp
// module will hand to the normaliser, from the names alone.
func needsNormaliser(entries []inventory.Entry) bool {
	for _, e := range entries {
		if e.Kind != inventory.KindDirectory && normalised(e.Path) {
			return true
		}
	}
	return false
}

// normalised reports whether the jsapp module hands a file of this name
// to the normaliser.
func normalised(name string) bool {
	return normalisedExtensions[strings.ToLower(path.Ext(name))] && !strings.HasSuffix(strings.ToLower(name), ".d.ts")
}
