package app

import (
	"context"
	"errors"
	"testing"

	"rea/abi"
)

func TestExportShapeComparisonIsStableAndRecordsNothingOnceCancelled(t *testing.T) {
	a := newCompareApp(t)
	analyse := func(v string) *AnalyzeApplicationResult {
		t.Helper()
		res, err := a.AnalyzeJavaScriptApplication(context.Background(), AnalyzeApplicationRequest{InputPath: compareFixturePath(t, "exports", v)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	v1, v2 := analyse("v1").Evidence, analyse("v2").Evidence
	sel := ExportSelector{ModulePath: "lib/settings.js", ExportName: "defaults"}
	req := CompareExportShapesRequest{Left: sel, Right: sel}
	first, err := a.CompareJavaScriptExportShapes(context.Background(), v1, v2, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.CompareJavaScriptExportShapes(context.Background(), v1, v2, req, nil)
	if err != nil || second.EvidenceID != first.EvidenceID {
		t.Errorf("identical inputs: %s then %s (%v)", first.EvidenceID, second.EvidenceID, err)
	}
	if first.Subject == nil || first.Subject.Digest != v2.Subject.Digest || len(first.EvidenceLinks) != 2 {
		t.Errorf("subject %+v links %v", first.Subject, first.EvidenceLinks)
	}
	ctx, progress := cancelOnProgress()
	rec, err := a.CompareJavaScriptExportShapes(ctx, v1, v2, req, progress)
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeCancelled || rec.EvidenceID != "" {
		t.Errorf("cancelled: %q %v", rec.EvidenceID, err)
	}
	if _, err := a.CompareJavaScriptExportShapes(context.Background(), v1, v2, CompareExportShapesRequest{Left: sel}, nil); !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
		t.Errorf("no right selector: %v", err)
	}
}
