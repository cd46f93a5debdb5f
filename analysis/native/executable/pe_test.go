package executable

import (
	"debug/pe"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
)

func TestPEAgreesWithObjdump(t *testing.T) {
	bin := nativetest.GoBinary(t, "windows", "amd64")
	a := analyzePath(t, bin)
	f := a.File

	// Mitigations follow DllCharacteristics as objdump -p spells them.
	out, err := exec.Command("objdump", "-p", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	p := string(out)
	for _, tc := range []struct{ flag, mitigation string }{{"DYNAMIC_BASE", "aslr"}, {"HIGH_ENTROPY_VA", "high_entropy_va"}, {"NX_COMPAT", "dep"}, {"GUARD_CF", "cfg"}} {
		want := StatusAbsent
		if strings.Contains(p, "\t"+tc.flag+"\n") {
			want = StatusObserved
		}
		if m := mitigation(f, tc.mitigation); m.Status != want {
			t.Errorf("%s = %s, objdump -p %s %s", tc.mitigation, m.Status, map[bool]string{true: "lists", false: "lacks"}[want == StatusObserved], tc.flag)
		}
	}

	// Every import debug/pe's own walker lists is ours, with its library
	// (objdump misreads this file's import table: Go's compressed DWARF
	// sections overlap .idata once objdump decompresses them).
	pf, err := pe.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	std, err := pf.ImportedSymbols()
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]bool{}
	for _, im := range f.Imports {
		ours[im.Name+":"+im.Library] = true
	}
	for _, s := range std {
		if !ours[s] {
			t.Errorf("debug/pe imports %s; we do not", s)
		}
	}
	if len(std) < 10 || len(std) != len(f.Imports) {
		t.Errorf("debug/pe lists %d imports, we list %d", len(std), len(f.Imports))
	}

	// Sections: names, addresses and sizes as objdump -h shows them.
	out, err = exec.Command("objdump", "-h", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s+\d+\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s`)
	byName := map[string]Section{}
	for _, s := range f.Sections {
		byName[s.Name] = s
	}
	for _, g := range re.FindAllStringSubmatch(string(out), -1) {
		size, _ := strconv.ParseUint(g[2], 16, 64)
		vma, _ := strconv.ParseUint(g[3], 16, 64)
		if strings.HasPrefix(g[1], ".zdebug") {
			continue // objdump shows these decompressed
		}
		s, ok := byName[g[1]]
		if !ok || uint64(s.Address) != vma || uint64(s.FileSize) != size && s.Size != size {
			t.Errorf("section %s: objdump %#x at %#x, ours %+v", g[1], size, vma, s)
		}
	}

	// Direct calls: the same edges as objdump -d over the whole image.
	var got []string
	for _, e := range a.Calls {
		if e.Kind == EdgeCall {
			got = append(got, e.Site.String()+" "+e.Callee.String())
		}
	}
	sort.Strings(got)
	want := objdumpCalls(t, bin)
	if len(want) < 1000 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d call edges, objdump finds %d", len(got), len(want))
	}
}
