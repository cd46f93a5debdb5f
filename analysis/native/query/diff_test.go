package query

import (
	"os"
	"path/filepath"
	"testing"

	"rea/analysis/native/nativetest"
	"rea/analysis/native/nativewire"
)

func diffOf(t *testing.T, left, right string) *nativewire.BinaryDiff {
	t.Helper()
	out, err := RunDiff(Params{Input: filepath.Base(left), Other: filepath.Base(right), Limit: MaxLimit}, os.DirFS(filepath.Dir(left)), os.DirFS(filepath.Dir(right)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*nativewire.BinaryDiff)
}

func byName(d *nativewire.BinaryDiff) map[string]nativewire.DiffChange {
	m := map[string]nativewire.DiffChange{}
	for _, c := range d.Changes.Items {
		if c.Left != nil {
			m[c.Left.Name] = c
		} else {
			m[c.Right.Name] = c
		}
	}
	return m
}

func TestDiffOfTwoVersions(t *testing.T) {
	// chain.c's version 2 changes leaf and main and adds extra; copy
	// compiles to the same code (middle does not: gcc allocates its
	// registers differently around the changed leaf, objdump shows).
	d := diffOf(t, nativetest.ChainELF(t, "plain"), nativetest.ChainELF(t, "plain-v2"))
	m := byName(d)
	if m["leaf"].Status != nativewire.DiffChanged || m["leaf"].MatchedBy != "name" || m["leaf"].Similarity >= 1 {
		t.Errorf("leaf: %+v", m["leaf"])
	}
	if m["main"].Status != nativewire.DiffChanged {
		t.Errorf("main: %+v", m["main"])
	}
	if m["extra"].Status != nativewire.DiffAdded {
		t.Errorf("extra: %+v", m["extra"])
	}
	for _, same := range []string{"copy"} {
		if c, listed := m[same]; listed {
			t.Errorf("%s is the same code in both versions, listed %+v", same, c)
		}
	}
	if d.Summary.Unchanged < 1 || d.Summary.Removed != 0 {
		t.Errorf("summary %+v", d.Summary)
	}
	self := diffOf(t, nativetest.ChainELF(t, "plain"), nativetest.ChainELF(t, "plain"))
	if self.Summary.Changed+self.Summary.Added+self.Summary.Removed+self.Summary.Ambiguous != 0 || self.Summary.Unchanged != self.Summary.LeftFunctions {
		t.Errorf("a binary against itself: %+v", self.Summary)
	}
}

func TestDiffOfStrippedVersionsMatchesWithoutNames(t *testing.T) {
	build := func(name string, flags ...string) string {
		return nativetest.BuildOnce(t, name, func(out string) error {
			args := append(append(append([]string{}, nativetest.PlainFlags...), flags...), "-o", out, nativetest.Testdata(t, "chain.c"))
			if err := nativetest.Run("", nil, "gcc", args...); err != nil {
				return err
			}
			return nativetest.Run("", nil, "strip", out)
		})
	}
	d := diffOf(t, build("chain-plain-stripped"), build("chain-plain-v2-stripped", "-DREA_V2"))
	t.Logf("stripped v1 against v2: %+v", d.Summary)
	if d.Summary.ByName != 0 && d.Summary.ByHash == 0 {
		t.Fatalf("stripped builds matched by name only: %+v", d.Summary)
	}
	// copy is unchanged code: matched by hash.
	if d.Summary.ByHash < 1 || d.Summary.Unchanged < 1 {
		t.Errorf("summary %+v", d.Summary)
	}
	if d.Summary.Added+d.Summary.Changed+d.Summary.Ambiguous == 0 {
		t.Errorf("version 2 adds a function and changes two; the diff sees nothing: %+v", d.Summary)
	}
}
