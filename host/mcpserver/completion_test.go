package mcpserver

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestPrefixMatchingIsUnicodeNormalizedAndCaseInsensitive(t *testing.T) {
	candidates := []string{"Straße", "ＥＶ_full", "ev_abc", "Évian", "E\u0301cole", "other"}
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"STRASS", []string{"Straße"}},          // full case folding: ß folds to ss
		{"ev_", []string{"ev_abc", "ＥＶ_full"}},  // NFKC: full-width letters are ASCII letters
		{"EV_F", []string{"ＥＶ_full"}},           // both sides normalised
		{"é", []string{"E\u0301cole", "Évian"}}, // composed and decomposed accents match
		{"e\u0301", []string{"E\u0301cole", "Évian"}},
		{"", []string{"E\u0301cole", "Straße", "ev_abc", "other", "Évian", "ＥＶ_full"}}, // code-point order
		{"x", []string{}},
	} {
		got, total := matchCompletions(candidates, tc.prefix)
		if !reflect.DeepEqual(got, tc.want) || total != len(tc.want) {
			t.Errorf("prefix %q: got %q (total %d), want %q", tc.prefix, got, total, tc.want)
		}
	}
}

func TestSuggestionsRetainTheirOriginalSpelling(t *testing.T) {
	got, _ := matchCompletions([]string{"MainWindow", "ＭＡＩＮ"}, "main")
	if !reflect.DeepEqual(got, []string{"MainWindow", "ＭＡＩＮ"}) {
		t.Fatalf("got %q: suggestions must keep their spelling", got)
	}
}

func TestSuggestionsAreDeduplicatedAndSortedByCodePoint(t *testing.T) {
	got, total := matchCompletions([]string{"b", "a", "é", "B", "a", "z", "\U0001F600", "ｚ"}, "")
	want := []string{"B", "a", "b", "z", "é", "ｚ", "\U0001F600"} // U+0042 < U+0061 < … < U+00E9 < U+FF5A < U+1F600
	if !reflect.DeepEqual(got, want) || total != len(want) {
		t.Fatalf("got %q (total %d), want %q", got, total, want)
	}
}

func TestAReplyCarriesAtMost100ValuesWithTotalAndHasMore(t *testing.T) {
	var ids []string
	for i := range 250 {
		ids = append(ids, fmt.Sprintf("occ_%03d", i))
	}
	got, total := matchCompletions(ids, "OCC_")
	if len(got) != MaxCompletionValues || total != 250 || got[0] != "occ_000" || got[99] != "occ_099" {
		t.Fatalf("len %d total %d first %q last %q", len(got), total, got[0], got[len(got)-1])
	}
	// A longer prefix reaches an omitted value only when it excludes other matches.
	got, total = matchCompletions(ids, "occ_2")
	if total != 50 || len(got) != 50 || !slices.Contains(got, "occ_249") {
		t.Fatalf("narrowed: len %d total %d", len(got), total)
	}
}

func TestOverlongCandidatesAreNotOffered(t *testing.T) {
	long := "ev_" + string(make([]byte, maxCompletionValueChars))
	got, total := matchCompletions([]string{long, "ev_short"}, "ev_")
	if !reflect.DeepEqual(got, []string{"ev_short"}) || total != 1 {
		t.Fatalf("got %d values (total %d)", len(got), total)
	}
}
