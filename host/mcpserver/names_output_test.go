package mcpserver

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rea/host/evidence"
)

// Issue 21 point 8 on the output side: a result names Evidence by
// {"kind":"retained-evidence","evidence_id":…} references and pages by
// offset/limit. The seed's formats still spell some bare-id arrays and page
// objects; each is listed here with why it stays, and a bare-id array stays
// only with its references beside it (evidence.WithReferences, applied to
// every new record's normalized_result and to the unknown registry's
// results). A new bare-id array or paging name in a result fails.

// legacyIDArrays are the bare-id arrays results still carry for one
// release, beside their references; the key is the JSON name and the Go
// package directory that declares it.
var legacyIDArrays = map[string]string{
	"host/unknowns supporting_evidence_ids":                  "unknown record (registry_version 1, digested); supporting_evidence beside it",
	"host/unknowns contradicting_evidence_ids":               "unknown record; contradicting_evidence beside it",
	"host/unknowns mutation_evidence_ids":                    "unknown record; mutation_evidence beside it",
	"host/unknowns evidence_ids":                             "unknown record resolution; resolution.evidence beside it",
	"host/unknowns qualifying_evidence_ids":                  "verify_unknown_resolution; qualifying_evidence beside it",
	"host/app source_evidence_ids":                           "the obligation module's lowered request (recorded canonically as source_evidence)",
	"host/app runtime_evidence_ids":                          "reconcile_javascript_runtime record; runtime_evidence beside it",
	"host/notes evidence_ids":                                "notes conflict in a record; evidence beside it",
	"host/mcpserver evidence_ids":                            "verify_unknown_resolution's lowered request (the caller gives evidence)",
	"analysis/reconstruct/coverage evidence_ids":             "coverage workspace as the module reads it (the caller gives evidence; result records get evidence beside it)",
	"analysis/reconstruct/verify supporting_evidence_ids":    "unknown heads sent to the module (request, not result)",
	"analysis/reconstruct/verify contradicting_evidence_ids": "unknown heads sent to the module (request, not result)",
	"analysis/reconstruct/verify left_evidence_ids":          "verify_reconstruction record; left_evidence beside it",
	"analysis/reconstruct/verify right_evidence_ids":         "verify_reconstruction record; right_evidence beside it",
	"analysis/reconstruct/verify comparison_evidence_ids":    "verify_reconstruction record; comparison_evidence beside it",
	"analysis/reconstruct/obligations source_evidence_ids":   "obligation record (the seed's format, digested); source_evidence beside it",
	"analysis/reconstruct/obligations evidence_ids":          "manifest contradictions; evidence beside it",
	"analysis/compare/graph evidence_ids":                    "trace native_handoffs[]; evidence beside it",
	"analysis/compare/artifacts evidence_ids":                "compare_artifacts side coverage; evidence beside it",
}

// legacyPaging are result names that end like a page's but locate bytes,
// or describe the page a result holds (offset/limit inside).
var legacyPaging = map[string]string{
	"next_offset":     "the canonical continuation of every page",
	"file_offset":     "a byte position in the file, no page",
	"byte_offset":     "a byte position, no page",
	"bit_offset":      "a bit position, no page",
	"slice_offset":    "a Mach-O slice's byte position, no page",
	"stream_offset":   "a byte position in a stream, no page",
	"first_offset":    "a byte position, no page",
	"page":            "describes the page a result holds: {offset, limit, returned, total, next_offset}",
	"pages":           "compare_artifacts: the inspect_artifact pages of each side, no paging parameter",
	"assembly_offset": "the native module's request (host to module), not a parameter or result",
	"assembly_limit":  "the native module's request (host to module), not a parameter or result",
}

func resultNameProblem(pkg, name string) string {
	if _, bare := evidence.RefsName(name); bare {
		if legacyIDArrays[pkg+" "+name] == "" {
			return "a bare-id Evidence array: name Evidence with {kind, evidence_id} references"
		}
		return ""
	}
	if nonCanonical(name) != "" && !strings.Contains(name, "target_path") && legacyPaging[name] == "" {
		return "a paging name: a page is offset/limit"
	}
	return ""
}

// Every struct field that encodes into JSON anywhere in the host, the
// analysis modules and the ABI (results, records, module wire) is walked.
func TestEveryResultFieldUsesTheCanonicalNames(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	walked := 0
	for _, dir := range []string{"host", "analysis", "abi", "modules"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, perr := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if perr != nil {
				return perr
			}
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			pkg := filepath.ToSlash(rel)
			ast.Inspect(f, func(n ast.Node) bool {
				st, ok := n.(*ast.StructType)
				if !ok {
					return true
				}
				for _, fld := range st.Fields.List {
					if fld.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(fld.Tag.Value)
					name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
					if name == "" || name == "-" {
						continue
					}
					walked++
					if why := resultNameProblem(pkg, name); why != "" {
						t.Errorf("%s: field %s: %s (or list it in legacyIDArrays/legacyPaging with why it stays)", path, name, why)
					}
					if _, bare := evidence.RefsName(name); bare {
						seen[pkg+" "+name] = true
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if walked < 2000 {
		t.Fatalf("only %d JSON fields walked: the walker misses the sources", walked)
	}
	var stale []string
	for k := range legacyIDArrays {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("legacyIDArrays lists fields no struct declares any more: %v", stale)
	}
}

// Every tool's advertised output schema: a bare-id array is declared only
// beside its references (and marked deprecated), no paging name outside
// the list.
func TestEveryOutputSchemaUsesTheCanonicalNames(t *testing.T) {
	s := newTestServer(t, Options{Version: "test"})
	walked := 0
	for _, tool := range s.Tools() {
		b, err := json.Marshal(s.Advertised(tool.Name).OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema any
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		walkProperties(schema, func(props map[string]any) {
			for name, sub := range props {
				walked++
				if neu, bare := evidence.RefsName(name); bare {
					desc, _ := sub.(map[string]any)["description"].(string)
					if _, beside := props[neu]; !beside || !strings.Contains(desc, "Deprecated") {
						t.Errorf("%s output: %s is a bare-id Evidence array without %s beside it and a deprecation in its description", tool.Name, name, neu)
					}
					continue
				}
				if nonCanonical(name) != "" && legacyPaging[name] == "" {
					t.Errorf("%s output: %s: %s", tool.Name, name, nonCanonical(name))
				}
			}
		})
	}
	if walked < 100 {
		t.Fatalf("only %d output properties walked", walked)
	}
}

func walkProperties(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			fn(props)
		}
		for _, e := range x {
			walkProperties(e, fn)
		}
	case []any:
		for _, e := range x {
			walkProperties(e, fn)
		}
	}
}

// The rule the walkers apply refuses what point 8 retires.
func TestResultNameProblemRefusesNewBareIDsAndPageNames(t *testing.T) {
	for _, c := range []struct {
		pkg, name string
		bad       bool
	}{
		{"host/app", "helper_evidence_ids", true},
		{"analysis/compare/graph", "evidence_ids", false}, // listed, with evidence beside it
		{"host/app", "evidence_ids", true},
		{"host/app", "node_offset", true},
		{"host/app", "occurrence_limit", true},
		{"host/app", "page", false},
		{"host/app", "next_offset", false},
		{"host/app", "evidence", false},
		{"host/app", "offset", false},
	} {
		if got := resultNameProblem(c.pkg, c.name) != ""; got != c.bad {
			t.Errorf("%s %s: refused %v, want %v", c.pkg, c.name, got, c.bad)
		}
	}
}
