package app

import (
	"context"
	"testing"

	"rea/providers"
	"rea/wasm/wasmtest"
)

// TestOverviewOfALargeBinaryIsTheSameRecordEveryTime runs binary_overview
// on rea's own binary in two Apps (nothing shared, nothing cached): the
// Evidence must be the same record, fuel included.
func TestOverviewOfALargeBinaryIsTheSameRecordEveryTime(t *testing.T) {
	t.Setenv(providers.EnvProvider, "")
	bin := wasmtest.ReaBinary(t)
	var ids []string
	for range 2 {
		a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, NativeModule)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.BinaryOverview(context.Background(), NativeRequest{InputPath: bin}, nil)
		a.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.Result.Procedures < 10000 || res.Result.CallEdges == 0 || res.Result.Strings == 0 || res.Result.Instructions == 0 {
			t.Fatalf("overview of rea itself = %+v", res.Result)
		}
		ids = append(ids, res.Evidence.EvidenceID)
	}
	if ids[0] != ids[1] {
		t.Fatalf("two overviews of one file gave evidence %s and %s", ids[0], ids[1])
	}
}
