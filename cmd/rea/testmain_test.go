package main_test

import (
	"os"
	"testing"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

// TestMain removes what the tests built or kept in temporary directories:
// wasmtest's modules and binary, the native fixtures, the version Evidence.
func TestMain(m *testing.M) {
	wasmtest.Main(m, nativetest.Cleanup, func() {
		if versionEvidence.dir != "" {
			os.RemoveAll(versionEvidence.dir)
		}
	})
}
