package main_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
)

// The native side of the seed's session contracts, driven through the
// built rea over MCP stdio on gcc-built fixtures: provider binding at
// open_binary, client features per tool, the document/cursor/address
// context tools, layout summary detail, native analysis views and the
// dossier's value flow in bundle summaries.

// nativeMCP starts rea mcp with no machine provider choice.
func nativeMCP(t *testing.T, extra ...string) *mcpClient {
	return startMCP(t, append([]string{"REA_ANALYSIS_PROVIDER=", "GHIDRA_INSTALL_DIR="}, extra...)...)
}

func obj(t *testing.T, v any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v: not an object at %s", v, p)
		}
		v = m[p]
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T %v, not an object", strings.Join(path, "."), v, v)
	}
	return m
}

func TestOpenBinaryBindsTheSelectedProviderAndBinarySessionReportsIt(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	c := nativeMCP(t)

	before := structured(t, c.call(t, "binary_session", map[string]any{}))
	if before["analysis_provider_binding"] != nil {
		t.Fatalf("binding before any open: %v", before["analysis_provider_binding"])
	}
	features := obj(t, before, "client_features")
	for _, f := range []string{"elicitation_form", "elicitation_url", "roots", "sampling"} {
		if _, ok := features[f].(bool); !ok {
			t.Errorf("client_features.%s = %v", f, features[f])
		}
	}
	tools := before["tool_availability"].([]any)
	if len(tools) < 50 {
		t.Fatalf("tool_availability has %d entries", len(tools))
	}
	for _, e := range tools {
		req := obj(t, e, "client_requirements")
		for _, k := range []string{"required", "optional", "missing"} {
			if _, ok := req[k].([]any); !ok {
				t.Fatalf("%v: client_requirements.%s = %v", e.(map[string]any)["name"], k, req[k])
			}
		}
	}

	availability := func(report map[string]any) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, e := range report["tool_availability"].([]any) {
			out[e.(map[string]any)["name"].(string)] = e.(map[string]any)
		}
		return out
	}
	// Without an open native binary the context tools say why they are
	// unavailable; list_documents stays callable.
	av := availability(before)
	if av["get_navigation_context"]["available"] != false || !strings.HasPrefix(av["get_navigation_context"]["reason"].(string), "no_document") ||
		av["list_documents"]["available"] != true {
		t.Fatalf("availability before open: %v / %v", av["get_navigation_context"], av["list_documents"])
	}

	opened := structured(t, c.call(t, "open_binary", map[string]any{"input_path": bin, "provider_id": "native-lite"}))
	b := obj(t, opened, "analysis_provider_binding")
	if b["provider"] != "native-lite" || b["selection_source"] != "request" || !strings.HasPrefix(b["version"].(string), "sha256:") {
		t.Fatalf("binding at open: %v", b)
	}
	if arch := obj(t, b, "analysis_profile", "parameters")["architecture"]; arch != "x86_64" {
		t.Errorf("profile architecture %v", arch)
	}
	if obj(t, opened, "document")["name"] != filepath.Base(bin) {
		t.Errorf("document %v", opened["document"])
	}
	s := structured(t, c.call(t, "binary_session", map[string]any{}))
	if got := obj(t, s, "analysis_provider_binding"); got["provider"] != "native-lite" || got["version"] != b["version"] {
		t.Fatalf("binary_session binding %v, open reported %v", got, b)
	}
	if av := availability(s); av["get_navigation_context"]["available"] != true || av["current_procedure"]["available"] != true {
		t.Fatalf("availability after open: %v", av["get_navigation_context"])
	}

	// An unknown or unavailable choice fails with typed selection details
	// and leaves the bound target as it was.
	e := toolError(t, c.call(t, "open_binary", map[string]any{"input_path": bin, "provider_id": "nonesuch"}))
	if e["code"] != "capability_unavailable" || obj(t, e, "details")["reason"] != "unknown_provider" {
		t.Fatalf("unknown provider: %v", e)
	}
	e = toolError(t, c.call(t, "open_binary", map[string]any{"input_path": bin, "provider_id": "ghidra"}))
	if e["code"] != "capability_unavailable" || obj(t, e, "details")["provider"] != "ghidra" {
		t.Fatalf("unconfigured ghidra: %v", e)
	}
	s = structured(t, c.call(t, "binary_session", map[string]any{}))
	if obj(t, s, "analysis_provider_binding")["provider"] != "native-lite" {
		t.Fatalf("a failed open replaced the binding: %v", s["analysis_provider_binding"])
	}
	// auto binds the only usable candidate and says so.
	auto := structured(t, c.call(t, "open_binary", map[string]any{"input_path": bin}))
	if got := obj(t, auto, "analysis_provider_binding"); got["provider"] != "native-lite" || got["selection_source"] != "auto-single-candidate" {
		t.Fatalf("auto binding %v", got)
	}
	// A non-native target has no binding.
	structured(t, c.call(t, "open_binary", map[string]any{"input_path": fixtureASAR(t)}))
	if s := structured(t, c.call(t, "binary_session", map[string]any{})); s["analysis_provider_binding"] != nil {
		t.Fatalf("binding for an ASAR: %v", s["analysis_provider_binding"])
	}
}

