package app

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"rea/host/capture"
	"rea/host/evidence"
	"rea/modules/abi"
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
