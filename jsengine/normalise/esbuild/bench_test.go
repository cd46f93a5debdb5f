package esbuild_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/jsengine/normalise"
	"rea/jsengine/normalise/esbuild"
)

// BenchmarkTransformAccuracyApps transforms every TypeScript, JSX and ESM
// source of the real applications `make accuracy` pins (build/accuracy;
// REA_TS_CORPUS names another directory). `make pgo` takes the normaliser
// module's profile from it: real code of many authors, and not the
// package the speed goals are measured on.
func BenchmarkTransformAccuracyApps(b *testing.B) {
	root := os.Getenv("REA_TS_CORPUS")
	if root == "" {
		root = filepath.Join("..", "..", "..", "build", "accuracy")
	}
	reqs := corpus(b, root)
	b.ResetTimer()
	for b.Loop() {
		for _, r := range reqs {
			if res := esbuild.Transform(r); len(res.Errors) > 0 && res.Code == "" {
				b.Fatalf("%s: %s", r.Sourcefile, res.Errors[0].Text)
			}
		}
	}
	b.ReportMetric(float64(len(reqs)), "files")
}

// corpus reads the sources under root that the normaliser transforms.
func corpus(b *testing.B, root string) []normalise.Request {
	b.Helper()
	loaders := map[string]string{".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".jsx": "jsx", ".mjs": "js"}
	var reqs []normalise.Request
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		loader := loaders[filepath.Ext(p)]
		if d.IsDir() || loader == "" || strings.HasSuffix(p, ".d.ts") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		reqs = append(reqs, normalise.Request{Loader: loader, Source: string(src), Sourcefile: filepath.ToSlash(p)})
		return nil
	})
	if err != nil || len(reqs) == 0 {
		b.Fatalf("no sources to transform under %s (%v): run `make accuracy` first, or set REA_TS_CORPUS", root, err)
	}
	return reqs
}
