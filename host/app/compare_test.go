package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"rea/abi"
	"rea/analysis/compare/graph"
	"rea/host/evidence"
	"rea/wasm/wasmtest"
)

// newCompareApp runs the real artifact, jsapp and compare modules.
func newCompareApp(t testing.TB) *App {
	t.Helper()
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, "artifact", JSAppModule, NormaliseModule, CompareModule),
		CacheDir: filepath.Join(os.TempDir(), "rea-compare-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

func analyseVersion(t *testing.T, a *App, v string) evidence.Record {
	t.Helper()
	res, err := a.AnalyzeJavaScriptApplication(context.Background(),
		AnalyzeApplicationRequest{InputPath: filepath.Join(wasmtest.RepoRoot(t), "testdata", "versions", v)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Evidence
}

func TestDerivedEvidenceLinksItsInputsAndNamesTheModule(t *testing.T) {
	a := newCompareApp(t)
	v1, v2 := analyseVersion(t, a, "v1"), analyseVersion(t, a, "v2")
	rec, err := a.CompareApplicationVersions(context.Background(), v1, v2, CompareVersionsRequest{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Confidence != evidence.ConfidenceDerived || len(rec.EvidenceLinks) != 2 || rec.EvidenceLinks[0] != v1.EvidenceID || rec.EvidenceLinks[1] != v2.EvidenceID {
		t.Errorf("confidence %s links %v", rec.Confidence, rec.EvidenceLinks)
	}
	if rec.Subject == nil || rec.Subject.Digest != v2.Subject.Digest {
		t.Errorf("the subject is the right (newer) application: %+v", rec.Subject)
	}
	var nr struct {
		Provenance DerivedProvenance `json:"provenance"`
	}
	if err := json.Unmarshal(rec.NormalizedResult, &nr); err != nil {
		t.Fatal(err)
	}
	if nr.Provenance.Module != CompareModule || len(nr.Provenance.ModuleSHA256) != 64 || nr.Provenance.FuelUsed == 0 ||
		rec.Provider.Version == nil || *rec.Provider.Version != nr.Provenance.ModuleSHA256 {
		t.Errorf("provenance %+v, provider %+v", nr.Provenance, rec.Provider)
	}
	again, err := a.CompareApplicationVersions(context.Background(), v1, v2, CompareVersionsRequest{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.EvidenceID != rec.EvidenceID {
		t.Errorf("identical inputs gave %s then %s", rec.EvidenceID, again.EvidenceID)
	}

	tr, err := a.TraceApplicationFeature(context.Background(), v2, TraceFeatureRequest{Seeds: []graph.Seed{{Kind: "module", Value: "preload.js"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Confidence != evidence.ConfidenceDerived || len(tr.EvidenceLinks) != 1 || tr.EvidenceLinks[0] != v2.EvidenceID || tr.Operation != "trace_application_feature" {
		t.Errorf("trace record %s %v %s", tr.Confidence, tr.EvidenceLinks, tr.Operation)
	}
}

func TestDerivedWorkflowsRefuseWhatTheyCannotRead(t *testing.T) {
	a := newCompareApp(t)
	v1 := analyseVersion(t, a, "v1")
	other, err := evidence.New(evidence.Draft{Provider: evidence.Provider{ID: "x", Name: "x"}, Operation: "inspect_artifact", NormalizedResult: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		run  func(ctx context.Context) error
		code string
	}{
		{"a right side that is no application analysis", func(ctx context.Context) error {
			_, err := a.CompareApplicationVersions(ctx, v1, other, CompareVersionsRequest{}, nil)
			return err
		}, abi.CodeInvalidRequest},
		{"a trace without seeds", func(ctx context.Context) error {
			_, err := a.TraceApplicationFeature(ctx, v1, TraceFeatureRequest{}, nil)
			return err
		}, abi.CodeInvalidRequest},
		{"a limit out of range", func(ctx context.Context) error {
			_, err := a.CompareApplicationVersions(ctx, v1, v1, CompareVersionsRequest{Limits: graph.CompareLimits{MaxGraphNodes: 1 << 30}}, nil)
			return err
		}, abi.CodeInvalidRequest},
		{"a cancelled comparison", func(context.Context) error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := a.CompareApplicationVersions(ctx, v1, v1, CompareVersionsRequest{}, nil)
			return err
		}, abi.CodeCancelled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run(context.Background())
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != c.code {
				t.Fatalf("err %v, want %s", err, c.code)
			}
		})
	}
}
