package app

import (
	"context"
	"errors"
	"testing"

	"rea/abi"
	"rea/analysis/native/nativetest"
	"rea/host/evidence"
	"rea/providers"
)

func dossiers(t *testing.T, a *App, bin string, names ...string) []evidence.Record {
	t.Helper()
	var out []evidence.Record
	for _, n := range names {
		res, err := a.AnalyzeFunction(context.Background(), NativeRequest{InputPath: bin, Procedure: n, Assembly: PageRequest{Limit: 500}, Limit: 500}, nil)
		if err != nil {
			t.Fatalf("%s in %s: %v", n, bin, err)
		}
		out = append(out, res.Evidence)
	}
	return out
}

func TestCompareFunctionsAcrossTwoVersions(t *testing.T) {
	t.Setenv(providers.EnvProvider, "")
	a := nativeApp(t)
	v1, v2 := nativetest.ChainELF(t, "plain"), nativetest.ChainELF(t, "plain-v2")
	left := dossiers(t, a, v1, "main", "middle", "leaf", "copy")
	right := dossiers(t, a, v2, "main", "middle", "leaf", "copy", "extra")
	res, err := a.CompareFunctions(CompareFunctionsRequest{Left: left, Right: right})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Comparison
	if c.Status != "changed" || c.Summary.Pairs != 4 || c.Summary.Added != 1 || c.Summary.Removed != 0 {
		t.Fatalf("comparison status %s summary %+v", c.Status, c.Summary)
	}
	if res.Evidence.Confidence != evidence.ConfidenceDerived || len(res.Evidence.EvidenceLinks) != 9 {
		t.Fatalf("evidence confidence %s links %d", res.Evidence.Confidence, len(res.Evidence.EvidenceLinks))
	}
	byName := map[string]FunctionChange{}
	for _, ch := range c.Changes.Items {
		n := ""
		if ch.Match.LeftName != nil {
			n = *ch.Match.LeftName
		} else {
			n = *ch.Match.RightName
		}
		byName[n] = ch
	}
	dim := func(fn, d string) DimensionResult {
		for _, r := range byName[fn].Dimensions {
			if r.Dimension == d {
				return r
			}
		}
		t.Fatalf("%s has no %s dimension", fn, d)
		return DimensionResult{}
	}
	if len(byName["copy"].Dimensions) != 8 {
		t.Fatalf("copy has %d dimensions", len(byName["copy"].Dimensions))
	}
	// copy's code is the same in both versions, only its address moved.
	for _, d := range []string{"identity", "assembly", "calls", "references", "cfg", "strings_names"} {
		if r := dim("copy", d); r.Status != "unchanged" || r.LeftDigest == nil || *r.LeftDigest != *r.RightDigest {
			t.Errorf("copy %s = %+v", d, r)
		}
	}
	for _, d := range []string{"pseudocode", "comments"} {
		if r := dim("copy", d); r.Status != "unknown" || r.LeftDigest != nil || r.ConclusionKind != "unresolved_branch" || len(r.Limitations) == 0 {
			t.Errorf("copy %s = %+v", d, r)
		}
	}
	if byName["copy"].Status != "unknown" {
		t.Errorf("copy's pair is %s; without pseudocode it cannot be unchanged", byName["copy"].Status)
	}
	// gcc reallocated middle's registers around the changed leaf.
	if r := dim("middle", "assembly"); r.Status != "changed" {
		t.Errorf("middle assembly = %+v", r)
	}
	if r := dim("middle", "calls"); r.Status != "unchanged" {
		t.Errorf("middle calls = %+v", r)
	}
	if r := dim("leaf", "assembly"); r.Status != "changed" || r.TextDelta == nil || r.TextDelta.AddedLines == 0 || r.TextDelta.Hunks == 0 {
		t.Errorf("leaf assembly = %+v", r)
	}
	if r := dim("main", "calls"); r.Status != "changed" || r.RightCount != r.LeftCount+1 {
		t.Errorf("main calls = %+v", r)
	}
	if r := dim("main", "strings_names"); r.Status != "changed" {
		t.Errorf("main strings_names = %+v", r)
	}
	if byName["extra"].Status != "added" {
		t.Errorf("extra = %+v", byName["extra"])
	}
	// A paged-out facet is truncated, never equal.
	short, err := a.AnalyzeFunction(context.Background(), NativeRequest{InputPath: v1, Procedure: "middle", Assembly: PageRequest{Limit: 2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res2, err := a.CompareFunctions(CompareFunctionsRequest{Left: []evidence.Record{short.Evidence}, Right: right[1:2]})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res2.Comparison.Changes.Items[0].Dimensions {
		if r.Dimension == "assembly" && (r.Status != "truncated" || r.LeftDigest != nil) {
			t.Errorf("paged assembly = %+v", r)
		}
	}
	var e *abi.Error
	if _, err := a.CompareFunctions(CompareFunctionsRequest{Left: nil, Right: right}); !errors.As(err, &e) || e.Details["field"] != "left" {
		t.Errorf("empty left: %v", err)
	}
	ov, _ := a.BinaryOverview(context.Background(), NativeRequest{InputPath: v1}, nil)
	if _, err := a.CompareFunctions(CompareFunctionsRequest{Left: []evidence.Record{ov.Evidence}, Right: right}); !errors.As(err, &e) || e.Details["field"] != "left[0]" {
		t.Errorf("overview as input: %v", err)
	}
}
