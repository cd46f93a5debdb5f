package query

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/native/nativetest"
	"rea/analysis/native/nativewire"
)

// layoutTruth runs the layout printer gcc built from the same source.
func layoutTruth(t *testing.T) map[string]int64 {
	out, err := exec.Command(nativetest.RecordsLayout(t)).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		n, _ := strconv.ParseInt(v, 10, 64)
		m[k] = n
	}
	return m
}

func TestReadTypeMatchesTheCompilersLayout(t *testing.T) {
	bin := nativetest.RecordsELF(t)
	truth := layoutTruth(t)
	list := runOn[nativewire.Types](t, bin, nativewire.OpTypes, Params{Pattern: "rea_"})
	kinds := map[string]string{}
	for _, ty := range list.Types.Items {
		kinds[ty.Name] = ty.Kind
	}
	if kinds["rea_record"] != "struct" || kinds["rea_color"] != "enum" || kinds["rea_record_t"] != "typedef" {
		t.Fatalf("list_types rea_: %+v", list.Types.Items)
	}
	d := runOn[nativewire.TypeDetail](t, bin, nativewire.OpType, Params{TypeName: "rea_record"})
	if d.Type.ByteSize != truth["size"] {
		t.Errorf("size %d, compiler says %d", d.Type.ByteSize, truth["size"])
	}
	got := map[string]nativewire.TypeMember{}
	for _, m := range d.Members.Items {
		got[m.Name] = m
	}
	for _, f := range []string{"tag", "count", "weight", "color", "next"} {
		if got[f].ByteOffset != truth[f] {
			t.Errorf("%s at %d, compiler says %d", f, got[f].ByteOffset, truth[f])
		}
	}
	if got["flags"].BitSize != 3 || got["mode"].BitSize != 5 || got["mode"].BitOffset != got["flags"].BitOffset+3 {
		t.Errorf("bit fields: flags %+v mode %+v", got["flags"], got["mode"])
	}
	if !strings.Contains(d.Declaration, "next") {
		t.Errorf("declaration %q", d.Declaration)
	}
	e := runOn[nativewire.TypeDetail](t, bin, nativewire.OpType, Params{TypeName: "rea_color"})
	if len(e.Members.Items) != 3 || e.Members.Items[2].Name != "REA_BLUE" || *e.Members.Items[2].Value != 40 {
		t.Errorf("enum: %+v", e.Members.Items)
	}
	if err := errOf(t, bin, nativewire.OpType, Params{TypeName: "no_such_type"}); err.Code != abi.CodeInvalidRequest {
		t.Errorf("unknown type: %v", err)
	}
	if err := errOf(t, nativetest.CELF(t, true), nativewire.OpTypes, Params{}); err.Code != abi.CodeCapabilityUnavailable {
		t.Errorf("stripped binary: %v", err)
	}
}

// addr2line is binutils' answer for an address.
func addr2line(t *testing.T, bin string, addr nativewire.Addr) (string, int) {
	out, err := exec.Command("addr2line", "-e", bin, addr.String()).Output()
	if err != nil {
		t.Fatalf("addr2line (apt-get install binutils): %v", err)
	}
	file, line, _ := strings.Cut(strings.TrimSpace(string(out)), ":")
	n, _ := strconv.Atoi(strings.Fields(line)[0])
	return file, n
}

func TestSourceLinesMatchAddr2line(t *testing.T) {
	bin := nativetest.RecordsELF(t)
	d := runOn[Dossier](t, bin, OpFunction, Params{Procedure: "stage_two"})
	if d.Source == nil || d.Source.Status != "available" || d.Source.Entry == nil || len(d.Source.Lines) == 0 {
		t.Fatalf("source facet %+v", d.Source)
	}
	file, line := addr2line(t, bin, d.Procedure.Address)
	if !strings.HasSuffix(file, d.Source.Entry.File) && !strings.HasSuffix(d.Source.Entry.File, "records.c") || d.Source.Entry.Line != line {
		t.Errorf("entry %+v, addr2line %s:%d", d.Source.Entry, file, line)
	}
	inside := d.Procedure.Address + 4
	r := runOn[Resolution](t, bin, OpResolve, Params{Address: &inside})
	_, want := addr2line(t, bin, inside)
	if r.SourceLine == nil || r.SourceLine.Line != want {
		t.Errorf("resolve %s: %+v, addr2line line %d", inside, r.SourceLine, want)
	}
	plain := runOn[Dossier](t, nativetest.CELF(t, true), OpFunction, Params{Procedure: "entry"})
	if plain.Source == nil || plain.Source.Status != "unavailable" {
		t.Errorf("stripped: %+v", plain.Source)
	}
}

