package index

import (
	"bytes"
	"reflect"
	"sort"
	"strings"
	"testing"

	"rea/abi"
)

var snapshotBundle = map[string]string{
	"SKILL.md":             "---\nname: x\n---\nIntro text about evidence.\n# Evidence\nEvery claim needs evidence.\n## Ledger\nThe ledger keeps records 😀.\n## Bundles\nExport a bundle of evidence records.\n# Windows\nBrowserWindow preload sandbox.\n",
	"references/native.md": "# Native\nProcedures, strings and xrefs.\n### Deep\nA level three heading under a level one.\n",
}

// A snapshot answers every search and read exactly as the index it was
// made from: same matches, locators, excerpts, lengths and errors.
func TestOpenedSnapshotAnswersExactlyAsTheBuiltIndex(t *testing.T) {
	built := mustBuild(t, snapshotBundle)
	snap, err := built.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	opened, err := Open(string(snap))
	if err != nil {
		t.Fatal(err)
	}
	// Every word of the bundle, alone and in pairs, plus words it lacks.
	words := map[string]bool{"absent": true, "the and": true}
	for w := range built.postings {
		words[w] = true
	}
	var queries []string
	for w := range words {
		queries = append(queries, w)
	}
	sort.Strings(queries)
	for i := range queries {
		queries = append(queries, queries[i]+" "+queries[(i*7+3)%len(queries)])
	}
	for _, q := range queries {
		want, werr := built.Search(SearchParams{Query: q})
		got, gerr := opened.Search(SearchParams{Query: q})
		if !reflect.DeepEqual(want, got) || !reflect.DeepEqual(werr, gerr) {
			t.Fatalf("query %q: built %+v %v, opened %+v %v", q, want, werr, got, gerr)
		}
	}
	for i := range built.sections {
		want, werr := built.Read(ReadParams{Locator: built.locator(i)})
		got, gerr := opened.Read(ReadParams{Locator: built.locator(i)})
		if werr != nil || !reflect.DeepEqual(want, got) || gerr != nil {
			t.Fatalf("section %d: built %+v %v, opened %+v %v", i, want, werr, got, gerr)
		}
	}
	again, err := opened.MarshalBinary()
	if err != nil || !bytes.Equal(again, snap) {
		t.Fatalf("an opened snapshot marshals to different bytes (%v)", err)
	}
}

// Open refuses anything that is not a consistent snapshot with
// bundle_unavailable / corrupt_snapshot, whatever byte was damaged.
func TestOpenRefusesCorruptSnapshots(t *testing.T) {
	snap, err := mustBuild(t, snapshotBundle).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	refused := func(name string, b []byte) {
		t.Helper()
		ix, err := Open(string(b))
		code, reason := codeOf(err)
		if ix != nil || code != abi.CodeBundleUnavailable || reason != ReasonCorruptSnapshot {
			t.Fatalf("%s: got index %v, error %v", name, ix != nil, err)
		}
	}
	refused("empty", nil)
	refused("wrong magic", append([]byte("notGIX\x00\x01"), snap[8:]...))
	v2 := bytes.Clone(snap)
	v2[len(snapshotMagic)] = 2
	refused("other version", v2)
	// A truncation is refused by Open or, inside the term area, by the
	// first search that reads the damaged record; it never answers.
	all := []string{}
	for w := range mustBuild(t, snapshotBundle).postings {
		all = append(all, w)
	}
	for n := 0; n < len(snap); n += 1 + n/50 {
		ix, err := Open(string(snap[:n]))
		if err != nil {
			refused("truncated", snap[:n])
			continue
		}
		failed := false
		for _, w := range all {
			if _, err := ix.Search(SearchParams{Query: w}); err != nil {
				if code, reason := codeOf(err); code != abi.CodeBundleUnavailable || reason != ReasonCorruptSnapshot {
					t.Fatalf("truncated at %d: search error %v", n, err)
				}
				failed = true
			}
		}
		if !failed {
			t.Fatalf("a snapshot truncated at %d of %d bytes answered every search", n, len(snap))
		}
	}
	if !strings.Contains(func() string { _, err := Open(string(v2)); return err.Error() }(), "version 2") {
		t.Fatal("the version error does not name the version")
	}
}

func FuzzOpenSnapshot(f *testing.F) {
	ix, err := Build(bundle(snapshotBundle))
	if err != nil {
		f.Fatal(err)
	}
	snap, _ := ix.MarshalBinary()
	f.Add(snap, "evidence ledger")
	f.Add(snap[:len(snap)/2], "x")
	f.Fuzz(func(t *testing.T, b []byte, query string) {
		ix, err := Open(string(b))
		if err != nil {
			if code, reason := codeOf(err); code != abi.CodeBundleUnavailable || reason != ReasonCorruptSnapshot {
				t.Fatalf("untyped refusal: %v", err)
			}
			return
		}
		// Whatever opened must answer without panicking and within bounds.
		res, err := ix.Search(SearchParams{Query: query})
		if err == nil && len(res.Matches) > MaxLimit {
			t.Fatalf("%d matches on one page", len(res.Matches))
		}
		for i := range ix.sections {
			if _, err := ix.Read(ReadParams{Locator: ix.locator(i)}); err != nil {
				t.Fatalf("a locator of the opened index does not read: %v", err)
			}
		}
	})
}
