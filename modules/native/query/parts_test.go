package query

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"

	"rea/modules/native/nativetest"
)

// TestOverviewFromPartsEqualsOneSweep assembles an overview from
// sweep_part and string_count answers, as the host does with one instance
// each, and compares its JSON with the overview of one instance.
func TestOverviewFromPartsEqualsOneSweep(t *testing.T) {
	for _, bin := range []string{nativetest.GoBinary(t, "linux", "amd64"), nativetest.ChainELF(t, "hardened"), nativetest.GoBinary(t, "darwin", "arm64")} {
		whole, err := json.Marshal(runOn[Overview](t, bin, OpOverview, Params{}))
		if err != nil {
			t.Fatal(err)
		}
		count := runOn[StringCount](t, bin, OpStringCount, Params{})
		for _, n := range []int{2, 3} {
			parts := fstest.MapFS{}
			for k := 0; k < n; k++ {
				part := runOn[SweepPart](t, bin, OpSweepPart, Params{Part: k, SweepParts: n})
				parts[strconv.Itoa(k)] = &fstest.MapFile{Data: part.Data}
			}
			out, err := RunWithParts(OpOverview, Params{Input: filepath.Base(bin), SweepParts: n, StringCount: &count.Count}, os.DirFS(filepath.Dir(bin)), parts, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(whole) {
				t.Fatalf("%s in %d parts:\n%s\none instance:\n%s", filepath.Base(bin), n, got, whole)
			}
		}
	}
}

func TestOverviewRefusesMissingParts(t *testing.T) {
	bin := nativetest.GoBinary(t, "linux", "amd64")
	part := runOn[SweepPart](t, bin, OpSweepPart, Params{Part: 0, SweepParts: 2})
	_, err := RunWithParts(OpOverview, Params{Input: filepath.Base(bin), SweepParts: 2}, os.DirFS(filepath.Dir(bin)),
		fstest.MapFS{"0": &fstest.MapFile{Data: part.Data}}, nil)
	if err == nil {
		t.Fatal("an overview with part 1 of 2 missing was answered")
	}
}
