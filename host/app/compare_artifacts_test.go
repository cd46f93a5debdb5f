package app

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"rea/abi"
	"rea/host/evidence"
	"rea/wasm/wasmtest"
)

func compareFixturePath(t *testing.T, parts ...string) string {
	return filepath.Join(append([]string{wasmtest.RepoRoot(t), "testdata", "compare"}, parts...)...)
}

func inspectWhole(t *testing.T, a *App, path string) evidence.Record {
	t.Helper()
	res, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: path},
		Nodes: PageRequest{Limit: MaxPageLimit}, Occurrences: PageRequest{Limit: MaxPageLimit}, Edges: PageRequest{Limit: MaxPageLimit}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Evidence
}

// cancelOnProgress cancels the run once the module reports progress: the
// module has started, and no Evidence may come out of it.
func cancelOnProgress() (context.Context, func(abi.Progress)) {
	ctx, cancel := context.WithCancel(context.Background())
	return ctx, func(abi.Progress) { cancel() }
}

func TestDerivedSourceAndArtifactServicesRecordNothingOnceCancelled(t *testing.T) {
	a := newCompareApp(t)
	v1 := inspectWhole(t, a, compareFixturePath(t, "artifacts", "v1"))
	v2 := inspectWhole(t, a, compareFixturePath(t, "artifacts", "v2"))
	ref, err := a.ImportReferenceSource(context.Background(), ImportReferenceSourceRequest{ArtifactRequest{InputPath: compareFixturePath(t, "source", "reference")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.AnalyzeJavaScriptApplication(context.Background(), AnalyzeApplicationRequest{InputPath: compareFixturePath(t, "source", "app")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	application := res.Evidence
	runs := map[string]func(context.Context, func(abi.Progress)) (evidence.Record, error){
		"compare_artifacts": func(ctx context.Context, p func(abi.Progress)) (evidence.Record, error) {
			return a.CompareArtifacts(ctx, []evidence.Record{v1}, []evidence.Record{v2}, CompareArtifactsRequest{}, p)
		},
		"compare_source_to_bundle": func(ctx context.Context, p func(abi.Progress)) (evidence.Record, error) {
			return a.CompareSourceToBundle(ctx, ref, application, CompareSourceRequest{}, p)
		},
		"import_reference_source": func(ctx context.Context, p func(abi.Progress)) (evidence.Record, error) {
			return a.ImportReferenceSource(ctx, ImportReferenceSourceRequest{ArtifactRequest{InputPath: compareFixturePath(t, "source", "reference")}}, p)
		},
	}
	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			first, err := run(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			second, err := run(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if first.EvidenceID != second.EvidenceID || first.Operation != name {
				t.Errorf("identical inputs: %s then %s (%s)", first.EvidenceID, second.EvidenceID, first.Operation)
			}
			ctx, progress := cancelOnProgress()
			rec, err := run(ctx, progress)
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != abi.CodeCancelled || rec.EvidenceID != "" {
				t.Errorf("cancelled: record %q err %v", rec.EvidenceID, err)
			}
		})
	}
	if rec, err := a.CompareArtifacts(context.Background(), []evidence.Record{v1}, []evidence.Record{v2}, CompareArtifactsRequest{}, nil); err == nil {
		if rec.Confidence != evidence.ConfidenceDerived || len(rec.EvidenceLinks) != 2 || rec.EvidenceLinks[0] != v1.EvidenceID ||
			rec.Subject == nil || rec.Subject.Digest != v2.Subject.Digest {
			t.Errorf("derived record: %s links %v subject %+v", rec.Confidence, rec.EvidenceLinks, rec.Subject)
		}
	}
}

func TestDerivedServicesRefuseTheWrongEvidence(t *testing.T) {
	a := newCompareApp(t)
	inv := inspectWhole(t, a, compareFixturePath(t, "artifacts", "v1"))
	cases := []struct {
		name string
		run  func() error
	}{
		{"an application analysis as an inventory", func() error {
			bad := inv
			bad.Operation = applicationOperation
			_, err := a.CompareArtifacts(context.Background(), []evidence.Record{inv}, []evidence.Record{bad}, CompareArtifactsRequest{}, nil)
			return err
		}},
		{"no right pages", func() error {
			_, err := a.CompareArtifacts(context.Background(), []evidence.Record{inv}, nil, CompareArtifactsRequest{}, nil)
			return err
		}},
		{"a page limit over 500", func() error {
			_, err := a.CompareArtifacts(context.Background(), []evidence.Record{inv}, []evidence.Record{inv}, CompareArtifactsRequest{Limit: 501}, nil)
			return err
		}},
		{"an inventory as the reference", func() error {
			_, err := a.CompareSourceToBundle(context.Background(), inv, inv, CompareSourceRequest{}, nil)
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ae *abi.Error
			if err := c.run(); !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
				t.Errorf("err %v, want invalid_request", err)
			}
		})
	}
}

func TestInspectArtifactPagesGivesTheRecordsOfEachPage(t *testing.T) {
	a := newCompareApp(t)
	path := compareFixturePath(t, "artifacts", "v1")
	recs, err := a.InspectArtifactPages(context.Background(), ArtifactRequest{InputPath: path}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Walk the same pages with InspectArtifact, one scan per page.
	req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: path}, Nodes: PageRequest{Limit: 4}, Occurrences: PageRequest{Limit: 4}, Edges: PageRequest{Limit: 4}}
	var want []string
	for {
		one, err := a.InspectArtifact(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, one.Evidence.EvidenceID)
		inv, more := one.Inventory, false
		if n := inv.Nodes.NextOffset; n != nil {
			req.Nodes.Offset, more = *n, true
		}
		if n := inv.Occurrences.NextOffset; n != nil {
			req.Occurrences.Offset, more = *n, true
		}
		if n := inv.Edges.NextOffset; n != nil {
			req.Edges.Offset, more = *n, true
		}
		if !more {
			break
		}
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.EvidenceID)
	}
	if len(want) < 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("pages %v, InspectArtifact gives %v", got, want)
	}
	if _, err := a.InspectArtifactPages(context.Background(), ArtifactRequest{InputPath: path}, 501, nil); err == nil {
		t.Error("a page limit over 500 is refused")
	}
}
