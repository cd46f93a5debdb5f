package executable

import (
	"math/rand"
	"testing"
)

// TestSectionIndexAgreesWithTheScan asks the index and the scan of every
// section the same questions: at, just before and just after every
// boundary of overlapping, nested, empty, unloaded and wrapping sections.
func TestSectionIndexAgreesWithTheScan(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for round := 0; round < 300; round++ {
		var sections []Section
		for i := rng.Intn(12); i >= 0; i-- {
			s := Section{Address: Addr(0x1000 * rng.Intn(40)), Size: uint64(0x800 * rng.Intn(12)), Loaded: rng.Intn(5) > 0}
			switch rng.Intn(10) {
			case 0:
				s.Address = ^Addr(0) - Addr(rng.Intn(0x1000)) // ends past the top of the address space
			case 1:
				s.Address += Addr(rng.Intn(16))
			}
			sections = append(sections, s)
		}
		x := newSectionIndex(sections)
		var probes []Addr
		for _, s := range sections {
			for _, b := range []Addr{s.Address, s.End()} {
				probes = append(probes, b-1, b, b+1)
			}
		}
		for k := 0; k < 50; k++ {
			probes = append(probes, Addr(rng.Intn(0x30000)), Addr(rng.Uint64()))
		}
		for _, a := range probes {
			want := scanSections(sections, a)
			if got := x.lookup(a); got != want {
				t.Fatalf("round %d: address %s: index says section %d, the scan %d (sections %+v)", round, a, got, want, sections)
			}
			if lo, hi, got := x.interval(a); got != want || got >= 0 && (a < lo || a >= hi || scanSections(sections, lo) != want || scanSections(sections, hi-1) != want) {
				t.Fatalf("round %d: address %s: interval [%s, %s) of section %d, the scan says %d", round, a, lo, hi, got, want)
			}
		}
	}
}
