package main_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Issue 20: "`rea analyze --list-rules` prints the rule table", each rule
// with its Electronegativity and Electron-checklist equivalents.
func TestListRulesPrintsTheRuleTableWithEquivalents(t *testing.T) {
	for _, cmd := range []string{"analyze", "analyze-javascript-application"} {
		r := reaWithModules(t, cmd, "--list-rules")
		if r.code != 0 {
			t.Fatalf("%s --list-rules: exit %d: %s", cmd, r.code, r.stderr)
		}
		reportHas(t, r.stdout, "context-isolation-disabled", "CONTEXT_ISOLATION_JS_CHECK", "electron checklist: #3", "rea-disable")
	}
	r := reaWithModules(t, "analyze", "--list-rules", "--format", "json")
	var table struct {
		Rules []struct {
			ID          string
			Severity    string
			Equivalents []struct{ Kind, ID string }
		}
		ElectronChecklist map[string]string `json:"electron_checklist"`
	}
	decode(t, r.stdout, &table)
	checks := map[string]bool{}
	for _, rule := range table.Rules {
		for _, e := range rule.Equivalents {
			if e.Kind == "electronegativity" {
				checks[e.ID] = true
			}
		}
	}
	if len(checks) != 42 || len(table.ElectronChecklist) != 20 {
		t.Fatalf("the table covers %d Electronegativity checks (want 42) and %d checklist items (want 20)", len(checks), len(table.ElectronChecklist))
	}
	if r := reaWithModules(t, "analyze"); r.code == 0 {
		t.Fatal("analyze without PATH and without --list-rules succeeded")
	}
}

// Issue 20: new rules, version-aware defaults, equivalents on findings and
// suppression comments, through the built binary.
func TestAnalyzeReportsNewRulesEquivalentsAndSuppressions(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"name":"s","main":"main.js","devDependencies":{"electron":"^11.0.0"},"scripts":{"debug":"electron . --inspect=9229"}}`,
		"main.js": `const { BrowserWindow, app } = require('electron');
const w = new BrowserWindow({ webPreferences: {
  preload: require('path').join(__dirname, 'preload.js'),
  webSecurity: false, // rea-disable web-security-disabled -- local test pages
  allowRunningInsecureContent: true, /* eng-disable INSECURE_CONTENT_JS_CHECK */
} });
app.on('web-contents-created', (e, c) => c.on('will-attach-webview', (ev, prefs) => { prefs.nodeIntegration = true; }));
`,
		"preload.js": "const { ipcRenderer } = require('electron');\n",
	})
	r := analyzeApp(t, dir, "--format", "json", "--fail-on", "high")
	if r.code != 3 {
		t.Fatalf("exit %d (want 3: an unsuppressed high finding): %s", r.code, r.stderr)
	}
	var ev struct {
		NormalizedResult struct {
			Application struct {
				Findings []struct {
					RuleID      string `json:"rule_id"`
					Confidence  string
					Message     string
					Equivalents []struct{ Kind, ID string }
					Suppressed  *struct {
						Kind, Reason string
					}
				}
			}
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &ev)
	got := map[string]int{}
	for _, f := range ev.NormalizedResult.Application.Findings {
		got[f.RuleID]++
		switch f.RuleID {
		case "context-isolation-disabled":
			// Electron 11 defaults contextIsolation to false.
			if f.Confidence != "inferred" || !strings.Contains(f.Message, "Electron 11.0.0") {
				t.Errorf("context isolation default: %s %q", f.Confidence, f.Message)
			}
			if len(f.Equivalents) == 0 || f.Equivalents[0].ID != "CONTEXT_ISOLATION_JS_CHECK" {
				t.Errorf("equivalents %+v", f.Equivalents)
			}
		case "web-security-disabled":
			if f.Suppressed == nil || f.Suppressed.Kind != "rea-disable" || f.Suppressed.Reason != "local test pages" {
				t.Errorf("web-security-disabled suppression %+v", f.Suppressed)
			}
		case "insecure-content-allowed":
			if f.Suppressed == nil || f.Suppressed.Kind != "eng-disable" {
				t.Errorf("insecure-content-allowed suppression %+v", f.Suppressed)
			}
		}
	}
	for rule, n := range map[string]int{"context-isolation-disabled": 1, "sandbox-disabled": 1, "preload-script": 1,
		"webview-attach-node-integration": 1, "dangerous-command-line-switch": 1, "electron-version": 1,
		"web-security-disabled": 1, "insecure-content-allowed": 1, "node-integration-enabled": 0} {
		if got[rule] != n {
			t.Errorf("%s: %d findings, want %d", rule, got[rule], n)
		}
	}
	// The text report marks suppressed findings.
	text := analyzeApp(t, dir)
	reportHas(t, text.stdout, "suppressed")

	// SARIF: valid against the 2.1.0 schema, rules with equivalents,
	// suppressions in the results.
	s := analyzeApp(t, dir, "--format", "sarif")
	if s.code != 0 {
		t.Fatalf("sarif: exit %d: %s", s.code, s.stderr)
	}
	validateSARIF(t, []byte(s.stdout))
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct{ Kind, Justification string }
			}
			Tool struct {
				Driver struct {
					Rules []struct {
						ID            string
						Properties    struct{ Equivalents []struct{ Kind, ID string } }
						Relationships []struct{ Target struct{ ID string } }
					}
				}
			}
			Taxonomies []struct{ Name string }
		}
	}
	decode(t, s.stdout, &log)
	run := log.Runs[0]
	suppressed := 0
	for _, res := range run.Results {
		if len(res.Suppressions) > 0 {
			suppressed++
			if res.Suppressions[0].Kind != "inSource" {
				t.Errorf("suppression kind %q", res.Suppressions[0].Kind)
			}
		}
	}
	if suppressed != 2 {
		t.Errorf("%d suppressed SARIF results, want 2", suppressed)
	}
	for _, rule := range run.Tool.Driver.Rules {
		if rule.ID == "context-isolation-disabled" && (len(rule.Properties.Equivalents) == 0 || len(rule.Relationships) == 0) {
			t.Errorf("rule %s has no equivalents in SARIF: %+v", rule.ID, rule)
		}
	}
	if len(run.Taxonomies) != 2 {
		t.Errorf("taxonomies %+v", run.Taxonomies)
	}
}

// validateSARIF checks a log against the OASIS SARIF 2.1.0 schema.
func validateSARIF(t *testing.T, b []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "jsengine", "report", "sarif", "testdata", "sarif-schema-2.1.0.json"))
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
		t.Fatalf("rea's SARIF is not valid SARIF 2.1.0: %v", err)
	}
}
