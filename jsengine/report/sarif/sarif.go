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

// Run is one analysis: the tool with its rules and the results, and the
// catalogues (taxonomies) its rules' relationships point into.
type Run struct {
	Invocations []Invocation    `json:"invocations,omitempty"`
	Results     []Result        `json:"results"`
	Taxonomies  []ToolComponent `json:"taxonomies,omitempty"`
	Tool        Tool            `json:"tool"`
}

// Invocation is how the run went: it carries one notification per file the
// analysis did not cover, so that a code-scanning UI does not read "no
// results" for such a file as "clean".
type Invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []Notification `json:"toolExecutionNotifications"`
}

// Notification is one file not analysed, and why.
type Notification struct {
	Level     string         `json:"level"`
	Locations []FileLocation `json:"locations"`
	Message   Message        `json:"message"`
}

// FileLocation names a file without a region.
type FileLocation struct {
	PhysicalLocation FileOnly `json:"physicalLocation"`
}

// FileOnly is a physical location that is a whole file.
type FileOnly struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
}

// ToolComponent is a taxonomy: Electronegativity's checks or the items of
// Electron's security checklist.
type ToolComponent struct {
	InformationURI string  `json:"informationUri,omitempty"`
	Name           string  `json:"name"`
	Taxa           []Taxon `json:"taxa"`
}

// Taxon is one check or checklist item.
type Taxon struct {
	ID               string   `json:"id"`
	ShortDescription *Message `json:"shortDescription,omitempty"`
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

// Rule describes one rule id that has at least one result. A rule of
// rea's rule table also has its description, properties (its equivalents,
// tags and security-severity, which code-scanning UIs read) and
// relationships to the taxa it corresponds to.
type Rule struct {
	FullDescription  *Message       `json:"fullDescription,omitempty"`
	Help             Message        `json:"help"`
	ID               string         `json:"id"`
	Name             string         `json:"name,omitempty"`
	Properties       *RuleProps     `json:"properties,omitempty"`
	Relationships    []Relationship `json:"relationships,omitempty"`
	ShortDescription Message        `json:"shortDescription"`
}

// RuleProps are a rule's property bag.
type RuleProps struct {
	Equivalents      []report.Equivalent `json:"equivalents"`
	SecuritySeverity string              `json:"security-severity"`
	Tags             []string            `json:"tags"`
}

// Relationship links a rule to a taxon it corresponds to.
type Relationship struct {
	Kinds  []string  `json:"kinds"`
	Target Reference `json:"target"`
}

// Reference names a taxon of a taxonomy.
type Reference struct {
	ID            string       `json:"id"`
	ToolComponent ComponentRef `json:"toolComponent"`
}

// ComponentRef names a taxonomy of the run.
type ComponentRef struct {
	Name string `json:"name"`
}

// Suppression says a result is suppressed in the source, and why.
type Suppression struct {
	Justification string    `json:"justification,omitempty"`
	Kind          string    `json:"kind"`
	Location      *Location `json:"location,omitempty"`
	Status        string    `json:"status"`
}

// Message is SARIF's text wrapper.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	Level        string        `json:"level"`
	Locations    []Location    `json:"locations"`
	Message      Message       `json:"message"`
	RuleID       string        `json:"ruleId"`
	Suppressions []Suppression `json:"suppressions,omitempty"`
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
			rules[f.RuleID] = ruleOf(f)
		}
		res := Result{
			RuleID:    f.RuleID,
			Level:     Level(f.Severity),
			Message:   Message{Text: f.Message},
			Locations: []Location{at(f.Location)},
		}
		if s := f.Suppressed; s != nil {
			l := at(s.Location)
			res.Suppressions = []Suppression{{Kind: "inSource", Status: "accepted", Justification: s.Reason, Location: &l}}
		}
		results = append(results, res)
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
			Tool:       Tool{Driver: Driver{Name: "rea", InformationURI: "https://github.com/morluto/rea", Rules: ruleList}},
			Results:    results,
			Taxonomies: taxonomies(ruleList),
		}},
	}
}

