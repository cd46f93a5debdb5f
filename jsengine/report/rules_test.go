package report

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
)

func TestRuleTableIsSortedAndComplete(t *testing.T) {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
		if r.Severity == "" || r.Title == "" || r.Description == "" || r.Equivalents == nil {
			t.Errorf("rule %s lacks severity, title, description or equivalents", r.ID)
		}
		for _, e := range r.Equivalents {
			if e.Kind == ElectronChecklist && ChecklistItems[e.ID] == "" {
				t.Errorf("rule %s names checklist item %s, which does not exist", r.ID, e.ID)
			}
		}
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatalf("rule table not in id order: %v", ids)
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Fatalf("rule %s twice", ids[i])
		}
	}
	if len(ChecklistItems) != 20 {
		t.Fatalf("%d checklist items, the checklist has 20", len(ChecklistItems))
	}
}

// Every rule id the analysis writes (finding("id", …), RuleID: "id") is in
// the table, so every finding gets its equivalents.
func TestEveryEmittedRuleIsInTheTable(t *testing.T) {
	files, err := filepath.Glob("../*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no jsengine sources: %v", err)
	}
	re := regexp.MustCompile(`(?:finding\(|RuleID: |f\.RuleID, f\.Severity = )"([a-z0-9-]+)"`)
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			seen++
			if _, ok := RuleByID(m[1]); !ok && !regexp.MustCompile(`_test\.go$`).MatchString(f) {
				t.Errorf("%s emits %s, which is not in the rule table", f, m[1])
			}
		}
	}
	if seen < 30 {
		t.Fatalf("found only %d rule ids in the sources; the pattern no longer matches how findings are written", seen)
	}
}

// Every one of Electronegativity's 42 security checks has a counterpart.
func TestEveryElectronegativityCheckHasACounterpart(t *testing.T) {
	checks := []string{"AFFINITY_GLOBAL_CHECK", "AFFINITY_HTML_CHECK", "AFFINITY_JS_CHECK", "ALLOWPOPUPS_HTML_CHECK", "AUXCLICK_HTML_CHECK",
		"AUXCLICK_JS_CHECK", "AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK", "BLINK_FEATURES_HTML_CHECK", "BLINK_FEATURES_JS_CHECK",
		"CERTIFICATE_ERROR_EVENT_JS_CHECK", "CERTIFICATE_VERIFY_PROC_JS_CHECK", "CONTEXT_ISOLATION_JS_CHECK", "CSP_GLOBAL_CHECK",
		"CSP_HTML_CHECK", "CSP_JS_CHECK", "CUSTOM_ARGUMENTS_JS_CHECK", "CUSTOM_ARGUMENTS_JSON_CHECK", "DANGEROUS_FUNCTIONS_JS_CHECK",
		"ELECTRON_VERSION_JSON_CHECK", "EXPERIMENTAL_FEATURES_HTML_CHECK", "EXPERIMENTAL_FEATURES_JS_CHECK", "HTTP_RESOURCES_HTML_CHECK",
		"HTTP_RESOURCES_JS_CHECK", "HTTP_RESOURCES_WITH_NODE_INTEGRATION_GLOBAL_CHECK", "INSECURE_CONTENT_HTML_CHECK",
		"INSECURE_CONTENT_JS_CHECK", "LIMIT_NAVIGATION_GLOBAL_CHECK", "LIMIT_NAVIGATION_JS_CHECK", "NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK",
		"NODE_INTEGRATION_HTML_CHECK", "NODE_INTEGRATION_JS_CHECK", "OPEN_EXTERNAL_JS_CHECK", "PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK",
		"PERMISSION_REQUEST_HANDLER_JS_CHECK", "PRELOAD_JS_CHECK", "PROTOCOL_HANDLER_JS_CHECK", "REMOTE_MODULE_JS_CHECK", "SANDBOX_JS_CHECK",
		"SECURITY_WARNINGS_DISABLED_JS_CHECK", "SECURITY_WARNINGS_DISABLED_JSON_CHECK", "WEB_SECURITY_HTML_CHECK", "WEB_SECURITY_JS_CHECK"}
	if len(checks) != 42 {
		t.Fatalf("%d checks listed", len(checks))
	}
	for _, c := range checks {
		if len(RulesForCheck(c)) == 0 {
			t.Errorf("no rule for %s", c)
		}
	}
	if got := RulesForCheck("ContextIsolationJSCheck"); len(got) != 1 || got[0] != "context-isolation-disabled" {
		t.Fatalf("class name lookup: %v", got)
	}
}

func TestEquivalentsFollowTheFindingsSourceType(t *testing.T) {
	ids := func(eqs []Equivalent) []string {
		var out []string
		for _, e := range eqs {
			out = append(out, e.Kind+":"+e.ID)
		}
		return out
	}
	got := ids(EquivalentsFor("web-security-disabled", "html"))
	want := []string{"electronegativity:WEB_SECURITY_HTML_CHECK", "electron-checklist:6"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("html: %v", got)
	}
	got = ids(EquivalentsFor("csp-missing", "html"))
	if len(got) != 2 || got[0] != "electronegativity:CSP_GLOBAL_CHECK" {
		t.Fatalf("global checks apply in every file: %v", got)
	}
	if len(EquivalentsFor("no-such-rule", "javascript")) != 0 {
		t.Fatal("unknown rule has equivalents")
	}
}
