package main

import (
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
	return out
}
