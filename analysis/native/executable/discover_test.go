package executable

import (
	"debug/elf"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
)

// elfFunctions are the unstripped file's defined, sized function symbols
// in executable sections, read with debug/elf (not with rea): the truth a
// stripped build's discovery is held to.
func elfFunctions(t *testing.T, bin string) map[Addr]string {
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	syms, err := ef.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	out := map[Addr]string{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Section == elf.SHN_UNDEF || s.Section >= elf.SHN_LORESERVE || s.Value == 0 || s.Size == 0 {
			continue
		}
		if int(s.Section) < len(ef.Sections) && ef.Sections[s.Section].Flags&elf.SHF_EXECINSTR != 0 {
			out[Addr(s.Value)] = s.Name
		}
	}
	return out
}

func TestStrippedBinariesKeepTheirFunctions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(testing.TB, bool) string
		// truth lists the unstripped file's functions.
		truth func(*testing.T, string) map[Addr]string
		// named says the stripped file still names its functions (pclntab).
		named bool
	}{
		{"gcc", nativetest.CELF, elfFunctions, false},
		{"g++", nativetest.CPPELF, elfFunctions, false},
		{"rustc", nativetest.RustELF, elfFunctions, false},
		{"go", nativetest.GoELF, func(t *testing.T, bin string) map[Addr]string {
			out := map[Addr]string{}
			for name, a := range goNM(t, bin) {
				out[a] = name
			}
			return out
		}, true},
		{"go-pe", nativetest.GoPE, func(t *testing.T, bin string) map[Addr]string {
			out := map[Addr]string{}
			for name, a := range goNM(t, bin) {
				out[a] = name
			}
			return out
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			truth := tc.truth(t, tc.build(t, false))
			if len(truth) < 5 {
				t.Fatalf("the unstripped build has only %d function symbols", len(truth))
			}
			a, err := Analyze(openPath(t, tc.build(t, true), Options{}), AnalyzeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[Addr]Procedure{}
			for _, p := range a.Procedures {
				got[p.Address] = p
			}
			found, named := 0, 0
			var missing []string
			for addr, name := range truth {
				p, ok := got[addr]
				if !ok {
					missing = append(missing, name+"@"+addr.String())
					continue
				}
				found++
				// The symbol table marks assembly functions with their ABI
				// (.abi0); the pclntab holds the Go name.
				if p.Name == name || p.Name == strings.TrimSuffix(name, ".abi0") {
					named++
				}
			}
			ratio := float64(found) / float64(len(truth))
			t.Logf("%s: %d of %d functions found in the stripped build (%.1f%%), %d named as before", tc.name, found, len(truth), 100*ratio, named)
			if ratio < 0.95 {
				t.Errorf("only %.1f%% of the unstripped build's functions found; missing e.g. %v", 100*ratio, missing[:min(len(missing), 10)])
			}
			if tc.named && float64(named) < 0.95*float64(len(truth)) {
				t.Errorf("only %d of %d functions keep their names from the pclntab", named, len(truth))
			}
		})
	}
}

func TestDemangledNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(testing.TB, bool) string
		want  string
	}{
		{"g++", nativetest.CPPELF, "geometry::Circle::area() const"},
		{"rustc", nativetest.RustELF, "<shapes::Circle as shapes::Shape>::area"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Analyze(openPath(t, tc.build(t, false), Options{}), AnalyzeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			for _, p := range a.Procedures {
				if p.Demangled != "" {
					seen = append(seen, p.Demangled)
				}
				if strings.HasPrefix(p.Demangled, tc.want) {
					return
				}
			}
			t.Errorf("no procedure demangles to %q; demangled: %v", tc.want, seen[:min(len(seen), 20)])
		})
	}
}

func TestDemangle(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"_ZN8geometry6Circle4areaEv", "geometry::Circle::area()"},
		{"__ZN8geometry6Circle4areaEv", "geometry::Circle::area()"},
		{"_ZNSt6vectorIiSaIiEED2Ev@GLIBCXX_3.4", "std::vector<int, std::allocator<int> >::~vector()"},
		{"main", ""},
		{"_Zgarbage", ""},
		{"_RNvCs1234_5hello4main", "hello::main"},
	} {
		if got := Demangle(tc.in); got != tc.want {
			t.Errorf("Demangle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
