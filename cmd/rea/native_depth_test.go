package main_test

import (
	"debug/elf"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
)

// elfFunctionCount counts the unstripped file's defined, sized function
// symbols with debug/elf: the truth the stripped build is held to.
func elfFunctionCount(t *testing.T, bin string) int {
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	syms, err := ef.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF && s.Section < elf.SHN_LORESERVE && s.Value != 0 && s.Size > 0 {
			seen[s.Value] = true
		}
	}
	return len(seen)
}

func TestStrippedCPlusPlusFunctionsFromTheBuiltBinary(t *testing.T) {
	full, stripped := nativetest.CPPELF(t, false), nativetest.CPPELF(t, true)
	want := elfFunctionCount(t, full)
	var rec struct {
		Normalized struct {
			Procedures struct {
				Total int
				Items []struct {
					Name, Source, Demangled string
				}
			}
		} `json:"normalized_result"`
	}
	r := rea(t, "", nativeEnv(t), "--format", "json", "functions", stripped, "--limit", "500")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	decode(t, r.stdout, &rec)
	fromTables := 0
	for _, p := range rec.Normalized.Procedures.Items {
		if p.Source == "eh-frame" {
			fromTables++
		}
	}
	if fromTables < want*95/100 {
		t.Errorf("stripped: %d procedures from .eh_frame of %d listed; the unstripped build has %d functions", fromTables, rec.Normalized.Procedures.Total, want)
	}
	r = rea(t, "", nativeEnv(t), "search", full, "Circle")
	if r.code != 0 || !strings.Contains(r.stdout, "geometry::Circle::area() const") {
		t.Errorf("search Circle shows no demangled name (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestDebugInfoAndNavigationCommands(t *testing.T) {
	bin := nativetest.RecordsELF(t)
	out, err := exec.Command(nativetest.RecordsLayout(t)).Output()
	if err != nil {
		t.Fatal(err)
	}
	r := rea(t, "", nativeEnv(t), "type", bin, "rea_record")
	if r.code != 0 {
		t.Fatalf("type exit %d: %s", r.code, r.stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		if k == "size" {
			if !strings.Contains(r.stdout, "("+v+" bytes") {
				t.Errorf("type: size %s not shown:\n%s", v, r.stdout)
			}
			continue
		}
		if !strings.Contains(r.stdout, "+"+v+strings.Repeat(" ", 6-len(v))+k+" ") {
			t.Errorf("type: member %s at %s not shown:\n%s", k, v, r.stdout)
		}
	}
	p := rea(t, "", nativeEnv(t), "call-path", bin, "main", "stage_three")
	if p.code != 0 || !strings.Contains(p.stdout, "main -> dispatch -> stage_two -> stage_three") {
		t.Errorf("call-path exit %d:\n%s%s", p.code, p.stdout, p.stderr)
	}
	c := rea(t, "", nativeEnv(t), "search-constant", bin, "0x5eed1")
	if c.code != 0 || !strings.Contains(c.stdout, "stage_three") || !strings.Contains(c.stdout, "1 of 1 hits") {
		t.Errorf("search-constant exit %d:\n%s%s", c.code, c.stdout, c.stderr)
	}
	s := rea(t, "", nativeEnv(t), "search-instructions", bin, "--sequence", "imul", "--sequence", "*")
	if s.code != 0 || !strings.Contains(s.stdout, "stage_three") {
		t.Errorf("search-instructions exit %d:\n%s%s", s.code, s.stdout, s.stderr)
	}
	none := rea(t, "", nativeEnv(t), "types", nativetest.CELF(t, true))
	if none.code == 0 || !strings.Contains(none.stderr, "no DWARF") {
		t.Errorf("types on a stripped binary: exit %d:\n%s%s", none.code, none.stdout, none.stderr)
	}
}

func TestNativeDepthToolsOverMCP(t *testing.T) {
	bin := nativetest.RecordsELF(t)
	c := startMCP(t, nativeEnv(t)...)
	norm := func(m map[string]any) map[string]any { return m["normalized_result"].(map[string]any) }
	cs := norm(structured(t, c.call(t, "find_code_for_string", map[string]any{"input_path": bin, "query": "rea-dispatch-fallback"})))
	items := cs["strings"].(map[string]any)["items"].([]any)
	uses := items[0].(map[string]any)["uses"].([]any)
	if len(items) != 1 || uses[0].(map[string]any)["procedure"].(map[string]any)["name"] != "dispatch" {
		t.Errorf("find_code_for_string: %v", cs["strings"])
	}
	g := norm(structured(t, c.call(t, "get_call_graph", map[string]any{"input_path": bin, "address": "main", "depth": 3})))
	names := map[string]float64{}
	for _, n := range g["nodes"].([]any) {
		names[n.(map[string]any)["name"].(string)] = n.(map[string]any)["depth"].(float64)
	}
	if names["stage_three"] != 3 || names["dispatch"] != 1 {
		t.Errorf("get_call_graph: %v", names)
	}
	x := norm(structured(t, c.call(t, "find_xrefs_to_name", map[string]any{"input_path": bin, "name": "stage_two"})))
	if x["references"].(map[string]any)["total"].(float64) != 1 {
		t.Errorf("find_xrefs_to_name: %v", x["references"])
	}
	fn := norm(structured(t, c.call(t, "analyze_function", map[string]any{"input_path": bin, "procedure": "stage_two"})))
	src, _ := fn["source"].(map[string]any)
	entry, _ := src["entry"].(map[string]any)
	if src["status"] != "available" || !strings.HasSuffix(entry["file"].(string), "records.c") {
		t.Fatalf("analyze_function source facet: %v", fn["source"])
	}
	a2l, err := exec.Command("addr2line", "-e", bin, fn["procedure"].(map[string]any)["address"].(string)).Output()
	if err != nil {
		t.Fatalf("addr2line (apt-get install binutils): %v", err)
	}
	if want := strings.TrimSpace(string(a2l)); !strings.HasSuffix(want, ":"+strconv.Itoa(int(entry["line"].(float64)))) {
		t.Errorf("entry line %v, addr2line %s", entry["line"], want)
	}
	bad := toolError(t, c.call(t, "search_bytes", map[string]any{"input_path": bin, "pattern": "zz"}))
	if bad["code"] != "invalid_request" {
		t.Errorf("bad pattern: %v", bad)
	}
	miss := toolError(t, c.call(t, "find_xrefs_to_name", map[string]any{"input_path": bin, "name": "no_such_name"}))
	if miss["code"] != "invalid_request" {
		t.Errorf("unknown name: %v", miss)
	}
}