func TestNativeContextToolsReadTheOpenDocumentCursorAndAddress(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	c := nativeMCP(t)
	e := toolError(t, c.call(t, "current_document", map[string]any{}))
	if e["code"] != "capability_unavailable" || obj(t, e, "details")["reason"] != "no_document" {
		t.Fatalf("current_document with nothing open: %v", e)
	}
	if docs := structured(t, c.call(t, "list_documents", map[string]any{})); len(docs["documents"].([]any)) != 0 || docs["current_document"] != nil {
		t.Fatalf("documents with nothing open: %v", docs)
	}
	if got := complete(t, c, "investigate_feature", "document", ""); len(got.Values) != 0 {
		t.Fatalf("document completion with nothing open: %v", got.Values)
	}

	structured(t, c.call(t, "open_binary", map[string]any{"input_path": bin}))
	name := filepath.Base(bin)
	docs := structured(t, c.call(t, "list_documents", map[string]any{}))
	if list := docs["documents"].([]any); len(list) != 1 || obj(t, list[0])["name"] != name || docs["current_document"] != name {
		t.Fatalf("list_documents %v", docs)
	}
	if got := complete(t, c, "investigate_feature", "document", strings.ToUpper(name[:3])); !slices.Equal(got.Values, []string{name}) {
		t.Fatalf("document completion %v, want [%s]", got.Values, name)
	}
	doc := obj(t, structured(t, c.call(t, "current_document", map[string]any{})), "document")
	if doc["format"] != "elf" || doc["architecture"] != "x86_64" {
		t.Fatalf("current_document %v", doc)
	}

	// The cursor is the entry point the layout reports, and says so.
	layout := structured(t, c.call(t, "inspect_binary_layout", map[string]any{"input_path": bin}))
	entry := obj(t, layout, "normalized_result")["entry"].(string)
	cur := structured(t, c.call(t, "current_address", map[string]any{}))
	if cur["address"] != entry || cur["basis"] != "entry-point" || doc["entry"] != entry {
		t.Fatalf("current_address %v, layout entry %s", cur, entry)
	}
	proc := obj(t, structured(t, c.call(t, "current_procedure", map[string]any{})), "normalized_result")
	if proc["status"] != "in-procedure" || obj(t, proc, "procedure")["name"] != "_start" || obj(t, proc, "procedure")["address"] != entry {
		t.Fatalf("current_procedure %v", proc)
	}

	nav := structured(t, c.call(t, "get_navigation_context", map[string]any{}))
	nr := obj(t, nav, "normalized_result")
	if nav["operation"] != "get_navigation_context" || nr["mode"] != "current_selection" || obj(t, nr, "document")["name"] != name ||
		obj(t, nr, "address")["address"] != entry || obj(t, nr, "procedure")["name"] != "_start" {
		t.Fatalf("navigation context %v", nr)
	}
	var modes []string
	for _, m := range obj(t, nr, "capabilities")["modes"].([]any) {
		modes = append(modes, m.(map[string]any)["mode"].(string))
	}
	if !slices.Equal(modes, []string{"current_selection", "explicit_document"}) {
		t.Errorf("modes %v", modes)
	}
	explicit := obj(t, structured(t, c.call(t, "get_navigation_context", map[string]any{"document": name})), "normalized_result")
	if explicit["mode"] != "explicit_document" || obj(t, explicit, "procedure")["name"] != "_start" {
		t.Fatalf("explicit document %v", explicit)
	}
	e = toolError(t, c.call(t, "get_navigation_context", map[string]any{"document": "other-binary"}))
	if e["code"] != "invalid_request" || obj(t, e, "details")["field"] != "document" {
		t.Fatalf("unknown document: %v", e)
	}

	// inspect_address_context at middle: its name and procedure, and the
	// analyst-note facets available and empty (no note set yet).
	found := structured(t, c.call(t, "search_procedures", map[string]any{"input_path": bin, "pattern": "middle"}))
	middle := obj(t, found, "normalized_result", "procedures")["items"].([]any)[0].(map[string]any)["address"].(string)
	ctx := obj(t, structured(t, c.call(t, "inspect_address_context", map[string]any{"address": middle})), "normalized_result")
	facets := obj(t, ctx, "facets")
	if obj(t, facets, "name")["name"] != "middle" || obj(t, facets, "procedure", "procedure")["name"] != "middle" {
		t.Fatalf("address context at %s: %v", middle, facets)
	}
	for _, f := range []string{"comment", "inline_comment", "bookmarks"} {
		if obj(t, facets, f)["status"] != "available" || obj(t, facets, f)["source"] != "analyst" || obj(t, facets, f)["note"] != nil {
			t.Errorf("%s facet %v", f, facets[f])
		}
	}
	outside := obj(t, structured(t, c.call(t, "inspect_address_context", map[string]any{"address": "0x10"})), "normalized_result", "facets", "procedure")
	if outside["procedure"] != nil || outside["resolution"] != "outside-segment" {
		t.Fatalf("address outside every section: %v", outside)
	}
	if e := toolError(t, c.call(t, "inspect_address_context", map[string]any{"address": "nowhere"})); e["code"] != "invalid_request" {
		t.Fatalf("bad address: %v", e)
	}

	// close_binary leaves no document behind.
	structured(t, c.call(t, "close_binary", map[string]any{}))
	if e := toolError(t, c.call(t, "current_address", map[string]any{})); obj(t, e, "details")["reason"] != "no_document" {
		t.Fatalf("current_address after close: %v", e)
	}
}

