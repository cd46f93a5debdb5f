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
		if e.Kind != inventory.KindDirectory && normalisedExtensions[strings.ToLower(path.Ext(e.Path))] && !strings.HasSuffix(strings.ToLower(e.Path), ".d.ts") {
			return true
		}
	}
	return false
}
