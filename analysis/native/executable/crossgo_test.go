package executable

import (
	"bytes"
	"debug/macho"
	"encoding/binary"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
)

// goNM lists `go tool nm` text symbols: name → address.
func goNM(t *testing.T, bin string) map[string]Addr {
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Addr{}
	for _, line := range strings.Split(string(out), "\n") {
		fs := strings.SplitN(strings.TrimSpace(line), " ", 3)
		if len(fs) == 3 && fs[1] == "T" {
			v, _ := strconv.ParseUint(fs[0], 16, 64)
			m[fs[2]] = Addr(v)
		}
	}
	return m
}

// goObjdumpCalls lists "site callee-address" of main.main's direct calls
// as `go tool objdump` prints them.
func goObjdumpCalls(t *testing.T, bin string, syms map[string]Addr) []string {
	out, err := exec.Command("go", "tool", "objdump", "-s", `^main\.main$`, bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)\s(0x[0-9a-f]+)\s+[0-9a-f]+\s+CALL ([^(\s]+)\(SB\)`)
	var calls []string
	for _, g := range re.FindAllStringSubmatch(string(out), -1) {
		site, _ := ParseAddr(g[1])
		callee, ok := syms[g[2]]
		if !ok {
			t.Fatalf("go tool nm has no %s", g[2])
		}
		calls = append(calls, site.String()+" "+callee.String())
	}
	sort.Strings(calls)
	return calls
}

func TestGoCrossCompiledBinariesMatchGoTools(t *testing.T) {
	for _, tc := range []struct {
		goos, goarch, format, arch string
		mitigations                map[string]string
	}{
		{"windows", "amd64", FormatPE, "x86_64", map[string]string{"aslr": StatusObserved, "dep": StatusObserved, "high_entropy_va": StatusObserved, "signature": StatusAbsent, "safeseh": StatusObserved}},
		{"darwin", "arm64", FormatMachO, "arm64", map[string]string{"pie": StatusObserved, "code_signature": StatusObserved, "encryption": StatusAbsent}},
		{"darwin", "amd64", FormatMachO, "x86_64", map[string]string{"pie": StatusObserved}},
		{"linux", "arm64", FormatELF, "arm64", map[string]string{"pie": StatusAbsent, "relro": StatusAbsent, "nx": StatusObserved}},
		{"linux", "386", FormatELF, "x86", map[string]string{"pie": StatusAbsent, "nx": StatusObserved}},
		{"windows", "386", FormatPE, "x86", map[string]string{"aslr": StatusObserved, "dep": StatusObserved, "safeseh": StatusAbsent, "stack_canary": StatusAbsent}},
	} {
		t.Run(tc.goos+"-"+tc.goarch, func(t *testing.T) {
			bin := nativetest.GoBinary(t, tc.goos, tc.goarch)
			a := analyzePath(t, bin)
			f := a.File
			if f.Format != tc.format || f.Architecture != tc.arch || f.Entry == nil {
				t.Fatalf("format %s arch %s entry %v", f.Format, f.Architecture, f.Entry)
			}
			for name, want := range tc.mitigations {
				if m := mitigation(f, name); m.Status != want {
					t.Errorf("%s = %+v, want %s", name, m, want)
				}
			}
			syms := goNM(t, bin)
			if len(syms) < 500 {
				t.Fatalf("go tool nm lists %d text symbols", len(syms))
			}
			byAddr := map[Addr]Procedure{}
			for _, p := range a.Procedures {
				byAddr[p.Address] = p
			}
			missing := 0
			for name, addr := range syms {
				p, ok := byAddr[addr]
				if !ok {
					missing++
					if missing < 5 {
						t.Errorf("go tool nm's %s at %s is not a procedure", name, addr)
					}
					continue
				}
				all := append([]string{p.Name}, p.Aliases...)
				if !contains(all, name) && !contains(all, "_"+name) {
					t.Errorf("procedure at %s is %v, go tool nm says %s", addr, all, name)
				}
			}
			mainAddr := syms["main.main"]
			var got []string
			for _, e := range a.Callees(mainAddr) {
				if e.Kind == EdgeCall {
					got = append(got, e.Site.String()+" "+e.Callee.String())
				}
			}
			sort.Strings(got)
			want := goObjdumpCalls(t, bin, syms)
			if len(want) < 2 || strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("main.main calls %v, go tool objdump says %v", got, want)
			}
			// The program's own string is found, with its section.
			found := false
			for _, s := range a.Strings {
				v, err := a.FullValue(s)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(v, "rea-go-fixture ") {
					found = s.Section != "" && s.Length >= len("rea-go-fixture ")
				}
			}
			if !found {
				t.Errorf("no string holds \"rea-go-fixture \"")
			}
		})
	}
}

func TestPEImportsKnowTheirSlots(t *testing.T) {
	a := analyzePath(t, nativetest.GoBinary(t, "windows", "amd64"))
	var kernel32 int
	for _, im := range a.File.Imports {
		if strings.EqualFold(im.Library, "kernel32.dll") {
			kernel32++
			if im.Slot == nil || a.File.slots[*im.Slot] == "" {
				t.Errorf("import %s has no IAT slot", im.Name)
			}
		}
	}
	if kernel32 < 5 || !contains(a.File.Libraries, "kernel32.dll") && !contains(a.File.Libraries, "KERNEL32.dll") {
		t.Errorf("%d kernel32 imports; libraries %v", kernel32, a.File.Libraries)
	}
	if a.File.Relocations.Count == 0 {
		t.Logf("no base relocations (the Go linker may omit them)")
	}
}

func TestUniversalMachOSelectsASlice(t *testing.T) {
	arm := nativetest.GoBinary(t, "darwin", "arm64")
	amd := nativetest.GoBinary(t, "darwin", "amd64")
	fat := nativetest.BuildOnce(t, "hello-universal", func(out string) error { return writeFat(out, amd, arm) })
	for _, tc := range []struct{ want, arch string }{{"", "x86_64"}, {"arm64", "arm64"}, {"x86_64", "x86_64"}} {
		f := openPath(t, fat, Options{Architecture: tc.want})
		if f.Format != FormatMachOUniversal || f.Architecture != tc.arch || len(f.Architectures) != 2 {
			t.Errorf("slice %q: format %s arch %s of %v", tc.want, f.Format, f.Architecture, f.Architectures)
		}
		if tc.arch == "arm64" {
			a, err := Analyze(f, AnalyzeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			thin := analyzePath(t, arm)
			if len(a.Procedures) != len(thin.Procedures) || len(a.Calls) != len(thin.Calls) {
				t.Errorf("arm64 slice: %d procedures %d calls; thin file %d %d", len(a.Procedures), len(a.Calls), len(thin.Procedures), len(thin.Calls))
			}
			// File offsets of a slice count from the universal file's start.
			off, _, err := f.FileOffset(*f.Entry)
			thinOff, _, _ := thin.File.FileOffset(*thin.File.Entry)
			if err != nil || off != thinOff+f.SliceOffset || f.SliceOffset == 0 {
				t.Errorf("entry file offset %d, thin %d + slice %d", off, thinOff, f.SliceOffset)
			}
		}
	}
	if _, err := Open(mustOpen(t, fat), fileSize(t, fat), Options{Architecture: "ppc"}); err == nil {
		t.Errorf("a missing slice opened")
	}
}

func TestMachOImportsNameTheirLibraryAndSlot(t *testing.T) {
	bin := nativetest.GoBinary(t, "darwin", "arm64")
	a := analyzePath(t, bin)
	f := a.File
	if !contains(f.Libraries, "/usr/lib/libSystem.B.dylib") {
		t.Fatalf("libraries %v", f.Libraries)
	}
	// Go links darwin binaries with a flat namespace (no MH_TWOLEVEL):
	// dyld binds by name from any library, so none is claimed.
	withSlot := 0
	for _, im := range f.Imports {
		if im.Library != "" {
			t.Errorf("flat-namespace import %s attributed to %s", im.Name, im.Library)
		}
		if im.Slot != nil {
			withSlot++
		}
	}
	if len(f.Imports) < 10 || withSlot == 0 {
		t.Fatalf("%d imports, %d with a GOT slot", len(f.Imports), withSlot)
	}
	// Made two-level, an import's n_desc ordinal names its library.
	data := readFixture(t, bin)
	mf, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(data[24:], mf.Flags|0x80) // MH_TWOLEVEL
	idx := -1
	for i, s := range mf.Symtab.Syms {
		if s.Name == "_close" {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatal("no _close symbol")
	}
	symoff := int(binary.LittleEndian.Uint32(mf.Symtab.Raw()[8:])) // symtab_command.symoff
	binary.LittleEndian.PutUint16(data[symoff+16*idx+6:], 2<<8)    // n_desc: second library
	two, err := Open(bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range two.Imports {
		want := ""
		if im.Name == "_close" {
			want = f.Libraries[1]
		}
		if im.Library != want {
			t.Errorf("two-level import %s from %q, want %q", im.Name, im.Library, want)
		}
	}
}
