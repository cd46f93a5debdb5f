package graph_test

import (
	"context"
	"fmt"
	"strings"

	"rea/analysis/compare/graph"
	"rea/jsengine/report"
)

// Two versions of a bundle: one factory kept its code under a new ordinal,
// one was rebuilt with renamed identifiers (same structure), one is new.
func ExampleCompare() {
	side := func(id string, factories ...report.BundledModule) graph.Source {
		return graph.Source{EvidenceID: id, Analysis: graph.Analysis{SchemaVersion: 1, Coverage: "complete",
			Application: report.Result{Bundles: []report.Bundle{{Path: "dist/app.js", Kind: "webpack", Modules: factories}}}}}
	}
	req := &graph.CompareRequest{
		Left: side("ev_v1",
			report.BundledModule{Key: "17", FactorySHA256: "aa", Fingerprint: "sfp1:greet"},
			report.BundledModule{Key: "23", FactorySHA256: "bb", Fingerprint: "sfp1:wrap"}),
		Right: side("ev_v2",
			report.BundledModule{Key: "52", FactorySHA256: "aa", Fingerprint: "sfp1:greet"},
			report.BundledModule{Key: "8", FactorySHA256: "cc", Fingerprint: "sfp1:wrap"},
			report.BundledModule{Key: "70", FactorySHA256: "dd", Fingerprint: "sfp1:csv"}),
		IncludeUnchanged: true,
	}
	if err := req.Limits.Normalise(); err != nil {
		panic(err)
	}
	res, err := graph.Compare(context.Background(), req)
	if err != nil {
		panic(err)
	}
	for _, it := range res.Items {
		fmt.Println(strings.TrimSpace(it.Status + " " + it.Right.ID + " " + it.MatchedBy))
	}
	// Output:
	// added bundled:dist/app.js#70
	// changed bundled:dist/app.js#8 structural-fingerprint
	// unchanged bundled:dist/app.js#52 exact-module-source-digest
}
