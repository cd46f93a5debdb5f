package executable

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

func TestMitigationsFollowTheCompilerFlags(t *testing.T) {
	hard := openPath(t, nativetest.ChainELF(t, "hardened"), Options{})
	plain := openPath(t, nativetest.ChainELF(t, "plain"), Options{})
	for _, tc := range []struct {
		name                  string
		hardStatus, hardValue string
		plainStatus           string
	}{
		// -pie / -no-pie
		{"pie", StatusObserved, "pie", StatusAbsent},
		// -z relro -z now / -z norelro
		{"relro", StatusObserved, "full", StatusAbsent},
		// -fstack-protector-strong on a function with a char array / -fno-stack-protector
		{"stack_canary", StatusInferred, "", StatusAbsent},
		// -D_FORTIFY_SOURCE=2 -O2 turns printf into __printf_chk / -U_FORTIFY_SOURCE
		{"fortify_source", StatusInferred, "", StatusAbsent},
		// gcc always emits PT_GNU_STACK without X on x86-64
		{"nx", StatusObserved, "", StatusObserved},
		{"rpath", StatusAbsent, "", StatusAbsent},
		{"runpath", StatusAbsent, "", StatusAbsent},
	} {
		h, p := mitigation(hard, tc.name), mitigation(plain, tc.name)
		if h.Status != tc.hardStatus || tc.hardValue != "" && h.Value != tc.hardValue {
			t.Errorf("hardened %s = %s %q (%s), want %s %q", tc.name, h.Status, h.Value, h.Basis, tc.hardStatus, tc.hardValue)
		}
		if p.Status != tc.plainStatus {
			t.Errorf("plain %s = %s (%s), want %s", tc.name, p.Status, p.Basis, tc.plainStatus)
		}
		if h.Basis == "" || p.Basis == "" {
			t.Errorf("%s has no basis", tc.name)
		}
	}
}

func TestCETIsReadFromTheGNUPropertyNote(t *testing.T) {
	// Debian's crt objects carry no CET marking, so the linker drops it
	// from executables; the compiler's object files keep what
	// -fcf-protection promises.
	object := func(name, flag string) *File {
		out := nativetest.BuildOnce(t, name, func(out string) error {
			return nativetest.Run("", nil, "gcc", "-O2", flag, "-c", "-o", out, nativetest.Testdata(t, "chain.c"))
		})
		return openPath(t, out, Options{})
	}
	full, none := object("cet-full.o", "-fcf-protection=full"), object("cet-none.o", "-fcf-protection=none")
	if m := mitigation(full, "cet_ibt"); m.Status != StatusObserved || m.Value != "ibt,shstk" {
		t.Errorf("-fcf-protection=full: %+v", m)
	}
	if m := mitigation(none, "cet_ibt"); m.Status != StatusAbsent {
		t.Errorf("-fcf-protection=none: %+v", m)
	}
	if full.Type != "relocatable" || mitigation(full, "pie").Status != StatusUnknown {
		t.Errorf("object type %s, pie %+v", full.Type, mitigation(full, "pie"))
	}
}

func TestRunpathIsReportedWithItsValue(t *testing.T) {
	out := nativetest.BuildOnce(t, "runpath", func(out string) error {
		return nativetest.Run("", nil, "gcc", "-o", out, nativetest.Testdata(t, "chain.c"), "-Wl,-rpath,/opt/rea-test/lib", "-Wl,--enable-new-dtags")
	})
	f := openPath(t, out, Options{})
	if m := mitigation(f, "runpath"); m.Status != StatusObserved || m.Value != "/opt/rea-test/lib" {
		t.Fatalf("runpath = %+v", m)
	}
}

