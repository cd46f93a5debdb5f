package app

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/analysis/compare/graph"
	"rea/host/evidence"
)

// TraceFeatureRequest is trace_application_feature's options; the
// application is an Evidence record resolved by the caller.
type TraceFeatureRequest struct {
	Seeds []graph.Seed `json:"seeds"`
	// Direction is forward, backward or both (default).
	Direction string            `json:"direction,omitempty"`
	Limits    graph.TraceLimits `json:"limits"`
}

// TraceApplicationFeature walks the application graph of analysis
// Evidence from typed seeds and returns the bounded subgraph, its paths
// with their authorities, native handoffs and coverage as new Evidence
// (confidence derived) linking the analysis. No provider is started and
// no analysed code runs.
func (a *App) TraceApplicationFeature(ctx context.Context, src evidence.Record, req TraceFeatureRequest, progress func(abi.Progress)) (evidence.Record, error) {
	opts := graph.TraceRequest{Seeds: req.Seeds, Direction: req.Direction, Limits: req.Limits}
	if err := opts.Normalise(); err != nil {
		return evidence.Record{}, err
	}
	source, err := applicationSource(src, "application")
	if err != nil {
		return evidence.Record{}, err
	}
	params := struct {
		Source    json.RawMessage   `json:"source"`
		Seeds     []graph.Seed      `json:"seeds"`
		Direction string            `json:"direction"`
		Limits    graph.TraceLimits `json:"limits"`
	}{source, opts.Seeds, opts.Direction, opts.Limits}
	result, limitations, version, err := a.runDerived(ctx, "trace", params, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "trace_application_feature was cancelled; nothing was recorded")
	}
	return evidence.New(evidence.Draft{
		Subject:   subjectOf(src),
		Provider:  evidence.Provider{ID: "rea.application-trace", Name: "rea application feature trace", Version: version},
		Operation: "trace_application_feature",
		Parameters: map[string]any{
			"application": evidence.ReferenceTo(src.EvidenceID),
			"seeds":       opts.Seeds,
			"direction":   opts.Direction,
			"limits":      opts.Limits,
		},
		NormalizedResult: result,
		Confidence:       evidence.ConfidenceDerived,
		Limitations:      limitations,
		EvidenceLinks:    []string{src.EvidenceID},
	})
}
