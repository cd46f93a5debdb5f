package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
)

// Analyst notes through the built rea: over MCP stdio a name, comments and
// bookmarks are recorded as Evidence, shown (marked analyst-supplied) in
// later results, exported in the bundle and restored by an import in a
// fresh session; over the CLI the same notes live in a --notes bundle.

func procAddr(t *testing.T, c *mcpClient, bin, name string) string {
	t.Helper()
	found := structured(t, c.call(t, "search_procedures", map[string]any{"input_path": bin, "pattern": name}))
	for _, it := range obj(t, found, "normalized_result", "procedures")["items"].([]any) {
		if it.(map[string]any)["name"] == name {
			return it.(map[string]any)["address"].(string)
		}
	}
	t.Fatalf("no procedure %s", name)
	return ""
}

func annotations(t *testing.T, rec map[string]any) map[string]map[string]any {
	t.Helper()
	ann := obj(t, rec, "normalized_result", "analyst_annotations")
	if ann["authority"] != "analyst-inference" || !strings.Contains(ann["source"].(string), "not read from the binary") {
		t.Fatalf("annotations not marked analyst-supplied: %v", ann)
	}
	out := map[string]map[string]any{}
	for _, it := range ann["items"].([]any) {
		out[it.(map[string]any)["address"].(string)] = it.(map[string]any)
	}
	return out
}

