package main

import (
	"testing"

	"rea/wasm/wasmtest"
)

// TestMain removes the modules wasmtest built for this package's tests.
func TestMain(m *testing.M) { wasmtest.Main(m) }
