package app

import (
	"testing"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

// TestMain removes the modules wasmtest built and the native fixtures.
func TestMain(m *testing.M) { wasmtest.Main(m, nativetest.Cleanup) }
