// Command reconstruct is the reconstruction-verification module: pure
// computation over Evidence the host has already resolved —
// verify_reconstruction (a finite specification checked claim by claim
// against comparison Evidence), evaluate_reconstruction_coverage and
// build_reconstruction_obligation_ledger.
package main

import (
	"encoding/json"
	"runtime/debug"

	"rea/abi"
	"rea/analysis/reconstruct/coverage"
	"rea/analysis/reconstruct/obligations"
	"rea/analysis/reconstruct/verify"
)

func main() {
	// One short-lived request per instance: trade memory for fewer
	// collections, which are costly in wasm.
	debug.SetGCPercent(400)
	abi.Serve(handlers())
}

func handlers() map[string]abi.Handler {
	return map[string]abi.Handler{
		"verify_reconstruction":                  verifyReconstruction,
		"evaluate_reconstruction_coverage":       evaluateCoverage,
		"build_reconstruction_obligation_ledger": buildObligationLedger,
	}
}

func verifyReconstruction(params json.RawMessage, progress *abi.Reporter) (any, error) {
	var req verify.Request
	if err := abi.DecodeParams(params, &req); err != nil {
		return nil, err
	}
	progress.Report(abi.Progress{Phase: "verify", Done: 0, Total: int64(len(req.Comparisons))})
	return verify.Evaluate(req)
}

func evaluateCoverage(params json.RawMessage, _ *abi.Reporter) (any, error) {
	var req coverage.Request
	if err := abi.DecodeParams(params, &req); err != nil {
		return nil, err
	}
	return coverage.Evaluate(req)
}

func buildObligationLedger(params json.RawMessage, _ *abi.Reporter) (any, error) {
	var req obligations.Request
	if err := abi.DecodeParams(params, &req); err != nil {
		return nil, err
	}
	return obligations.Build(req)
}
