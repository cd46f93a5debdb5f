package app

import (
	"bytes"
	"context"
	"os"
	"testing"

	"rea/modules/native/query"
	"rea/providers"
	"rea/wasm/wasmtest"
)

// TestOverviewInPartsEqualsOneInstance runs binary_overview on rea's own
// binary (large enough to run in parts) both ways through the sandbox:
// the assembled result must be byte-identical, and the Evidence of two
// runs in parts the same record.
func TestOverviewInPartsEqualsOneInstance(t *testing.T) {
	t.Setenv(providers.EnvProvider, "")
	bin := wasmtest.ReaBinary(t)
	if st, err := os.Stat(bin); err != nil || st.Size() < overviewInPartsFrom {
		t.Fatalf("%s (%v) is not large enough to run in parts", bin, err)
	}
	ctx := context.Background()
	in, err := openNative(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer in.f.Close()

	// Separate Apps: each keeps results in memory, so nothing is shared.
	fresh := func() *App {
		a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, NativeModule)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(context.Background()) })
		return a
	}
	var whole, parts query.Overview
	one, err := fresh().runNativeWhole(ctx, in, query.OpOverview, query.Params{}, &whole, nil)
	if err != nil {
		t.Fatal(err)
	}
	several, err := fresh().runNative(ctx, in, query.OpOverview, query.Params{}, &parts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Result, several.Result) {
		t.Fatalf("in parts:\n%s\none instance:\n%s", several.Result, one.Result)
	}
	if whole.Procedures < 10000 || whole.CallEdges == 0 || whole.Strings == 0 {
		t.Fatalf("overview of rea itself = %+v", whole)
	}
	if several.Usage.FuelUsed == one.Usage.FuelUsed || several.Usage.FuelUsed == 0 {
		t.Fatalf("fuel in parts %d, in one instance %d: the parts did not run", several.Usage.FuelUsed, one.Usage.FuelUsed)
	}

	first, err := fresh().BinaryOverview(ctx, NativeRequest{InputPath: bin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := fresh().BinaryOverview(ctx, NativeRequest{InputPath: bin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Evidence.EvidenceID != second.Evidence.EvidenceID {
		t.Fatalf("two overviews in parts gave evidence %s and %s", first.Evidence.EvidenceID, second.Evidence.EvidenceID)
	}
}