func TestAnalystNotesOverMCPAreEvidenceAppliedAndExported(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	c := nativeMCP(t)
	structured(t, c.call(t, "open_binary", map[string]any{"input_path": bin, "provider_id": "native-lite"}))
	middle := procAddr(t, c, bin, "middle")

	// set_address_name: recorded, read back, prior value null.
	set := structured(t, c.call(t, "set_address_name", map[string]any{"address": middle, "name": "checksum_loop"}))
	m := set["mutations"].([]any)[0].(map[string]any)
	if m["readback_match"] != true || m["readback"] != "checksum_loop" || m["prior_value"] != nil || !strings.HasPrefix(set["mutation_evidence_id"].(string), "ev_") {
		t.Fatalf("set_address_name: %v", set)
	}
	// analyze_function shows it beside the binary's own name, which stays.
	af := structured(t, c.call(t, "analyze_function", map[string]any{"input_path": bin, "procedure": "middle"}))
	if obj(t, af, "normalized_result", "procedure")["name"] != "middle" {
		t.Fatalf("the binary's name was replaced: %v", obj(t, af, "normalized_result", "procedure"))
	}
	at := annotations(t, af)[middle]
	if at == nil || obj(t, at, "name")["value"] != "checksum_loop" || obj(t, at, "name")["evidence_id"] != set["mutation_evidence_id"] {
		t.Fatalf("analyze_function annotations at %s: %v", middle, at)
	}
	if links, _ := af["evidence_links"].([]any); len(links) != 1 || links[0] != set["mutation_evidence_id"] {
		t.Fatalf("evidence_links %v", af["evidence_links"])
	}
	// The analyst name also names the procedure.
	byNote := structured(t, c.call(t, "analyze_function", map[string]any{"input_path": bin, "procedure": "checksum_loop"}))
	if obj(t, byNote, "normalized_result", "procedure")["address"] != middle {
		t.Fatalf("analyze_function by analyst name: %v", obj(t, byNote, "normalized_result", "procedure"))
	}
	// A rename records the prior value; list_procedures shows the new one.
	set2 := structured(t, c.call(t, "set_address_name", map[string]any{"address": middle, "name": "sum_loop"}))
	if m := set2["mutations"].([]any)[0].(map[string]any); m["prior_value"] != "checksum_loop" {
		t.Fatalf("rename: %v", m)
	}
	procs := structured(t, c.call(t, "list_procedures", map[string]any{"input_path": bin, "limit": 500}))
	if at := annotations(t, procs)[middle]; at == nil || obj(t, at, "name")["value"] != "sum_loop" {
		t.Fatalf("list_procedures annotations: %v", at)
	}
	an := obj(t, structured(t, c.call(t, "address_name", map[string]any{"address": middle})), "normalized_result")
	if an["name"] != "sum_loop" || an["name_source"] != "analyst" || an["binary_name"] != "middle" {
		t.Fatalf("address_name: %v", an)
	}

	// Comments: read back, seen by inspect_address_context and comment.
	com := structured(t, c.call(t, "set_comment", map[string]any{"address": middle, "comment": "adds the table\nthen returns"}))
	if com["mutations"].([]any)[0].(map[string]any)["readback_match"] != true {
		t.Fatalf("set_comment: %v", com)
	}
	structured(t, c.call(t, "set_inline_comment", map[string]any{"address": middle, "comment": "prologue"}))
	if got := structured(t, c.call(t, "comment", map[string]any{"address": middle})); got["value"] != "adds the table\nthen returns" || got["authority"] != "analyst-inference" {
		t.Fatalf("comment: %v", got)
	}
	if got := structured(t, c.call(t, "inline_comment", map[string]any{"address": middle})); got["value"] != "prologue" {
		t.Fatalf("inline_comment: %v", got)
	}
	ctx := obj(t, structured(t, c.call(t, "inspect_address_context", map[string]any{"address": middle})), "normalized_result", "facets")
	if obj(t, ctx, "comment", "note")["value"] != "adds the table\nthen returns" || obj(t, ctx, "name", "analyst_name")["value"] != "sum_loop" {
		t.Fatalf("inspect_address_context facets: %v", ctx)
	}

	// Bookmarks: set two, list, unset one.
	structured(t, c.call(t, "set_bookmark", map[string]any{"address": middle, "name": "hot loop"}))
	leaf := procAddr(t, c, bin, "leaf")
	structured(t, c.call(t, "set_bookmark", map[string]any{"address": leaf}))
	bm := obj(t, structured(t, c.call(t, "list_bookmarks", map[string]any{})), "bookmarks")
	items := bm["items"].([]any)
	if bm["total"] != float64(2) || len(items) != 2 {
		t.Fatalf("list_bookmarks: %v", bm)
	}
	byAddr := map[string]string{}
	for _, it := range items {
		byAddr[it.(map[string]any)["address"].(string)] = it.(map[string]any)["value"].(string)
	}
	if byAddr[middle] != "hot loop" || byAddr[leaf] != leaf {
		t.Fatalf("bookmarks %v", byAddr)
	}
	structured(t, c.call(t, "unset_bookmark", map[string]any{"address": leaf}))
	if e := toolError(t, c.call(t, "unset_bookmark", map[string]any{"address": leaf})); e["code"] != "invalid_request" || obj(t, e, "details")["reason"] != "not_found" {
		t.Fatalf("unset twice: %v", e)
	}

	// Invalid addresses are typed errors and write nothing.
	for _, bad := range []map[string]any{{"address": "nowhere", "name": "x"}, {"address": "0x10", "name": "x"}} {
		e := toolError(t, c.call(t, "set_address_name", bad))
		if e["code"] != "invalid_request" || obj(t, e, "details")["field"] != "address" {
			t.Fatalf("%v: %v", bad, e)
		}
	}
	if e := toolError(t, c.call(t, "set_addresses_names", map[string]any{"names": map[string]any{middle: "ok", "0x10": "unmapped"}})); obj(t, e, "details")["reason"] != "address_unmapped" {
		t.Fatalf("batch with an unmapped address: %v", e)
	}
	if an := obj(t, structured(t, c.call(t, "address_name", map[string]any{"address": middle})), "normalized_result"); an["name"] != "sum_loop" {
		t.Fatalf("a refused batch changed the name: %v", an)
	}

	// The bundle carries every mutation; a fresh session importing it
	// sees the same notes.
	out := filepath.Join(t.TempDir(), "notes.json")
	structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": out}))
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var bundle struct {
		Records []struct {
			PredicateType string `json:"predicate_type"`
			Operation     string `json:"operation"`
			Authority     string `json:"authority"`
		} `json:"records"`
	}
	if err := json.Unmarshal(raw, &bundle); err != nil {
		t.Fatal(err)
	}
	ops := map[string]int{}
	for _, r := range bundle.Records {
		if r.PredicateType == "rea.analyst-note-mutation/v1" {
			ops[r.Operation]++
			if r.Authority != "analyst-inference" {
				t.Errorf("%s authority %s", r.Operation, r.Authority)
			}
		}
	}
	if ops["set_address_name"] != 2 || ops["set_comment"] != 1 || ops["set_inline_comment"] != 1 || ops["set_bookmark"] != 2 || ops["unset_bookmark"] != 1 {
		t.Fatalf("note mutations in the bundle: %v", ops)
	}
	fresh := nativeMCP(t)
	structured(t, fresh.call(t, "import_evidence_bundle", map[string]any{"input_path": out}))
	structured(t, fresh.call(t, "open_binary", map[string]any{"input_path": bin, "provider_id": "native-lite"}))
	bm = obj(t, structured(t, fresh.call(t, "list_bookmarks", map[string]any{})), "bookmarks")
	if bm["total"] != float64(1) || bm["items"].([]any)[0].(map[string]any)["value"] != "hot loop" {
		t.Fatalf("bookmarks after import: %v", bm)
	}
	if an := obj(t, structured(t, fresh.call(t, "address_name", map[string]any{"address": middle})), "normalized_result"); an["name"] != "sum_loop" {
		t.Fatalf("name after import: %v", an)
	}
}

