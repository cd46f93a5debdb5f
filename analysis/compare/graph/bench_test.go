package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"rea/jsengine/report"
)

// benchAnalysis is a 3,000-factory bundle (the shape of a ~1 MB webpack
// renderer); version 2 edits one factory in a hundred.
func benchAnalysis(version int) []byte {
	var mods []report.BundledModule
	for i := range 3000 {
		sha, fp := fmt.Sprintf("%064x", i), fmt.Sprintf("sfp1:%064x", i)
		if version == 2 && i%100 == 7 {
			sha = fmt.Sprintf("%064x", i+1_000_000) // renamed identifiers
		}
		mods = append(mods, report.BundledModule{Key: fmt.Sprint(i), FactorySHA256: sha, Fingerprint: fp,
			Requires: []string{fmt.Sprint((i + 1) % 3000)}, Location: report.Location{File: "dist/renderer.js", Line: i*5 + 3, Column: 8}})
	}
	src := Source{EvidenceID: fmt.Sprint("ev_v", version), Analysis: Analysis{SchemaVersion: 1, Coverage: "complete", Application: report.Result{
		Modules: []report.Module{{Path: "dist/renderer.js", SHA256: fmt.Sprint(version), Bytes: 1 << 20}},
		Bundles: []report.Bundle{{Path: "dist/renderer.js", Kind: "webpack", Modules: mods}},
	}}}
	b, _ := json.Marshal(src)
	return b
}

// BenchmarkCompare3000ModuleBundles is the native cost of decoding and
// comparing two analyses of a 3,000-module bundle differing in 1 %; the
// sandboxed end-to-end number is host/app's
// BenchmarkCompareApplicationVersions3000Modules.
func BenchmarkCompare3000ModuleBundles(b *testing.B) {
	raw, _ := json.Marshal(map[string]json.RawMessage{"left": benchAnalysis(1), "right": benchAnalysis(2)})
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		req, err := DecodeCompareRequest(raw)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Compare(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if res.Summary.Statuses["changed"] != 31 {
			b.Fatalf("statuses %v", res.Summary.Statuses)
		}
	}
}
