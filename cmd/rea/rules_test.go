package main_test

import (
	"strings"
	"testing"
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
}
