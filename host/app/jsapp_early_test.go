package app

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"rea/analysis/artifact/inventory"
	"testing"

	"rea/wasm/wasmtest"
)

// An analysis started on the key walk's tree (jsapp_early.go) stands only
// when the inventory gives the same tree, and is then the answer the
// inventory's tree gives; a walk that differs from the inventory in a
// digest, a file or an execute bit is dropped.
func TestEarlyAnalysisStandsOnlyForTheInventorysTree(t *testing.T) {
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, "artifact", JSAppModule, NormaliseModule),
		CacheDir: filepath.Join(os.TempDir(), "rea-early-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	ctx := context.Background()
	dir := filepath.Join("..", "..", "testdata", "electron", "typescript")
	in, err := resolveInput(dir)
	if err != nil {
		t.Fatal(err)
	}
	limits, err := AnalyzeApplicationRequest{}.Options.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	walkOf := func(t *testing.T) *inputWalk {
		t.Helper()
		walk, err := walkInput(in, keyWriter{sha256.New()}, inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return walk
	}
	scan, err := a.scanArtifact(ctx, ArtifactRequest{InputPath: in.abs, IntegrityPolicy: IntegrityRecordAndContinue, topLevelOnly: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(scan.input.mountDir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	tree, skipped := scan.applicationTree(root)
	plain := jsappRun{app: a, tree: tree, limits: limits}
	want, _, err := plain.analyse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)

	early := a.startEarly(ctx, walkOf(t), in, limits, nil)
	if early == nil {
		t.Fatal("no early analysis of a directory with a key walk")
	}
	got, _, err, kept := early.result(tree, skipped)
	if !kept || err != nil {
		t.Fatalf("the early analysis of an unchanged directory was not kept (kept %v, err %v)", kept, err)
	}
	if gotJSON, _ := json.Marshal(got); string(gotJSON) != string(wantJSON) {
		t.Fatalf("the early analysis differs from the inventory tree's:\n%s\n---\n%s", gotJSON, wantJSON)
	}

	for name, change := range map[string]func(w *inputWalk){
		"a digest": func(w *inputWalk) { w.files["package.json"] = "00" + w.files["package.json"][2:] },
		"a size":   func(w *inputWalk) { w.sizes["package.json"]++ },
		"an execute bit": func(w *inputWalk) {
			w.execs["package.json"] = !w.execs["package.json"]
		},
		"a file the inventory did not list": func(w *inputWalk) {
			w.kinds["extra.js"], w.files["extra.js"], w.sizes["extra.js"] = 'f', w.files["package.json"], w.sizes["package.json"]
		},
		"a file missing": func(w *inputWalk) { delete(w.kinds, "package.json") },
	} {
		walk := walkOf(t)
		change(walk)
		e := a.startEarly(ctx, walk, in, limits, nil)
		if _, _, _, kept := e.result(tree, skipped); kept {
			t.Errorf("%s differs between the walk and the inventory, and the early analysis was kept", name)
		}
	}
}
