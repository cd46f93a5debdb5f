// Package sarif renders the findings of a JavaScript/Electron analysis as a
// SARIF 2.1.0 log, the format code-scanning UIs and CI gates read. It sits
// beside the report types and depends on nothing else, so the CLI and the
// MCP server can both serve it without linking the parsers.
//
// Every struct declares its fields in the sorted order of their JSON names:
// the log's bytes stay the same as when it was written from maps, and a
// reader diffing two logs sees only real changes.
package sarif

import (
	"sort"

	"rea/jsengine/report"
)

// Schema and Version identify the SARIF dialect of every log.
const (
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
	Version = "2.1.0"
)

// Log is a SARIF log: one run of rea.
type Log struct {
	Schema  string `json:"$schema"`
	Runs    []Run  `json:"runs"`
	Version string `json:"version"`
}

// Run is one analysis: the tool with its rules and the results.
type Run struct {
	Results []Result `json:"results"`
	Tool    Tool     `json:"tool"`
}

// Tool names the producer.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is rea and the rules its results refer to.
type Driver struct {
	InformationURI string `json:"informationUri"`
	Name           string `json:"name"`
	Rules          []Rule `json:"rules"`
}

// Rule describes one rule id that has at least one result.
type Rule struct {
	Help             Message `json:"help"`
	ID               string  `json:"id"`
	ShortDescription Message `json:"shortDescription"`
}

// Message is SARIF's text wrapper.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	Level     string     `json:"level"`
	Locations []Location `json:"locations"`
	Message   Message    `json:"message"`
	RuleID    string     `json:"ruleId"`
}

// Location places a result in a file.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and a region in it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           Region           `json:"region"`
}

// ArtifactLocation is a file of the application, relative to its root.
type ArtifactLocation struct {
	URI string `json:"uri"`
}

// Region is a 1-based start position.
type Region struct {
	StartColumn int `json:"startColumn"`
	StartLine   int `json:"startLine"`
}

// levels maps rea's severities to SARIF levels.
var levels = map[string]string{"high": "error", "medium": "warning", "low": "note", "info": "note"}

// Level is the SARIF level of a rea severity ("" for an unknown one).
func Level(severity string) string { return levels[severity] }

// FromFindings renders findings as a log: one result per finding in the
// findings' order, and one rule per rule id, sorted by id. Positions below
// 1 (unknown) become 1, the smallest SARIF allows.
func FromFindings(findings []report.Finding) Log {
	rules := map[string]Rule{}
	results := make([]Result, 0, len(findings))
	for _, f := range findings {
		if _, ok := rules[f.RuleID]; !ok {
			rules[f.RuleID] = Rule{ID: f.RuleID, ShortDescription: Message{Text: f.RuleID}, Help: Message{Text: f.Remediation}}
		}
		results = append(results, Result{
			RuleID:  f.RuleID,
			Level:   Level(f.Severity),
			Message: Message{Text: f.Message},
			Locations: []Location{{PhysicalLocation: PhysicalLocation{
				ArtifactLocation: ArtifactLocation{URI: f.Location.File},
				Region:           Region{StartLine: max(f.Location.Line, 1), StartColumn: max(f.Location.Column, 1)},
			}}},
		})
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	ruleList := make([]Rule, 0, len(ids))
	for _, id := range ids {
		ruleList = append(ruleList, rules[id])
	}
	return Log{
		Schema:  Schema,
		Version: Version,
		Runs: []Run{{
			Tool:    Tool{Driver: Driver{Name: "rea", InformationURI: "https://github.com/morluto/rea", Rules: ruleList}},
			Results: results,
		}},
	}
}
