// Command compare is the WebAssembly module that traces features through
// and compares application analyses. It is a thin shell over package
// graph: pure computation over facts the host already holds, with no
// mounts and nothing executed.
package main

import (
	"context"
	"encoding/json"
	"os"
	"runtime/debug"

	"rea/abi"
	"rea/analysis/compare/artifacts"
	"rea/analysis/compare/exports"
	"rea/analysis/compare/graph"
	"rea/analysis/compare/screenshots"
	"rea/analysis/compare/source"
)

func main() {
	// Decoding two analyses allocates much and keeps little: collect
	// rarely (the sandbox's memory limit still bounds the heap).
	debug.SetGCPercent(800)
	abi.Serve(map[string]abi.Handler{"trace": trace, "compare": compare,
		"compare_artifacts": compareArtifacts, "import_reference_source": importReferenceSource,
		"compare_source_to_bundle": compareSourceToBundle, "compare_javascript_export_shapes": compareExportShapes,
		"compare_web_screenshots": compareWebScreenshots})
}

func trace(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	req, err := graph.DecodeTraceRequest(raw)
	if err != nil {
		return nil, err
	}
	rep.Report(abi.Progress{Phase: "trace", Done: 0, Total: 1})
	return graph.Trace(context.Background(), req)
}

func compare(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	req, err := graph.DecodeCompareRequest(raw)
	if err != nil {
		return nil, err
	}
	rep.Report(abi.Progress{Phase: "compare", Done: 0, Total: 1})
	return graph.Compare(context.Background(), req)
}

func compareArtifacts(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	req, err := artifacts.DecodeRequest(raw)
	if err != nil {
		return nil, err
	}
	rep.Report(abi.Progress{Phase: "compare_artifacts", Done: 0, Total: 1})
	return artifacts.Compare(context.Background(), req)
}

func importReferenceSource(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	var req struct {
		ManifestID  string        `json:"manifest_id"`
		RootSHA256  string        `json:"root_sha256"`
		Coverage    string        `json:"coverage"`
		Files       []source.File `json:"files"`
		Limitations []string      `json:"limitations"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "params: %v", err)
	}
	rep.Report(abi.Progress{Phase: "import_reference_source", Done: 0, Total: 1})
	return source.NewReference(req.ManifestID, req.RootSHA256, req.Coverage, req.Files, req.Limitations), nil
}

func compareSourceToBundle(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	req, err := source.DecodeRequest(raw)
	if err != nil {
		return nil, err
	}
	rep.Report(abi.Progress{Phase: "compare_source_to_bundle", Done: 0, Total: 1})
	return source.Compare(context.Background(), req)
}

func compareExportShapes(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	req, err := exports.DecodeRequest(raw)
	if err != nil {
		return nil, err
	}
	rep.Report(abi.Progress{Phase: "compare_javascript_export_shapes", Done: 0, Total: 1})
	return exports.Compare(context.Background(), req)
}

// compareWebScreenshots compares the two PNGs mounted at /in.
func compareWebScreenshots(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	var req struct {
		Limits screenshots.Limits `json:"limits"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "params: %v", err)
	}
	left, err := os.Open("/in/left.png")
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "left: %v", err)
	}
	defer left.Close()
	right, err := os.Open("/in/right.png")
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "right: %v", err)
	}
	defer right.Close()
	rep.Report(abi.Progress{Phase: "compare_web_screenshots", Done: 0, Total: 1})
	return screenshots.Compare(left, right, req.Limits)
}
