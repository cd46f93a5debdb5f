package evidence

import "encoding/json"

// NativeDossierSummary is what a summary record says of an analyze_function
// dossier beyond its procedure address: the value-flow facet's metadata,
// read from the record and never inferred. retention says the complete
// record is stored; this says whether its value flow is complete.
type NativeDossierSummary struct {
	ValueFlow ValueFlowSummary `json:"value_flow"`
}

// ValueFlowSummary is a dossier's value-flow metadata. Status is the
// facet's own (available, unavailable, partial…) or unknown when the
// record has no readable facet; Truncated and OmittedCount are null when
// the record does not state them.
type ValueFlowSummary struct {
	Status       string  `json:"status"`
	Reason       *string `json:"reason"`
	Truncated    *bool   `json:"truncated"`
	OmittedCount *int64  `json:"omitted_count"`
}

// nativeDossier summarises an analyze_function record's value flow; other
// operations have none.
func nativeDossier(r Record) *NativeDossierSummary {
	if r.Operation != "analyze_function" {
		return nil
	}
	var doc struct {
		ValueFlow *struct {
			Status       string  `json:"status"`
			Reason       *string `json:"reason"`
			Truncated    *bool   `json:"truncated"`
			OmittedCount *int64  `json:"omitted_count"`
		} `json:"value_flow"`
	}
	if json.Unmarshal(r.NormalizedResult, &doc) != nil || doc.ValueFlow == nil || doc.ValueFlow.Status == "" {
		reason := "the record holds no readable value_flow facet"
		return &NativeDossierSummary{ValueFlow: ValueFlowSummary{Status: "unknown", Reason: &reason}}
	}
	v := doc.ValueFlow
	if v.Reason != nil && *v.Reason == "" {
		v.Reason = nil
	}
	return &NativeDossierSummary{ValueFlow: ValueFlowSummary{Status: v.Status, Reason: v.Reason, Truncated: v.Truncated, OmittedCount: v.OmittedCount}}
}
