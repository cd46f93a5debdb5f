package module_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"rea/abi"
	"rea/host/sandbox"
	"rea/wasm/fuel"
	"rea/wasm/module"
	"rea/wasm/wasmtest"
)

// A real Go-built module: Prepare collapses the linker's thousands of data
// segments to a handful, meters and stamps it, and the linear memory wazero
// sets up before _start runs is byte-identical to the raw module's.
func TestPrepareKeepsAGoModulesMemoryIdentical(t *testing.T) {
	raw, err := os.ReadFile(wasmtest.BuildGuest(t, "./host/sandbox/testdata/guests/probe", "probe"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := module.Prepare(raw, abi.Version, true)
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Segments; st.Before < 1000 || st.After*100 > st.Before {
		t.Fatalf("expected thousands of segments to collapse to a handful: %+v", st)
	}
	if metered, err := fuel.Metered(p.Bytes); err != nil || !metered {
		t.Fatalf("prepared module not metered: %v", err)
	}
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	if err := sandbox.InstantiateHostModule(ctx, r); err != nil { // the probe imports rea.sha256
		t.Fatal(err)
	}
	memoryOf := func(bin []byte) []byte {
		cm, err := r.CompileModule(ctx, bin)
		if err != nil {
			t.Fatal(err)
		}
		// No start functions: only the data initialisation runs.
		mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithStartFunctions().WithName(""))
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		b, _ := mod.Memory().Read(0, mod.Memory().Size())
		return bytes.Clone(b)
	}
	if !bytes.Equal(memoryOf(raw), memoryOf(p.Bytes)) {
		t.Fatal("linear memory differs after preparing a Go module")
	}
}
