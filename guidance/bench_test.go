package guidance

import (
	"testing"

	"rea/guidance/index"
)

// BenchmarkBuildAndSearchShippedBundle measures what one module request
// costs: index the packaged bundle, then answer one query.
func BenchmarkBuildAndSearchShippedBundle(b *testing.B) {
	fsys := Bundle()
	for b.Loop() {
		ix, err := index.Build(fsys)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Search(index.SearchParams{Query: "preload contextBridge ipc"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchShippedBundle measures one query over a built index.
func BenchmarkSearchShippedBundle(b *testing.B) {
	ix, err := index.Build(Bundle())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ix.Search(index.SearchParams{Query: "integrity record-and-continue unpacked"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenAndSearchSnapshot measures what one module request costs
// now: open the packaged snapshot, then answer one query.
func BenchmarkOpenAndSearchSnapshot(b *testing.B) {
	for b.Loop() {
		ix, err := index.Open(Snapshot())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Search(index.SearchParams{Query: "preload contextBridge ipc"}); err != nil {
			b.Fatal(err)
		}
	}
}