func TestInvestigateFeatureIsAdvertisedWithListDocumentsInScope(t *testing.T) {
	c := startMCP(t, "REA_MCP_TOOL_FAMILIES=application,native,session")
	list, err := c.session.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "investigate_feature") {
		t.Fatalf("prompts/list %v lacks investigate_feature", names)
	}
	tools, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, tool := range tools.Tools {
		have = append(have, tool.Name)
	}
	for _, want := range []string{"list_documents", "current_document", "current_address", "current_procedure", "get_navigation_context", "inspect_address_context"} {
		if !slices.Contains(have, want) {
			t.Errorf("tools/list lacks %s", want)
		}
	}
}

func TestLayoutSummaryDetailAndNativeAnalysisViews(t *testing.T) {
	hard, plain := nativetest.ChainELF(t, "hardened"), nativetest.ChainELF(t, "plain")
	c := nativeMCP(t)

	sum := structured(t, c.call(t, "inspect_binary_layout", map[string]any{"input_path": hard, "detail": "summary"}))
	sr := obj(t, sum, "normalized_result")
	if sum["operation"] != "inspect_analysis_view" || sr["view"] != "summary" || sr["source_operation"] != "inspect_binary_layout" {
		t.Fatalf("summary detail %v", sr)
	}
	parent := sr["parent_evidence_id"].(string)
	if links, _ := sum["evidence_links"].([]any); len(links) != 1 || links[0] != parent {
		t.Errorf("evidence_links %v, parent %s", sum["evidence_links"], parent)
	}
	if got := obj(t, sr, "mitigations")["relro"]; got != "observed (full)" {
		t.Errorf("summary relro %v", got)
	}
	if n := obj(t, sr, "collections")["sections"].(float64); n < 20 {
		t.Errorf("summary counts %v sections", n)
	}
	// The complete layout was retained: views read it by reference.
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": parent}
	view := func(args map[string]any) map[string]any {
		t.Helper()
		args["source"] = ref
		rec := structured(t, c.call(t, "inspect_analysis_view", args))
		return obj(t, rec, "normalized_result")
	}
	mit := view(map[string]any{"view": "facet", "facet": "mitigations"})
	if len(mit["mitigations"].([]any)) < 5 {
		t.Errorf("mitigations facet %v", mit)
	}
	link := view(map[string]any{"view": "facet", "facet": "linkage"})
	if !slices.Contains(link["needed_libraries"].([]any), any("libc.so.6")) || !strings.Contains(link["interpreter"].(string), "ld-linux") {
		t.Errorf("linkage facet %v", link)
	}
	page := view(map[string]any{"view": "page", "collection": "sections"})
	pg := obj(t, page, "page")
	if pg["offset"] != float64(0) || pg["limit"] != float64(64) || page["coverage"] != "complete" || len(page["node_ids"].([]any)) != len(pg["items"].([]any)) {
		t.Fatalf("sections page %v", page)
	}
	small := view(map[string]any{"view": "page", "collection": "sections", "offset": 2, "limit": 3})
	if obj(t, small, "page")["next_offset"] != float64(5) || small["node_ids"].([]any)[0] != "sections#2" {
		t.Fatalf("sections page at 2: %v", small)
	}
	text := view(map[string]any{"view": "item", "collection": "sections", "selector": ".text"})
	if obj(t, text, "item")["name"] != ".text" || text["matches"] != float64(1) {
		t.Fatalf("item .text %v", text)
	}
	byID := view(map[string]any{"view": "item", "collection": "sections", "node_id": text["node_id"]})
	if obj(t, byID, "item")["address"] != obj(t, text, "item")["address"] {
		t.Fatalf("item by node_id %v, by name %v", byID, text)
	}
	if byID["selection_digest"] == text["selection_digest"] || mit["selection_digest"] == link["selection_digest"] {
		t.Errorf("different selections share a digest")
	}
	// The symbols the layout recorded are a window of the table: a page of
	// them is partial and says how much the record holds.
	syms := view(map[string]any{"view": "page", "collection": "symbols", "limit": 5})
	if rec := obj(t, syms, "recorded"); rec["count"].(float64) >= rec["total"].(float64) && syms["coverage"] != "complete" {
		t.Errorf("symbols coverage %v with %v", syms["coverage"], rec)
	}

	// analyze_function Evidence: its facets, paged, without a provider.
	dossier := structured(t, c.call(t, "analyze_function", map[string]any{"input_path": plain, "procedure": "middle"}))
	dref := map[string]any{"kind": "retained-evidence", "evidence_id": dossier["evidence_id"]}
	fview := func(args map[string]any) map[string]any {
		t.Helper()
		args["source"] = dref
		return obj(t, structured(t, c.call(t, "inspect_analysis_view", args)), "normalized_result")
	}
	fs := fview(map[string]any{})
	if obj(t, fs, "procedure")["name"] != "middle" || obj(t, fs, "pseudocode")["status"] != "unavailable" || obj(t, fs, "value_flow")["status"] != "unavailable" {
		t.Fatalf("function summary %v", fs)
	}
	callees := fview(map[string]any{"view": "native", "facet": "callees"})
	items := obj(t, callees, "page")["items"].([]any)
	if len(items) != 2 || items[0].(map[string]any)["callee_name"] != "leaf" || obj(t, callees, "page")["limit"] != float64(64) {
		t.Fatalf("callees facet %v", callees)
	}
	asm := fview(map[string]any{"view": "native", "facet": "assembly", "offset": 1, "limit": 2})
	if got := obj(t, asm, "page"); got["offset"] != float64(1) || len(got["items"].([]any)) != 2 {
		t.Fatalf("assembly page %v", asm)
	}
	if pc := obj(t, fview(map[string]any{"view": "native", "facet": "pseudocode"}), "pseudocode"); pc["status"] != "unavailable" {
		t.Fatalf("pseudocode %v", pc)
	}
	if cm := obj(t, fview(map[string]any{"view": "native", "facet": "comments"}), "comments"); cm["status"] != "unavailable" {
		t.Fatalf("comments %v", cm)
	}
	if u := fview(map[string]any{"view": "native", "facet": "unresolved_calls"}); obj(t, u, "page")["total"] != float64(0) {
		t.Errorf("middle makes only direct calls: %v", u)
	}
	if e := toolError(t, c.call(t, "inspect_analysis_view", map[string]any{"source": dref, "view": "native", "facet": "linkage"})); e["code"] != "invalid_request" {
		t.Fatalf("a layout facet of a dossier: %v", e)
	}

	// get_evidence_bundle's summary says the dossier's value flow is
	// unavailable, beside retention complete-record.
	bundle := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary", "filters": map[string]any{"operation": "analyze_function"}}))
	recs := bundle["records"].([]any)
	if len(recs) != 1 {
		t.Fatalf("summary records %v", recs)
	}
	r := recs[0].(map[string]any)
	vf := obj(t, r, "native_dossier", "value_flow")
	if r["retention"] != "complete-record" || vf["status"] != "unavailable" || vf["truncated"] != nil || vf["omitted_count"] != nil {
		t.Fatalf("summary record %v", r)
	}
}
