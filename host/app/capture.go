package app

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"rea/abi"
	"rea/host/capture"
	"rea/host/evidence"
)

// CaptureProcessRequest is capture_process_scenario's arguments; its JSON
// names are the MCP argument names (see capture.Scenario).
type CaptureProcessRequest = capture.Scenario

// CaptureProcessResult is the Evidence record of one capture and the result
// it holds (the record's normalized_result).
type CaptureProcessResult struct {
	Evidence evidence.Record `json:"evidence"`
	Capture  *capture.Result `json:"-"`
}

// captureProvider names the process-capture provider in Evidence.
func captureProvider() evidence.Provider {
	v := "1"
	return evidence.Provider{ID: "rea.process-capture", Name: "rea process capture", Version: &v}
}

// CaptureProcessScenario runs one executable under a scenario, cleans up
// every process carrying the run token and returns the capture as Evidence
// (predicate rea.process-capture/v1, authority controlled-replay).
//
// Failures are typed: invalid_request (scenario fields), cancelled (ctx),
// process_capture_failed (did not start), cleanup_incomplete (owned
// resources left; wins over the others). All but invalid_request keep the
// observation in details.partial_observation. Sensitive input never
// reaches the record: parameters are the redacted scenario.
func (a *App) CaptureProcessScenario(ctx context.Context, req CaptureProcessRequest, progress func(abi.Progress)) (*CaptureProcessResult, error) {
	res, err := capture.Run(ctx, req, capture.Options{Progress: progress, Version: reaVersion()})
	if err != nil {
		return nil, err
	}
	exe := res.Manifest.Executable
	rec, err := evidence.New(evidence.Draft{
		Subject: &evidence.Subject{Name: filepath.Base(exe.Path), Digest: evidence.Digest{SHA256: exe.SHA256},
			Format: exe.Format, Architecture: exe.Architecture, LocalPath: exe.Path},
		Provider:         captureProvider(),
		PredicateType:    capture.PredicateType,
		Operation:        capture.Operation,
		Parameters:       capture.Redact(req),
		NormalizedResult: res,
		Confidence:       evidence.ConfidenceObserved,
		Authority:        evidence.AuthorityControlledReplay,
		Environment: &evidence.Environment{ID: "rea.process-capture/local-host", Platform: res.Manifest.Platform.OS,
			Architecture: goArchitecture(), Isolation: "none"},
		Limitations: res.Limitations,
	})
	if err != nil {
		return nil, err
	}
	return &CaptureProcessResult{Evidence: rec, Capture: res}, nil
}

// reaVersion is the main module's version as built ("(devel)" from a
// working tree).
func reaVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "dev"
}

// goArchitecture spells GOARCH the way Evidence does.
func goArchitecture() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "386":
		return "x86"
	case "arm64":
		return "arm64"
	case "arm":
		return "arm"
	}
	return runtime.GOARCH
}

// CompareProcessCapturesOperation names the comparison in Evidence.
const CompareProcessCapturesOperation = "compare_process_captures"

// CompareProcessCapturesResult is the comparison Evidence and the
// comparison it holds.
type CompareProcessCapturesResult struct {
	Evidence   evidence.Record     `json:"evidence"`
	Comparison *capture.Comparison `json:"-"`
}

// captureOf decodes a capture Evidence record's result.
func captureOf(rec evidence.Record, side string) (*capture.Result, error) {
	if rec.Operation != capture.Operation || rec.PredicateType != capture.PredicateType {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s is not process capture Evidence (operation %q, predicate %q); pass the Evidence of capture_process_scenario",
			side, rec.Operation, rec.PredicateType).WithDetail("field", side)
	}
	var r capture.Result
	if err := json.Unmarshal(rec.NormalizedResult, &r); err != nil {
		return nil, abi.Errorf(abi.CodeEvidenceIntegrity, "%s's normalized_result is not a capture result: %v", side, err).WithDetail("field", side)
	}
	return &r, nil
}

// CompareProcessCaptures compares two captures made under the same
// comparison contract along the terminal, interaction, exit, filesystem and
// process dimensions, locating the first divergence in journal order. The
// result is derived Evidence linked to both captures. Cancellation is
// checked before the comparison and before the record is sealed.
func (a *App) CompareProcessCaptures(ctx context.Context, left, right evidence.Record) (*CompareProcessCapturesResult, error) {
	l, err := captureOf(left, "left")
	if err != nil {
		return nil, err
	}
	r, err := captureOf(right, "right")
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "the comparison was cancelled before it started")
	}
	c, err := capture.Compare(l, r)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "the comparison was cancelled before its Evidence was recorded")
	}
	rec, err := evidence.New(evidence.Draft{
		Provider:         captureProvider(),
		Operation:        CompareProcessCapturesOperation,
		Parameters:       map[string]any{"left": left.EvidenceID, "right": right.EvidenceID},
		NormalizedResult: c,
		Confidence:       evidence.ConfidenceDerived,
		Authority:        evidence.AuthorityControlledReplay,
		EvidenceLinks:    []string{left.EvidenceID, right.EvidenceID},
	})
	if err != nil {
		return nil, err
	}
	return &CompareProcessCapturesResult{Evidence: rec, Comparison: c}, nil
}
