package abi

// Severities of a finding, least to most severe.
const (
	SeverityInfo   = "info"
	SeverityLow    = "low"
	SeverityMedium = "medium"
	SeverityHigh   = "high"
)

// SeverityRank orders finding severities from least to most severe —
// info 1, low 2, medium 3, high 4 — so "at or above" (a --fail-on gate) is
// ≥ and "most severe first" (reports, summaries) is descending. Anything
// else ranks 0: an unrecognised severity never outranks a known one nor
// trips a gate.
func SeverityRank(severity string) int {
	switch severity {
	case SeverityInfo:
		return 1
	case SeverityLow:
		return 2
	case SeverityMedium:
		return 3
	case SeverityHigh:
		return 4
	}
	return 0
}