func TestNavigation(t *testing.T) {
	bin := nativetest.RecordsELF(t)
	cs := runOn[nativewire.CodeForString](t, bin, nativewire.OpCodeForString, Params{Pattern: "rea-dispatch-fallback"})
	if cs.Strings.Total != 1 || len(cs.Strings.Items[0].Uses) == 0 || cs.Strings.Items[0].Uses[0].Procedure == nil || cs.Strings.Items[0].Uses[0].Procedure.Name != "dispatch" {
		t.Fatalf("code for string: %+v", cs.Strings)
	}
	x := runOn[nativewire.XrefsToName](t, bin, nativewire.OpXrefsToName, Params{Name: "stage_three"})
	if x.References.Total != 1 || x.References.Items[0].Procedure.Name != "stage_two" {
		t.Errorf("xrefs to stage_three: %+v", x.References)
	}
	pu := runOn[nativewire.XrefsToName](t, bin, nativewire.OpXrefsToName, Params{Name: "puts"})
	if pu.References.Total == 0 {
		t.Errorf("xrefs to puts: %+v", pu)
	}
	g := runOn[nativewire.CallGraph](t, bin, nativewire.OpCallGraph, Params{Procedure: "main", Depth: 2})
	names := map[string]int{}
	for _, n := range g.Nodes {
		names[n.Name] = n.Depth
	}
	if names["dispatch"] != 1 || names["stage_two"] != 2 {
		t.Errorf("call graph depth 2: %+v", names)
	}
	if _, deep := names["stage_three"]; deep {
		t.Errorf("call graph went past depth 2: %+v", names)
	}
	up := runOn[nativewire.CallGraph](t, bin, nativewire.OpCallGraph, Params{Procedure: "stage_three", Direction: "backward", Depth: 3})
	ups := map[string]bool{}
	for _, n := range up.Nodes {
		ups[n.Name] = true
	}
	if !ups["stage_two"] || !ups["dispatch"] || !ups["main"] {
		t.Errorf("callers graph: %+v", up.Nodes)
	}
	path := runOn[nativewire.CallPath](t, bin, nativewire.OpCallPath, Params{Procedure: "main", To: "stage_three"})
	if !path.Found || len(path.Paths) != 1 || len(path.Paths[0]) != 4 || path.Paths[0][1].Name != "dispatch" || path.Paths[0][2].Name != "stage_two" {
		t.Errorf("call path: %+v", path)
	}
	back := runOn[nativewire.CallPath](t, bin, nativewire.OpCallPath, Params{Procedure: "stage_three", To: "main", Direction: "backward"})
	if !back.Found || len(back.Paths) != 1 || len(back.Paths[0]) != 4 || back.Paths[0][1].Name != "stage_two" {
		t.Errorf("backward call path: %+v", back)
	}
	none := runOn[nativewire.CallPath](t, bin, nativewire.OpCallPath, Params{Procedure: "stage_three", To: "main"})
	if none.Found || !none.Exhausted || len(none.Limitations) == 0 {
		t.Errorf("no path: %+v", none)
	}
	c := runOn[nativewire.Search](t, bin, nativewire.OpSearchConstant, Params{Value: "0x5eed1"})
	if c.Hits.Total != 1 || c.Hits.Items[0].Procedure.Name != "stage_three" {
		t.Errorf("constant: %+v", c.Hits)
	}
	seq := runOn[nativewire.Search](t, bin, nativewire.OpSearchSequence, Params{Sequence: []string{"imul", "*"}})
	if seq.Hits.Total == 0 || seq.Hits.Items[0].Procedure.Name != "stage_three" {
		t.Errorf("sequence: %+v", seq.Hits)
	}
}

func TestSearchBytesWithWildcards(t *testing.T) {
	bin := nativetest.RecordsELF(t)
	// The constant 0x5eed1 is an imul immediate: 69 c0 d1 ee 05 00 (imul
	// eax, eax, imm32) or with another register; match its bytes only.
	s := runOn[nativewire.Search](t, bin, nativewire.OpSearchBytes, Params{Pattern: "d1 ee 05 00"})
	w := runOn[nativewire.Search](t, bin, nativewire.OpSearchBytes, Params{Pattern: "d1 ?? 05 00"})
	if s.Hits.Total != 1 || s.Hits.Items[0].Procedure == nil || s.Hits.Items[0].Procedure.Name != "stage_three" {
		t.Fatalf("bytes: %+v", s.Hits)
	}
	if w.Hits.Total < 1 || w.Hits.Items[0].Address != s.Hits.Items[0].Address {
		t.Errorf("wildcard: %+v", w.Hits)
	}
	for _, bad := range []string{"", "??", "4", "zz", strings.Repeat("00", 300)} {
		if e := errOf(t, bin, nativewire.OpSearchBytes, Params{Pattern: bad}); e.Code != abi.CodeInvalidRequest {
			t.Errorf("pattern %q: %v", bad, e)
		}
	}
}
