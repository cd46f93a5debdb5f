package report

import (
	"fmt"

	"rea/abi"
)

// Exit statuses of a completed analysis under a Gate, for CI: partial
// coverage (a limit was reached), and findings at or above the threshold.
// 0 is a pass; failures of the analysis itself are not the gate's to judge.
const (
	ExitPartial  = 2
	ExitFindings = 3
)

// Gate is the CI policy over an analysis: fail on findings at or above a
// severity, and on partial coverage.
type Gate struct {
	// FailOn is "" (never fail on findings), low, medium or high.
	FailOn string
	// FailOnPartial makes partial coverage a failure (ExitPartial).
	FailOnPartial bool
}

// Validate rejects a threshold that is not low, medium or high.
func (g Gate) Validate() error {
	// info is a severity of findings but never a threshold.
	if g.FailOn != "" && abi.SeverityRank(g.FailOn) <= abi.SeverityRank(abi.SeverityInfo) {
		return fmt.Errorf("%q is not low, medium or high", g.FailOn)
	}
	return nil
}

// Verdict is what a Gate concluded.
type Verdict struct {
	// AtOrAbove counts the findings at or above FailOn (0 without one).
	AtOrAbove int
	// Partial says coverage was not complete, whether or not it fails.
	Partial bool
	// ExitCode is 0, ExitFindings (which wins) or ExitPartial.
	ExitCode int
}

// Judge applies the gate to a validated threshold, the findings and the
// analysis's coverage ("complete" or anything else).
func (g Gate) Judge(findings []Finding, coverage string) Verdict {
	var v Verdict
	if g.FailOn != "" {
		for _, f := range findings {
			if f.Suppressed == nil && abi.SeverityRank(f.Severity) >= abi.SeverityRank(g.FailOn) {
				v.AtOrAbove++
			}
		}
	}
	v.Partial = coverage != "complete"
	switch {
	case v.AtOrAbove > 0:
		v.ExitCode = ExitFindings
	case v.Partial && g.FailOnPartial:
		v.ExitCode = ExitPartial
	}
	return v
}
