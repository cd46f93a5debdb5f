package app

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/host/evidence"
	"rea/host/unknowns"
)

// InspectEvidenceBundle reads an exported Evidence bundle, validates every
// record and the manifest under the CLI import budget, and returns the
// same projection as the MCP get_evidence_bundle tool: the complete
// canonical bundle, or with detail "summary" the matching records.
// request is {"path": …, "detail": …, "filters": {…}}.
func (a *App) InspectEvidenceBundle(ctx context.Context, request json.RawMessage) (any, error) {
	q, err := evidence.ParseQuery(request, "path")
	if err != nil {
		return nil, err
	}
	var in struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(request, &in); err != nil || in.Path == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the bundle file in \"path\"").WithDetail("field", "path")
	}
	b, err := evidence.ReadBundleFile(ctx, in.Path, evidence.DefaultLimits(), unknowns.Validator{})
	if err != nil {
		return nil, err
	}
	return b.Project(q)
}
