package query

import (
	"testing"

	"rea/modules/native/nativetest"
)

// TestStringCountCompletesAnOverviewWithStringsElsewhere: the host runs
// an overview with strings_elsewhere beside string_count and fills the
// count in; together they must give the overview of one instance.
func TestStringCountCompletesAnOverviewWithStringsElsewhere(t *testing.T) {
	for _, bin := range []string{nativetest.GoBinary(t, "linux", "amd64"), nativetest.ChainELF(t, "hardened"), nativetest.GoBinary(t, "windows", "amd64")} {
		whole := runOn[Overview](t, bin, OpOverview, Params{})
		without := runOn[Overview](t, bin, OpOverview, Params{StringsElsewhere: true})
		count := runOn[StringCount](t, bin, OpStringCount, Params{})
		if whole.Strings == 0 || without.Strings != 0 || count.Count != whole.Strings {
			t.Fatalf("%s: overview counts %d strings, with strings elsewhere %d, string_count %d", bin, whole.Strings, without.Strings, count.Count)
		}
		without.Strings = count.Count
		if without.Procedures != whole.Procedures || without.CallEdges != whole.CallEdges || without.References != whole.References || without.Names != whole.Names {
			t.Fatalf("%s: the overview without strings differs in more than strings: %+v vs %+v", bin, without, whole)
		}
	}
}