func TestAnalystNotesInTheCLILiveInTheNotesBundle(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	notes := filepath.Join(t.TempDir(), "notes.json")
	var fns struct {
		NormalizedResult struct {
			Procedures struct {
				Items []struct{ Name, Address string }
			}
		} `json:"normalized_result"`
	}
	r := rea(t, "", nil, "search-procedures", bin, "leaf", "--format", "json")
	decode(t, r.stdout, &fns)
	leaf := ""
	for _, p := range fns.NormalizedResult.Procedures.Items {
		if p.Name == "leaf" {
			leaf = p.Address
		}
	}
	if leaf == "" {
		t.Fatalf("no leaf: %s", r.stdout)
	}
	if r := rea(t, "", nil, "set-name", bin, leaf, "first_leaf", "--notes", notes); r.code != 0 || !strings.Contains(r.stdout, "readback match true") {
		t.Fatalf("set-name: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := rea(t, "", nil, "set-bookmark", bin, leaf, "--name", "start here", "--notes", notes); r.code != 0 {
		t.Fatalf("set-bookmark: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := rea(t, "", nil, "bookmarks", bin, "--notes", notes); r.code != 0 || !strings.Contains(r.stdout, "start here") {
		t.Fatalf("bookmarks: %d %s %s", r.code, r.stdout, r.stderr)
	}
	// Native commands given --notes show the note beside their result.
	r = rea(t, "", nil, "function", bin, "first_leaf", "--notes", notes, "--format", "json")
	var rec map[string]any
	decode(t, r.stdout, &rec)
	if at := annotations(t, rec)[leaf]; at == nil || obj(t, at, "name")["value"] != "first_leaf" || obj(t, at, "bookmark")["value"] != "start here" {
		t.Fatalf("function --notes: %v", rec["normalized_result"])
	}
	// The bundle validates as Evidence.
	if r := rea(t, "", nil, "inspect-evidence-bundle", notes, "--detail", "summary", "--format", "json"); r.code != 0 || strings.Count(r.stdout, "set_") < 2 {
		t.Fatalf("inspect-evidence-bundle: %d %s %s", r.code, r.stdout, r.stderr)
	}
	// Mutations need --notes; an unmapped address is a typed error.
	if r := rea(t, "", nil, "set-comment", bin, leaf, "x", "--format", "json"); r.code == 0 || !strings.Contains(r.stdout, `"notes"`) {
		t.Fatalf("set-comment without --notes: %d %s", r.code, r.stdout)
	}
	if r := rea(t, "", nil, "set-comment", bin, "0x10", "x", "--notes", notes, "--format", "json"); r.code == 0 || !strings.Contains(r.stdout, "address_unmapped") {
		t.Fatalf("set-comment at 0x10: %d %s", r.code, r.stdout)
	}
}
