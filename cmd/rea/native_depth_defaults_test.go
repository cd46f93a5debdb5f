package main

import (
	"context"
	"errors"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/app"
)

// nativeDepthDefaults normalise the native depth tools' parameters with
// the function the native module runs (nativewire's NormaliseDepth).
func nativeDepthDefaults() map[string]func(map[string]any) (map[string]any, error) {
	out := map[string]func(map[string]any) (map[string]any, error){}
	for tool := range app.DepthOperation {
		out[tool] = func(p map[string]any) (map[string]any, error) {
			var req app.NativeRequest
			if err := remarshal(p, &req); err != nil {
				return nil, err
			}
			np, err := app.NormaliseDepthRequest(tool, req)
			if err != nil {
				return nil, err
			}
			m := map[string]any{"offset": np.Offset, "limit": np.Limit}
			switch tool {
			case "get_call_graph":
				m["depth"], m["max_nodes"], m["direction"] = np.Depth, np.MaxNodes, np.Direction
			case "trace_call_path":
				m["max_depth"], m["direction"] = np.Depth, np.Direction
				delete(m, "offset")
				delete(m, "limit")
			case "list_types", "find_code_for_string":
				m["mode"] = np.Mode
			}
			return asMap(m)
		}
	}
	out["diff_binaries"] = func(p map[string]any) (map[string]any, error) {
		var req app.DiffBinariesRequest
		if err := remarshal(p, &req); err != nil {
			return nil, err
		}
		// The service checks its bounds before it opens either file.
		_, err := (&app.App{}).DiffBinaries(context.Background(), req, nil)
		var ae *abi.Error
		if errors.As(err, &ae) && (ae.Details["field"] == "offset" || ae.Details["field"] == "limit" || ae.Details["field"] == "compare_changed") {
			return nil, err
		}
		limit := req.Limit
		if limit == 0 {
			limit = nativewire.DefaultLimit
		}
		return asMap(map[string]any{"offset": req.Offset, "limit": limit, "compare_changed": req.CompareChanged})
	}
	return out
}
