package main_test

import (
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

func guidanceEnv(t *testing.T) []string {
	return []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "guidance")}
}

func TestGuidanceCommandSearchesThenReadsByLocator(t *testing.T) {
	env := guidanceEnv(t)
	res := rea(t, "", env, "guidance", "--query", "exact JavaScript module", "--limit", "3", "--format", "json")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	var search struct {
		Terms      []string `json:"terms"`
		Total      int      `json:"total_matches"`
		Limit      int      `json:"limit"`
		NextOffset *int     `json:"next_offset"`
		Matches    []struct {
			Locator       string `json:"locator"`
			MatchScope    string `json:"match_scope"`
			ContentLength int    `json:"content_length"`
		} `json:"matches"`
	}
	decode(t, res.stdout, &search)
	if len(search.Matches) == 0 || len(search.Matches) > 3 || search.Limit != 3 || strings.Join(search.Terms, " ") != "exact javascript module" {
		t.Fatalf("search: %+v", search)
	}
	if search.Total > 3 && (search.NextOffset == nil || *search.NextOffset != 3) {
		t.Fatalf("paging: total %d next %v", search.Total, search.NextOffset)
	}
	loc := search.Matches[0].Locator
	res = rea(t, "", env, "guidance", "--action", "read", "--locator", loc, "--format", "json")
	var read struct {
		Locator       string `json:"locator"`
		Content       string `json:"content"`
		ContentLength int    `json:"content_length"`
	}
	decode(t, res.stdout, &read)
	if res.code != 0 || read.Locator != loc || read.ContentLength != search.Matches[0].ContentLength || read.Content == "" {
		t.Fatalf("read: exit %d %+v", res.code, read)
	}
	// Text output names the locator and says how to read it.
	res = rea(t, "", env, "guidance", "--query", "exact JavaScript module")
	if res.code != 0 || !strings.Contains(res.stdout, loc) || !strings.Contains(res.stdout, "rea guidance read LOCATOR") {
		t.Fatalf("text output:\n%s", res.stdout)
	}
	// Each operation's own command gives what the older --action form gives.
	for _, c := range []struct{ own, old []string }{
		{[]string{"guidance", "search", "exact JavaScript module", "--limit", "3"}, []string{"guidance", "--query", "exact JavaScript module", "--limit", "3"}},
		{[]string{"guidance", "read", loc}, []string{"guidance", "--action", "read", "--locator", loc}},
	} {
		own := rea(t, "", env, append(c.own, "--format", "json")...)
		old := rea(t, "", env, append(c.old, "--format", "json")...)
		if own.code != 0 || own.stdout != old.stdout {
			t.Errorf("%v: exit %d, output differs from %v:\n%s\n%s", c.own, own.code, c.old, own.stdout, old.stdout)
		}
	}
}

func TestGuidanceCommandReportsAStaleLocatorAndBadFlags(t *testing.T) {
	env := guidanceEnv(t)
	stale := "g1." + strings.Repeat("0", 32) + "." + strings.Repeat("0", 32)
	res := rea(t, "", env, "guidance", "--action", "read", "--locator", stale)
	if res.code != 1 || !strings.Contains(res.stderr, "unavailable") || !strings.Contains(res.stderr, "stale_locator") || res.stdout != "" {
		t.Fatalf("stale locator: exit %d stdout %q stderr %q", res.code, res.stdout, res.stderr)
	}
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"guidance"}, "--query"},
		{[]string{"guidance", "--action", "read"}, "--locator"},
		{[]string{"guidance", "--action", "read", "--locator", stale, "--query", "x"}, "--query"},
		{[]string{"guidance", "--action", "list"}, "--action"},
	} {
		res := rea(t, "", env, tc.args...)
		if res.code != 1 || !strings.Contains(res.stderr, "invalid_request") || !strings.Contains(res.stderr, tc.flag) {
			t.Errorf("%v: exit %d stderr %q", tc.args, res.code, res.stderr)
		}
	}
}

func TestGuidanceCommandGenericOnlyQueryMatchesNothing(t *testing.T) {
	res := rea(t, "", guidanceEnv(t), "guidance", "--query", "how do I use the tool")
	if res.code != 0 || !strings.Contains(res.stdout, "no matches (generic_only)") || !strings.Contains(res.stdout, "says nothing about analysis capability") {
		t.Fatalf("exit %d:\n%s", res.code, res.stdout)
	}
}

func TestGuidedWorkflowsCommandListsAndRendersWithTheSharedContract(t *testing.T) {
	res := rea(t, "", nil, "guided-workflows")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	for _, id := range seedWorkflows {
		if !strings.Contains(res.stdout, id+" — ") {
			t.Errorf("list lacks %s:\n%s", id, res.stdout)
		}
	}
	res = rea(t, "", nil, "guided-workflows", "--action", "render", "--workflow-id", "investigate_feature", "--arguments-json", `{"feature":"offline search"}`)
	if res.code != 0 || !strings.HasPrefix(res.stdout, "# Investigate a feature\n") || !strings.Contains(res.stdout, `{"feature":"offline search"}`) {
		t.Fatalf("render: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--action", "render", "--workflow-id", "investigate_feature", "--arguments-json", `{"feature":5}`}, "arguments.feature"},
		{[]string{"--action", "render", "--workflow-id", "investigate_feature", "--arguments-json", `{"feature":"x","nope":"y"}`}, "arguments.nope"},
		{[]string{"--action", "render", "--workflow-id", "investigate_feature", "--arguments-json", `[1]`}, "--arguments-json"},
		{[]string{"--workflow-id", "investigate_feature"}, "workflow_id"},
		{[]string{"--arguments-json", `{}`}, "arguments"},
		{[]string{"--action", "render", "--workflow-id", "no_such"}, "not_found"},
	} {
		res := rea(t, "", nil, append([]string{"guided-workflows", "--format", "json"}, tc.args...)...)
		if res.code != 1 || !strings.Contains(res.stdout, `"invalid_request"`) || !strings.Contains(res.stdout, tc.want) {
			t.Errorf("%v: exit %d stdout %s", tc.args, res.code, res.stdout)
		}
	}
}
