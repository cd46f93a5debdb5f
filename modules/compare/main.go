// Command compare is the WebAssembly module that traces features through
// and compares application analyses. It is a thin shell over package
// graph: pure computation over facts the host already holds, with no
// mounts and nothing executed.
package main

import (
	"context"
	"encoding/json"
	"runtime/debug"

	"rea/modules/abi"
	"rea/modules/compare/graph"
)

func main() {
	// Decoding two analyses allocates much and keeps little: collect
	// rarely (the sandbox's memory limit still bounds the heap).
	debug.SetGCPercent(800)
	abi.Serve(map[string]abi.Handler{"trace": trace, "compare": compare})
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