// FromResult renders an analysis as a log: FromFindings, plus an
// invocation whose notifications name every file not parsed or left out by
// a limit.
func FromResult(r *report.Result) Log {
	log := FromFindings(r.Findings)
	notes := []Notification{}
	note := func(file, text string) {
		notes = append(notes, Notification{Level: "warning", Message: Message{Text: text},
			Locations: []FileLocation{{PhysicalLocation: FileOnly{ArtifactLocation: ArtifactLocation{URI: file}}}}})
	}
	for _, m := range r.Modules {
		if m.ParseError != "" {
			note(m.Path, "not analysed: "+m.ParseError)
		}
	}
	for _, o := range r.OmittedFiles {
		note(o.Path, "not analysed: "+o.Reason)
	}
	log.Runs[0].Invocations = []Invocation{{ExecutionSuccessful: true, ToolExecutionNotifications: notes}}
	return log
}

func at(l report.Location) Location {
	return Location{PhysicalLocation: PhysicalLocation{
		ArtifactLocation: ArtifactLocation{URI: l.File},
		Region:           Region{StartLine: max(l.Line, 1), StartColumn: max(l.Column, 1)},
	}}
}

// Taxonomy names.
const (
	electronegativity = "Electronegativity"
	checklist         = "Electron security checklist"
)

var securitySeverity = map[string]string{"high": "8.0", "medium": "5.0", "low": "3.0", "info": "1.0"}

// ruleOf is the rule of a finding: from rea's rule table when it is there.
func ruleOf(f report.Finding) Rule {
	r := Rule{ID: f.RuleID, ShortDescription: Message{Text: f.RuleID}, Help: Message{Text: f.Remediation}}
	t, ok := report.RuleByID(f.RuleID)
	if !ok {
		return r
	}
	r.Name = t.Title
	r.ShortDescription = Message{Text: t.Title}
	r.FullDescription = &Message{Text: t.Description}
	r.Properties = &RuleProps{Equivalents: t.Equivalents, SecuritySeverity: securitySeverity[t.Severity], Tags: []string{"security", "electron"}}
	for _, e := range t.Equivalents {
		name := electronegativity
		if e.Kind == report.ElectronChecklist {
			name = checklist
		}
		r.Relationships = append(r.Relationships, Relationship{Kinds: []string{"relevant"}, Target: Reference{ID: e.ID, ToolComponent: ComponentRef{Name: name}}})
	}
	return r
}

// taxonomies declares the taxa the rules' relationships name.
func taxonomies(rules []Rule) []ToolComponent {
	taxa := map[string]map[string]bool{}
	for _, r := range rules {
		for _, rel := range r.Relationships {
			if taxa[rel.Target.ToolComponent.Name] == nil {
				taxa[rel.Target.ToolComponent.Name] = map[string]bool{}
			}
			taxa[rel.Target.ToolComponent.Name][rel.Target.ID] = true
		}
	}
	var out []ToolComponent
	for _, c := range []struct{ name, uri string }{
		{checklist, "https://www.electronjs.org/docs/latest/tutorial/security"},
		{electronegativity, "https://github.com/doyensec/electronegativity"},
	} {
		ids := make([]string, 0, len(taxa[c.name]))
		for id := range taxa[c.name] {
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			continue
		}
		sort.Slice(ids, func(i, j int) bool {
			if len(ids[i]) != len(ids[j]) && c.name == checklist {
				return len(ids[i]) < len(ids[j]) // 2 before 10
			}
			return ids[i] < ids[j]
		})
		tc := ToolComponent{Name: c.name, InformationURI: c.uri}
		for _, id := range ids {
			tx := Taxon{ID: id}
			if title := report.ChecklistItems[id]; c.name == checklist && title != "" {
				tx.ShortDescription = &Message{Text: title}
			}
			tc.Taxa = append(tc.Taxa, tx)
		}
		out = append(out, tc)
	}
	return out
}