// readelfSections parses `readelf -SW` into name → [addr, offset, size].
func readelfSections(t *testing.T, bin string) map[string][3]uint64 {
	out, err := exec.Command("readelf", "-SW", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)`)
	m := map[string][3]uint64{}
	for _, g := range re.FindAllStringSubmatch(string(out), -1) {
		if g[1] == "0" {
			continue
		}
		var v [3]uint64
		for i := range v {
			v[i], _ = strconv.ParseUint(g[3+i], 16, 64)
		}
		m[g[2]] = v
	}
	return m
}

func TestSectionsMatchReadelf(t *testing.T) {
	for _, variant := range []string{"hardened", "plain", "stripped"} {
		bin := nativetest.ChainELF(t, variant)
		want := readelfSections(t, bin)
		f := openPath(t, bin, Options{})
		got := map[string][3]uint64{}
		for _, s := range f.Sections {
			got[s.Name] = [3]uint64{uint64(s.Address), uint64(s.FileOffset), s.Size}
		}
		if len(want) < 20 || len(got) != len(want) {
			t.Errorf("%s: %d sections, readelf lists %d", variant, len(got), len(want))
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%s: section %s = %x, readelf says %x", variant, name, got[name], w)
			}
		}
	}
}

// nmFunctions lists `nm --defined-only` text symbols as address → names.
func nmFunctions(t *testing.T, bin string) map[Addr][]string {
	out, err := exec.Command("nm", "--defined-only", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := map[Addr][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 || (fs[1] != "T" && fs[1] != "t") {
			continue
		}
		v, _ := strconv.ParseUint(fs[0], 16, 64)
		m[Addr(v)] = append(m[Addr(v)], fs[2])
	}
	return m
}

func TestProceduresHaveNmsSymbolAddresses(t *testing.T) {
	for _, bin := range []string{nativetest.ChainELF(t, "hardened"), nativetest.ChainELF(t, "plain"), nativetest.GeneratedELF(t)} {
		a := analyzePath(t, bin)
		byAddr := map[Addr]Procedure{}
		for _, p := range a.Procedures {
			byAddr[p.Address] = p
		}
		want := nmFunctions(t, bin)
		if len(want) < 5 {
			t.Fatalf("nm lists only %d functions of %s", len(want), bin)
		}
		for addr, names := range want {
			p, ok := byAddr[addr]
			if !ok {
				t.Errorf("%s: nm's %v at %s is not a procedure", bin, names, addr)
				continue
			}
			all := append([]string{p.Name}, p.Aliases...)
			for _, n := range names {
				if !contains(all, n) {
					t.Errorf("%s: procedure at %s is named %v, nm says %s", bin, addr, all, n)
				}
			}
		}
	}
}

// objdumpCalls lists "site callee" pairs of the direct calls objdump -d finds.
func objdumpCalls(t testing.TB, bin string) []string {
	calls, _ := objdumpCallsNamed(t, bin)
	return calls
}

// objdumpCallsNamed also returns the callee name objdump shows at each
// site when it names a symbol exactly (no "+offset").
func objdumpCallsNamed(t testing.TB, bin string) ([]string, map[Addr]string) {
	out, err := exec.Command("objdump", "-d", "--no-show-raw-insn", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s+([0-9a-f]+):\s+call\s+([0-9a-f]+) <([^>]*)>`)
	var calls []string
	names := map[Addr]string{}
	for _, g := range re.FindAllStringSubmatch(string(out), -1) {
		s, _ := strconv.ParseUint(g[1], 16, 64)
		c, _ := strconv.ParseUint(g[2], 16, 64)
		calls = append(calls, Addr(s).String()+" "+Addr(c).String())
		if !strings.Contains(g[3], "+") {
			names[Addr(s)] = g[3]
		}
	}
	sort.Strings(calls)
	return calls, names
}

func TestDirectCallEdgesMatchObjdump(t *testing.T) {
	for _, bin := range []string{nativetest.ChainELF(t, "hardened"), nativetest.ChainELF(t, "plain"), nativetest.ChainELF(t, "stripped"), nativetest.ChainELF(t, "ibt"), nativetest.GeneratedELF(t)} {
		a := analyzePath(t, bin)
		want, names := objdumpCallsNamed(t, bin)
		var got []string
		for _, e := range a.Calls {
			if e.Kind == EdgeCall {
				got = append(got, e.Site.String()+" "+e.Callee.String())
				if n, ok := names[e.Site]; ok && a.NameAt(e.Callee) != n {
					t.Errorf("%s: call at %s goes to %s, objdump says <%s>", bin, e.Site, a.NameAt(e.Callee), n)
				}
			}
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %d call edges, objdump finds %d\nours:    %v\nobjdump: %v", bin, len(got), len(want), got, want)
		}
	}
}

