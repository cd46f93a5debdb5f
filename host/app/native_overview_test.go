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

// TestOverviewWithStringsBesideEqualsOneInstance runs binary_overview on
// rea's own binary (large enough to count strings in a second instance)
// both ways through the sandbox: the result must be byte-identical, and
// the Evidence of two such runs the same record.
func TestOverviewWithStringsBesideEqualsOneInstance(t *testing.T) {
	t.Setenv(providers.EnvProvider, "")
	bin := wasmtest.ReaBinary(t)
	if st, err := os.Stat(bin); err != nil || st.Size() < overviewBesideFrom {
		t.Fatalf("%s (%v) is not large enough to count strings beside the sweep", bin, err)
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
	var whole, beside query.Overview
	one, err := fresh().runNativeWhole(ctx, in, query.OpOverview, query.Params{}, &whole, nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := fresh().runNative(ctx, in, query.OpOverview, query.Params{}, &beside, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Result, two.Result) || beside.Strings != whole.Strings {
		t.Fatalf("strings beside:\n%s\none instance:\n%s", two.Result, one.Result)
	}
	if whole.Procedures < 10000 || whole.CallEdges == 0 || whole.Strings == 0 {
		t.Fatalf("overview of rea itself = %+v", whole)
	}
	if two.Usage.FuelUsed == one.Usage.FuelUsed || two.Usage.FuelUsed == 0 {
		t.Fatalf("fuel with strings beside %d, in one instance %d: the second instance did not run", two.Usage.FuelUsed, one.Usage.FuelUsed)
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
		t.Fatalf("two overviews gave evidence %s and %s", first.Evidence.EvidenceID, second.Evidence.EvidenceID)
	}
}
