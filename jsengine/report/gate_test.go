package report

import "testing"

func TestGateValidatesItsThreshold(t *testing.T) {
	for _, ok := range []string{"", "low", "medium", "high"} {
		if err := (Gate{FailOn: ok}).Validate(); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"info", "HIGH", "critical", " low"} {
		if err := (Gate{FailOn: bad}).Validate(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestGateJudgesFindingsBeforePartialCoverage(t *testing.T) {
	findings := []Finding{{Severity: "high"}, {Severity: "medium"}, {Severity: "low"}, {Severity: "info"}, {Severity: "medium"}}
	cases := []struct {
		gate     Gate
		coverage string
		want     Verdict
	}{
		{Gate{}, "complete", Verdict{}},
		{Gate{FailOn: "high"}, "complete", Verdict{AtOrAbove: 1, ExitCode: ExitFindings}},
		{Gate{FailOn: "medium"}, "complete", Verdict{AtOrAbove: 3, ExitCode: ExitFindings}},
		{Gate{FailOn: "low"}, "partial", Verdict{AtOrAbove: 4, Partial: true, ExitCode: ExitFindings}},
		{Gate{FailOnPartial: true}, "partial", Verdict{Partial: true, ExitCode: ExitPartial}},
		{Gate{FailOnPartial: false}, "partial", Verdict{Partial: true}},
		{Gate{FailOn: "high", FailOnPartial: true}, "complete", Verdict{AtOrAbove: 1, ExitCode: ExitFindings}},
	}
	for _, c := range cases {
		if got := c.gate.Judge(findings, c.coverage); got != c.want {
			t.Errorf("%+v over %s: %+v, want %+v", c.gate, c.coverage, got, c.want)
		}
	}
	if got := (Gate{FailOn: "high", FailOnPartial: true}).Judge(nil, "complete"); got != (Verdict{}) {
		t.Errorf("no findings, complete: %+v", got)
	}
}