func TestCallChainAndStubsAreNamed(t *testing.T) {
	a := analyzePath(t, nativetest.ChainELF(t, "plain"))
	edges := map[string]bool{}
	for _, e := range a.Calls {
		edges[a.NameAt(e.Caller)+" -> "+a.NameAt(e.Callee)] = true
	}
	for _, want := range []string{"main -> middle", "middle -> leaf", "main -> copy", "copy -> strcpy@plt", "main -> printf@plt"} {
		if !edges[want] {
			t.Errorf("no call edge %s; have %v", want, edges)
		}
	}
	p, err := a.Resolve("printf@plt")
	if err != nil || !p.Thunk || !p.External || p.Target != "printf" || p.Section != ".plt" {
		t.Fatalf("printf@plt = %+v, %v", p, err)
	}
}

func TestStrippedBinaryFindsFunctionsByTheirCalls(t *testing.T) {
	full := analyzePath(t, nativetest.ChainELF(t, "hardened"))
	stripped := analyzePath(t, nativetest.ChainELF(t, "stripped"))
	for _, name := range []string{"leaf", "middle", "copy"} {
		p, err := full.Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		q, err := stripped.Resolve(p.Address.String())
		if err != nil {
			t.Errorf("stripped binary has no procedure at %s (%s): %v", p.Address, name, err)
			continue
		}
		// .eh_frame describes every gcc function, before the sweep
		// sees its calls.
		if q.Source != SourceEHFrame || q.Size != p.Size || !strings.HasPrefix(q.Name, "sub_") {
			t.Errorf("stripped procedure at %s = %+v, want an .eh_frame function of %d bytes named sub_…", p.Address, q, p.Size)
		}
	}
	if m := mitigation(stripped.File, "stack_canary"); m.Status != StatusInferred {
		t.Errorf("a stripped dynamic binary still imports __stack_chk_fail: %+v", m)
	}
}

func TestStringsCarrySectionEncodingAndLength(t *testing.T) {
	a := analyzePath(t, nativetest.ChainELF(t, "plain"))
	find := func(v, enc string) *String {
		for i := range a.Strings {
			if a.Strings[i].Value == v && a.Strings[i].Encoding == enc {
				return &a.Strings[i]
			}
		}
		return nil
	}
	s := find("rea-fixture-greeting", EncodingASCII)
	if s == nil || s.Section != ".rodata" || s.Length != 20 || s.ByteLength != 20 || !s.Terminated {
		t.Fatalf("greeting = %+v", s)
	}
	w := find("rea-wide-string", EncodingUTF16LE)
	if w == nil || w.Section != ".rodata" || w.Length != 15 || w.ByteLength != 30 || !w.Terminated {
		t.Fatalf("wide string = %+v", w)
	}
	// The file offset points at the same bytes.
	got, err := a.File.ReadAt(s.Address, s.ByteLength)
	if err != nil || string(got) != s.Value {
		t.Fatalf("bytes at %s = %q, %v", s.Address, got, err)
	}
	if a.StringAt(s.Address+3) != s {
		t.Errorf("StringAt inside the string does not find it")
	}
}

func TestReferencesReachStringsAndCallees(t *testing.T) {
	a := analyzePath(t, nativetest.ChainELF(t, "plain"))
	var greeting *String
	for i := range a.Strings {
		if a.Strings[i].Value == "short" {
			greeting = &a.Strings[i]
		}
	}
	if greeting == nil {
		t.Fatal("no \"short\" string")
	}
	refs := a.ReferencesTo(greeting.Address)
	if len(refs) == 0 || refs[0].Procedure == nil || a.NameAt(*refs[0].Procedure) != "main" || refs[0].Kind != RefAddress {
		t.Fatalf("references to \"short\" = %+v", refs)
	}
	leaf, _ := a.Resolve("leaf")
	callers := a.Callers(leaf.Address)
	if len(callers) != 2 || a.NameAt(callers[0].Caller) != "middle" {
		t.Fatalf("callers of leaf = %+v", callers)
	}
}

func TestBasicBlocksSplitAtBranches(t *testing.T) {
	a := analyzePath(t, nativetest.ChainELF(t, "plain"))
	main, _ := a.Resolve("main")
	body, err := a.Decode(main)
	if err != nil {
		t.Fatal(err)
	}
	if len(body.Blocks) < 2 {
		t.Fatalf("main (with argc > 5 ? … : …) has %d blocks", len(body.Blocks))
	}
	// Blocks tile the decoded instructions without gaps or overlap.
	n := 0
	for i, b := range body.Blocks {
		n += b.Instructions
		if i > 0 && b.Start != body.Blocks[i-1].End {
			t.Errorf("block %d starts at %s, previous ends at %s", i, b.Start, body.Blocks[i-1].End)
		}
		for _, s := range b.Successors {
			if s < main.Address || s >= main.End() {
				t.Errorf("successor %s leaves main", s)
			}
		}
	}
	if n != len(body.Instructions) {
		t.Errorf("blocks hold %d instructions, body has %d", n, len(body.Instructions))
	}
	leaf, _ := a.Resolve("leaf")
	lb, _ := a.Decode(leaf)
	if len(lb.Blocks) != 1 || lb.Blocks[0].Terminator != "return" {
		t.Errorf("leaf blocks = %+v", lb.Blocks)
	}
}

