package app

import (
	"context"
	"encoding/json"
	"fmt"

	"rea/abi"
	"rea/analysis/compare/artifacts"
	"rea/host/evidence"
)

// inventoryOperation is the producer whose Evidence compare_artifacts reads.
const inventoryOperation = "inspect_artifact"

// CompareArtifactsRequest is compare_artifacts' options; the sides are
// inspect_artifact Evidence records (pages of one scan each) resolved by
// the caller.
type CompareArtifactsRequest struct {
	Offset           int  `json:"offset,omitempty"`
	Limit            int  `json:"limit,omitempty"`
	IncludeUnchanged bool `json:"include_unchanged,omitempty"`
}

// inventorySide checks that every record is inventory Evidence and returns
// the module's view of the side.
func inventorySide(recs []evidence.Record, field string) (artifacts.Side, error) {
	s := artifacts.Side{Pages: []artifacts.PageRecord{}}
	if len(recs) < 1 || len(recs) > artifacts.MaxPagesPerSide {
		return s, abi.Errorf(abi.CodeInvalidRequest, "%s: give 1 to %d inspect_artifact Evidence records, got %d", field, artifacts.MaxPagesPerSide, len(recs)).
			WithDetail("field", field)
	}
	for i, rec := range recs {
		f := fmt.Sprintf("%s[%d]", field, i)
		if rec.Operation != inventoryOperation {
			return s, abi.Errorf(abi.CodeInvalidRequest,
				"%s must be inspect_artifact Evidence; %s is %s Evidence — run inspect_artifact and pass its evidence_id",
				f, rec.EvidenceID, rec.Operation).WithDetail("field", f).WithDetail("evidence_id", rec.EvidenceID)
		}
		var inv artifacts.Inventory
		if err := json.Unmarshal(rec.NormalizedResult, &inv); err != nil {
			return s, abi.Errorf(abi.CodeEvidenceIntegrity, "%s: the inventory of %s does not decode: %v", f, rec.EvidenceID, err).WithDetail("field", f)
		}
		s.Pages = append(s.Pages, artifacts.PageRecord{EvidenceID: rec.EvidenceID, Inventory: inv})
	}
	return s, nil
}

// CompareArtifacts compares two artifact inventories per logical path:
// added, removed, changed (with the dimensions content, kind, format, size,
// executable, relations, availability, integrity), unknown or
// contradiction. Each side is one or more pages of one inspect_artifact
// scan; whatever the pages do not hold is truncated or unknown, never
// equivalent. The result is derived Evidence linking every input page; its
// subject is the right (newer) artifact.
func (a *App) CompareArtifacts(ctx context.Context, left, right []evidence.Record, req CompareArtifactsRequest, progress func(abi.Progress)) (evidence.Record, error) {
	l, err := inventorySide(left, "left")
	if err != nil {
		return evidence.Record{}, err
	}
	r, err := inventorySide(right, "right")
	if err != nil {
		return evidence.Record{}, err
	}
	check := artifacts.Request{Left: l, Right: r, Offset: req.Offset, Limit: req.Limit}
	if err := check.Validate(); err != nil {
		return evidence.Record{}, err
	}
	req.Limit = check.Limit
	params := artifacts.Request{Left: l, Right: r, Offset: req.Offset, Limit: req.Limit, IncludeUnchanged: req.IncludeUnchanged}
	result, limitations, version, err := a.runDerived(ctx, "compare_artifacts", params, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "compare_artifacts was cancelled; nothing was recorded")
	}
	refs := func(recs []evidence.Record) []any {
		out := make([]any, len(recs))
		for i, r := range recs {
			out[i] = evidence.ReferenceTo(r.EvidenceID)
		}
		return out
	}
	return evidence.New(evidence.Draft{
		Subject:   subjectOf(right[0]),
		Provider:  evidence.Provider{ID: "rea.artifact-comparison", Name: "rea artifact comparison", Version: version},
		Operation: "compare_artifacts",
		Parameters: map[string]any{
			"left": refs(left), "right": refs(right),
			"offset": req.Offset, "limit": req.Limit, "include_unchanged": req.IncludeUnchanged,
		},
		NormalizedResult: result,
		Confidence:       evidence.ConfidenceDerived,
		Limitations:      limitations,
		EvidenceLinks:    linksOf(left, right),
	})
}

// linksOf lists every input record once, left first.
func linksOf(sides ...[]evidence.Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, recs := range sides {
		for _, r := range recs {
			if !seen[r.EvidenceID] {
				seen[r.EvidenceID] = true
				out = append(out, r.EvidenceID)
			}
		}
	}
	return out
}

// InspectArtifactPages inventories a container once and returns every
// page of it (pages of limit entries per collection, at most
// artifacts.MaxPagesPerSide), each the record InspectArtifact would give
// for that window: the whole side of a comparison for one scan.
func (a *App) InspectArtifactPages(ctx context.Context, req ArtifactRequest, limit int, progress func(abi.Progress)) ([]evidence.Record, error) {
	if limit == 0 {
		limit = MaxPageLimit
	}
	if limit < 1 || limit > MaxPageLimit {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "page limit must be between 1 and %d", MaxPageLimit).WithDetail("field", "limit")
	}
	s, err := a.scanArtifact(ctx, req, progress)
	if err != nil {
		return nil, err
	}
	page := InspectArtifactRequest{Nodes: PageRequest{Limit: limit}, Occurrences: PageRequest{Limit: limit}, Edges: PageRequest{Limit: limit}}
	var out []evidence.Record
	for {
		if ctx.Err() != nil {
			return nil, abi.Errorf(abi.CodeCancelled, "inspect_artifact was cancelled; nothing was recorded")
		}
		inv := s.inventory(page)
		params := page
		params.ArtifactRequest = s.req
		params.InputPath = ""
		rec, err := s.evidenceRecord("inspect_artifact", params, inv)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
		more := false
		for _, p := range []struct {
			next   *int
			offset *int
		}{{inv.Nodes.NextOffset, &page.Nodes.Offset}, {inv.Occurrences.NextOffset, &page.Occurrences.Offset}, {inv.Edges.NextOffset, &page.Edges.Offset}} {
			if p.next != nil {
				*p.offset, more = *p.next, true
			}
		}
		if !more {
			return out, nil
		}
		if len(out) >= artifacts.MaxPagesPerSide {
			return nil, abi.Errorf(abi.CodeTruncated, "the inventory needs more than %d pages of %d; compare pages of it as Evidence instead", artifacts.MaxPagesPerSide, limit)
		}
	}
}
