package sarif

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"

	"rea/jsengine/report"
)

// mapLog is the log as rea wrote it from maps before the typed structs
// existed; the typed log must encode to the same bytes, because CI gates
// and code-scanning UIs diff and hash it.
func mapLog(findings []report.Finding) map[string]any {
	level := map[string]string{"high": "error", "medium": "warning", "low": "note", "info": "note"}
	rules := map[string]map[string]any{}
	results := []map[string]any{}
	for _, f := range findings {
		if _, ok := rules[f.RuleID]; !ok {
			rules[f.RuleID] = map[string]any{"id": f.RuleID, "shortDescription": map[string]any{"text": f.RuleID},
				"help": map[string]any{"text": f.Remediation}}
		}
		results = append(results, map[string]any{
			"ruleId": f.RuleID, "level": level[f.Severity], "message": map[string]any{"text": f.Message},
			"locations": []map[string]any{{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": f.Location.File},
				"region":           map[string]any{"startLine": max(f.Location.Line, 1), "startColumn": max(f.Location.Column, 1)},
			}}},
		})
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	ruleList := make([]map[string]any, 0, len(ids))
	for _, id := range ids {
		ruleList = append(ruleList, rules[id])
	}
	return map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []map[string]any{{
			"tool":    map[string]any{"driver": map[string]any{"name": "rea", "informationUri": "https://github.com/morluto/rea", "rules": ruleList}},
			"results": results,
		}},
	}
}

// encodings are the two ways the CLI writes a log: to stdout without HTML
// escaping, and to a --sarif file with encoding/json's defaults.
var encodings = map[string]func(v any) ([]byte, error){
	"stdout": func(v any) ([]byte, error) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err := enc.Encode(v)
		return b.Bytes(), err
	},
	"file": func(v any) ([]byte, error) { return json.MarshalIndent(v, "", "  ") },
}

func TestFromFindingsEncodesLikeTheMapLog(t *testing.T) {
	cases := map[string][]report.Finding{
		"none": nil,
		"one":  {{RuleID: "electron.node-integration", Severity: "high", Message: "nodeIntegration is true", Remediation: "set it false", Location: report.Location{File: "main.js", Line: 3, Column: 7}}},
		"mixed": {
			{RuleID: "z.rule", Severity: "medium", Message: "a <script> & \"quotes\"", Remediation: "r1", Location: report.Location{File: "dir/ü.js", Line: 0, Column: 0}},
			{RuleID: "a.rule", Severity: "low", Message: "m2", Remediation: "r2", Location: report.Location{File: "b.js", Line: 10, Column: 1}},
			{RuleID: "z.rule", Severity: "info", Message: "m3", Remediation: "ignored: the first finding of a rule gives its help", Location: report.Location{File: "c.js", Line: 2, Column: 99}},
			{RuleID: "q.rule", Severity: "unknown", Message: "", Remediation: "", Location: report.Location{File: "", Line: -4, Column: 5}},
		},
	}
	for name, findings := range cases {
		for enc, encode := range encodings {
			want, err := encode(mapLog(findings))
			if err != nil {
				t.Fatal(err)
			}
			got, err := encode(FromFindings(findings))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %s: typed log differs\n got %s\nwant %s", name, enc, got, want)
			}
		}
	}
}

func TestFromFindingsKeepsFindingOrderAndSortsRules(t *testing.T) {
	log := FromFindings([]report.Finding{{RuleID: "b", Severity: "high"}, {RuleID: "a", Severity: "low"}, {RuleID: "b", Severity: "medium"}})
	run := log.Runs[0]
	var got []string
	for _, r := range run.Results {
		got = append(got, r.RuleID+":"+r.Level)
	}
	if want := []string{"b:error", "a:note", "b:warning"}; !equal(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	if len(run.Tool.Driver.Rules) != 2 || run.Tool.Driver.Rules[0].ID != "a" || run.Tool.Driver.Rules[1].ID != "b" {
		t.Errorf("rules %+v, want a then b", run.Tool.Driver.Rules)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