func TestFileOffsetsAgreeWithReadelf(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	f := openPath(t, bin, Options{})
	sec := readelfSections(t, bin)[".text"]
	off, s, err := f.FileOffset(Addr(sec[0] + 5))
	if err != nil || off != int64(sec[1]+5) || s.Name != ".text" {
		t.Fatalf("file offset of .text+5 = %d in %v (%v); readelf puts .text at offset %d", off, s, err, sec[1])
	}
	bss := readelfSections(t, bin)[".bss"]
	if _, _, err := f.FileOffset(Addr(bss[0])); err == nil {
		t.Errorf(".bss has no file bytes, yet it mapped")
	}
	if _, _, err := f.FileOffset(0x10); err == nil {
		t.Errorf("address 0x10 is outside every section, yet it mapped")
	}
}

func TestCountOnlyAgreesWithTheFullLists(t *testing.T) {
	for _, c := range []struct {
		name string
		bin  func(testing.TB) string
	}{
		{"generated", nativetest.GeneratedELF},
		{"chain stripped", func(t testing.TB) string { return nativetest.ChainELF(t, "stripped") }},
		{"go pe", func(t testing.TB) string { return nativetest.GoBinary(t, "windows", "amd64") }},
		{"go mach-o arm64", func(t testing.TB) string { return nativetest.GoBinary(t, "darwin", "arm64") }},
		{"rea itself", wasmtest.ReaBinary},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := c.bin(t)
			full := analyzePath(t, bin)
			counted, err := Analyze(openPath(t, bin, Options{}), AnalyzeOptions{CountOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if full.StringsTruncated || len(full.Strings) == 0 {
				t.Fatalf("the full list has %d strings (truncated %v); the comparison needs a complete, non-empty one", len(full.Strings), full.StringsTruncated)
			}
			if counted.StringCount != len(full.Strings) || counted.ReferenceCount != len(full.References) || len(counted.Strings) != 0 || len(counted.References) != 0 {
				t.Fatalf("count-only: %d strings %d references; full lists %d and %d", counted.StringCount, counted.ReferenceCount, len(full.Strings), len(full.References))
			}
		})
	}
}

// TestSweepWindowsDoNotChangeTheInventory sweeps with windows of 1,000
// bytes, so instructions cross window ends everywhere, and compares every
// list with the default windows.
func TestSweepWindowsDoNotChangeTheInventory(t *testing.T) {
	for _, bin := range []string{nativetest.GoBinary(t, "linux", "amd64"), nativetest.GeneratedELF(t), nativetest.GoBinary(t, "linux", "arm64"), nativetest.GoBinary(t, "linux", "386")} {
		f := openPath(t, bin, Options{})
		whole, err := Analyze(f, AnalyzeOptions{References: true, Strings: true})
		if err != nil {
			t.Fatal(err)
		}
		small, err := Analyze(f, AnalyzeOptions{References: true, Strings: true, windowBytes: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if whole.CodeBytes <= 3*1000 {
			t.Fatalf("%s has %d bytes of code: too little to cross windows", bin, whole.CodeBytes)
		}
		if a, b := inventoryJSON(t, whole), inventoryJSON(t, small); string(a) != string(b) {
			t.Fatalf("%s: windows of 1,000 bytes give another inventory (%d instructions, %d calls, %d references; default %d, %d, %d)",
				bin, small.Instructions, len(small.Calls), len(small.References), whole.Instructions, len(whole.Calls), len(whole.References))
		}
	}
}

// inventoryJSON is everything an Analysis reports, as bytes to compare.
func inventoryJSON(t *testing.T, a *Analysis) []byte {
	t.Helper()
	b, err := json.Marshal([]any{a.Procedures, a.Names, a.Calls, a.References, a.Strings,
		a.Instructions, a.CodeBytes, a.StringCount, a.ReferenceCount, a.StringsTruncated, a.Limitations})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
