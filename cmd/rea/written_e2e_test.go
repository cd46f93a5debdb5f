package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi"
	"rea/jsengine/jstest"
)

// The answer budget issue 21 sets for every default response but the
// complete-Evidence ones.
const defaultAnswerBudget = 256 << 10

// wireBytes is the JSON-RPC response line carrying res.
func wireBytes(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return len(b) + len(`{"jsonrpc":"2.0","id":1,"result":}`) + 1
}

// writtenSummary calls a writing tool with its required arguments only
// and checks the default answer is a summary within the budget.
func writtenSummary(t *testing.T, c *mcpClient, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res := c.call(t, tool, args)
	if res.IsError {
		t.Fatalf("%s: %s", tool, text(res))
	}
	if n := wireBytes(t, res); n >= defaultAnswerBudget {
		t.Fatalf("%s: default answer is %d bytes on the wire, budget %d", tool, n, defaultAnswerBudget)
	}
	rec := structured(t, res)
	nr, _ := rec["normalized_result"].(map[string]any)
	if rec["operation"] != "inspect_analysis_view" || nr["view"] != "summary" || nr["operation"] != tool {
		t.Fatalf("%s: default answer is not its summary: operation %v, view %v", tool, rec["operation"], nr["view"])
	}
	if dir, _ := res.Meta["rea/output_dir"].(string); dir == "" || dir != nr["output_dir"] {
		t.Fatalf("%s: output_dir %v in the summary, %v in _meta", tool, nr["output_dir"], res.Meta["rea/output_dir"])
	}
	return nr, res
}

// walkPages reads a summary's first page and then every page the
// next_offset chain names through inspect_analysis_view, checking each
// answer's size and each page's byte budget, and returns the items in
// order.
func walkPages(t *testing.T, c *mcpClient, summary map[string]any, collection string) []any {
	t.Helper()
	page, _ := summary["page"].(map[string]any)
	total := int(page["total"].(float64))
	items := append([]any{}, page["items"].([]any)...)
	checkPageBudget(t, page)
	source := map[string]any{"kind": "retained-evidence", "evidence_id": summary["parent_evidence_id"]}
	// The summary names the next call exactly.
	if next, ok := page["next_offset"].(float64); ok {
		found := false
		for _, call := range summary["next_calls"].([]any) {
			m := call.(map[string]any)
			a, _ := m["arguments"].(map[string]any)
			found = found || (m["tool"] == "inspect_analysis_view" && a["collection"] == collection && a["offset"] == next)
		}
		if !found {
			t.Fatalf("next_calls %v do not name the page at next_offset %v", summary["next_calls"], next)
		}
	}
	for pages := 1; ; pages++ {
		next, ok := page["next_offset"].(float64)
		if !ok {
			break
		}
		if int(next) != len(items) {
			t.Fatalf("page %d: next_offset %v after %d items", pages, next, len(items))
		}
		res := c.call(t, "inspect_analysis_view", map[string]any{"source": source, "view": "page", "collection": collection, "offset": int(next)})
		if n := wireBytes(t, res); n >= defaultAnswerBudget {
			t.Fatalf("page at %v: %d bytes on the wire", next, n)
		}
		nr := structured(t, res)["normalized_result"].(map[string]any)
		page = nr["page"].(map[string]any)
		checkPageBudget(t, page)
		got := page["items"].([]any)
		if len(got) == 0 {
			t.Fatalf("page at %v is empty but the previous page pointed at it", next)
		}
		items = append(items, got...)
		if pages > total {
			t.Fatalf("more pages than items: the next_offset chain does not end")
		}
	}
	if len(items) != total {
		t.Fatalf("pages hold %d items, total %d", len(items), total)
	}
	return items
}

// checkPageBudget: a page of more than one item stays within the page
// byte budget of serialised items.
func checkPageBudget(t *testing.T, page map[string]any) {
	t.Helper()
	items := page["items"].([]any)
	size := 0
	for _, it := range items {
		b, _ := json.Marshal(it)
		size += len(b) + 1
	}
	if len(items) > 1 && size > abi.DefaultPageBytes {
		t.Fatalf("page at %v: %d items are %d bytes, over the %d-byte page budget", page["offset"], len(items), size, abi.DefaultPageBytes)
	}
	if limit := int(page["limit"].(float64)); len(items) > limit {
		t.Fatalf("page at %v: %d items, limit %d", page["offset"], len(items), limit)
	}
}

