package main

import (
	"context"
	"encoding/json"
	"testing"

	"rea/host/app"
	"rea/host/evidence"
)

// viewServiceDefaults read what inspect_analysis_view records as its
// parameters (the filled request) over a real analyze_javascript_application
// record of dir, analysed once.
func viewServiceDefaults(t *testing.T, a *app.App, dir string) map[string]func(map[string]any) (map[string]any, error) {
	var src *evidence.Record
	return map[string]func(map[string]any) (map[string]any, error){
		"inspect_analysis_view": func(p map[string]any) (map[string]any, error) {
			if src == nil {
				res, err := a.AnalyzeJavaScriptApplication(context.Background(), app.AnalyzeApplicationRequest{InputPath: dir}, nil)
				if err != nil {
					t.Fatalf("analyse %s for the view: %v", dir, err)
				}
				src = &res.Evidence
			}
			var req app.AnalysisViewRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			rec, err := a.InspectAnalysisView(*src, req)
			if err != nil {
				return nil, err
			}
			var params map[string]any
			return params, json.Unmarshal(rec.Parameters, &params)
		},
	}
}
