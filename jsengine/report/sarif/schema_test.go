package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"rea/jsengine/report"
)

// ValidateAgainstSchema checks a SARIF log's bytes against the OASIS
// SARIF 2.1.0 schema in testdata (source noted in testdata/README.md).
func validateAgainstSchema(t *testing.T, b []byte) {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("not a valid SARIF 2.1.0 log: %v\n%s", err, b)
	}
}

func TestLogsValidateAgainstTheSARIFSchema(t *testing.T) {
	suppressed := &report.Suppression{Kind: "rea-disable", Reason: "test pages", Location: report.Location{File: "main.js", Line: 4, Column: 22}, Comment: "// rea-disable web-security-disabled -- test pages"}
	cases := map[string][]report.Finding{
		"none": nil,
		"table rules": {
			{RuleID: "context-isolation-disabled", Severity: "high", Message: "m", Remediation: "r", Location: report.Location{File: "main.js", Line: 3, Column: 7},
				Equivalents: report.EquivalentsFor("context-isolation-disabled", "javascript")},
			{RuleID: "web-security-disabled", Severity: "high", Message: "m", Remediation: "r", Location: report.Location{File: "main.js", Line: 4, Column: 3}, Suppressed: suppressed},
			{RuleID: "csp-missing", Severity: "low", Message: "m", Remediation: "r", Location: report.Location{File: "index.html", Line: 0, Column: 0}},
		},
		"rule outside the table": {{RuleID: "x.rule", Severity: "info", Location: report.Location{Line: -1}}},
	}
	for name, findings := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(FromFindings(findings))
			if err != nil {
				t.Fatal(err)
			}
			validateAgainstSchema(t, b)
		})
	}
}

// The rule of a table rule carries its equivalents as properties and
// relationships into the taxonomies the run declares; a suppressed
// finding's result says so.
func TestRulesCarryEquivalentsAndResultsTheirSuppressions(t *testing.T) {
	log := FromFindings([]report.Finding{
		{RuleID: "web-security-disabled", Severity: "high", Location: report.Location{File: "main.js", Line: 4, Column: 3},
			Suppressed: &report.Suppression{Kind: "eng-disable", Reason: "why", Location: report.Location{File: "main.js", Line: 1, Column: 1}}},
	})
	run := log.Runs[0]
	r := run.Tool.Driver.Rules[0]
	if r.Properties == nil || len(r.Properties.Equivalents) != 3 || r.Properties.SecuritySeverity != "8.0" {
		t.Fatalf("properties %+v", r.Properties)
	}
	targets := map[string]bool{}
	for _, rel := range r.Relationships {
		targets[rel.Target.ToolComponent.Name+"/"+rel.Target.ID] = true
	}
	for _, want := range []string{"Electronegativity/WEB_SECURITY_JS_CHECK", "Electronegativity/WEB_SECURITY_HTML_CHECK", "Electron security checklist/6"} {
		if !targets[want] {
			t.Errorf("no relationship to %s: %v", want, targets)
		}
	}
	declared := map[string]bool{}
	for _, tc := range run.Taxonomies {
		for _, tx := range tc.Taxa {
			declared[tc.Name+"/"+tx.ID] = true
		}
	}
	for target := range targets {
		if !declared[target] {
			t.Errorf("relationship target %s is not declared in the run's taxonomies", target)
		}
	}
	s := run.Results[0].Suppressions
	if len(s) != 1 || s[0].Kind != "inSource" || s[0].Justification != "why" || s[0].Location == nil {
		t.Fatalf("suppressions %+v", s)
	}
}