func TestUnpackAnswersASummaryAndPagesEveryModuleOfABigBundleOverMCP(t *testing.T) {
	app := filepath.Join(t.TempDir(), "bundle-app")
	if err := jstest.WriteDir(app, jstest.BundleApp(1<<20)); err != nil {
		t.Fatal(err)
	}
	c := startMCP(t, "REA_RESULT_CACHE_DIR=off")
	nr, _ := writtenSummary(t, c, "unpack_javascript_bundle", map[string]any{"input_path": app, "path": "dist/main.js"})

	// manifest.json on disk lists every module.
	raw, err := os.ReadFile(nr["manifest_path"].(string))
	if err != nil {
		t.Fatalf("manifest_path: %v", err)
	}
	var manifest struct {
		Modules []any `json:"modules"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest.Modules) < 1000 {
		t.Fatalf("the generated bundle has %d modules; the test needs at least 1,000", len(manifest.Modules))
	}
	totals := nr["totals"].(map[string]any)
	if int(totals["modules_written"].(float64)) != len(manifest.Modules) || int(totals["files_written"].(float64)) < len(manifest.Modules) {
		t.Fatalf("totals %v, manifest %d modules", totals, len(manifest.Modules))
	}
	if totals["externals"].(float64) < 1 {
		t.Fatalf("the bundle's electron external is not counted: %v", totals)
	}
	page := nr["page"].(map[string]any)
	if page["next_offset"] == nil {
		t.Fatalf("a %d-module summary fits one page: %v", len(manifest.Modules), page["limit"])
	}

	modules := walkPages(t, c, nr, "modules")
	seen := map[string]bool{}
	for _, m := range modules {
		key := m.(map[string]any)["key"].(string)
		if seen[key] {
			t.Fatalf("module %s is on two pages", key)
		}
		seen[key] = true
	}
	if !reflect.DeepEqual(modules, manifest.Modules) {
		t.Fatalf("the pages' %d modules are not manifest.json's %d, in order", len(modules), len(manifest.Modules))
	}

	// The read the summary suggests works as given.
	var read map[string]any
	for _, call := range nr["next_calls"].([]any) {
		if m := call.(map[string]any); m["tool"] == "read_javascript_source" && read == nil {
			read = m["arguments"].(map[string]any)
		}
	}
	if read == nil {
		t.Fatalf("next_calls name no read_javascript_source call: %v", nr["next_calls"])
	}
	if res := c.call(t, "read_javascript_source", read); res.IsError {
		t.Fatalf("the suggested read %v fails: %s", read, text(res))
	}

	// The whole record on request, with every module.
	res := c.call(t, "unpack_javascript_bundle", map[string]any{"input_path": app, "path": "dist/main.js", "detail": "complete"})
	complete := structured(t, res)
	result := complete["normalized_result"].(map[string]any)["result"].(map[string]any)
	if got := len(result["modules"].([]any)); got != len(manifest.Modules) {
		t.Fatalf("detail complete: %d modules, manifest %d", got, len(manifest.Modules))
	}
	if !reflect.DeepEqual(result["modules"], manifest.Modules) {
		t.Fatalf("detail complete's modules are not manifest.json's")
	}
}

func TestSourceMapExtractionAndArtifactExtractionAnswerSummariesOverMCP(t *testing.T) {
	work := t.TempDir()
	mapped := filepath.Join(work, "mapped")
	if err := jstest.WriteDir(mapped, jstest.SourceMapApp(2000)); err != nil {
		t.Fatal(err)
	}
	c := startMCP(t, "REA_RESULT_CACHE_DIR=off")

	nr, _ := writtenSummary(t, c, "extract_source_map_sources", map[string]any{"input_path": mapped})
	totals := nr["totals"].(map[string]any)
	if totals["sources_written"] != float64(1800) || totals["sources_rejected"] != float64(200) {
		t.Fatalf("totals %v: want 1,800 written and 200 URLs rejected", totals)
	}
	if reasons := totals["rejected_by_reason"].(map[string]any); len(reasons) != 1 {
		t.Fatalf("rejected_by_reason %v: want the one URL reason", reasons)
	}
	sources := walkPages(t, c, nr, "sources")
	res := c.call(t, "extract_source_map_sources", map[string]any{"input_path": mapped, "detail": "complete"})
	result := structured(t, res)["normalized_result"].(map[string]any)["result"].(map[string]any)
	if !reflect.DeepEqual(sources, result["sources"]) {
		t.Fatalf("the pages' %d sources are not the complete Evidence's %d", len(sources), len(result["sources"].([]any)))
	}

	// extract_artifact of the extracted tree: one file per source.
	tree := nr["output_dir"].(string)
	an, _ := writtenSummary(t, c, "extract_artifact", map[string]any{"input_path": tree})
	files := walkPages(t, c, an, "files")
	if len(files) != 1800 {
		t.Fatalf("extract_artifact of %d extracted sources wrote %d files", 1800, len(files))
	}
	res = c.call(t, "extract_artifact", map[string]any{"input_path": tree, "detail": "complete"})
	complete := structured(t, res)["normalized_result"].(map[string]any)
	if !reflect.DeepEqual(files, complete["files"]) {
		t.Fatalf("the pages' files are not the complete Evidence's")
	}
}
