package index

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// fourMiBBundle is a bundle at the admission limits' scale: four files just
// under 1 MiB each, 4,000 sections over three heading levels, prose made of
// a few thousand distinct words.
func fourMiBBundle() fstest.MapFS {
	m := fstest.MapFS{}
	for f := range 4 {
		var b strings.Builder
		for s := 0; b.Len() < (1<<20)-2048 && s < 1000; s++ {
			level := 1 + s%3
			fmt.Fprintf(&b, "%s Section %d.%d about topic%d\n", strings.Repeat("#", level), f, s, s%97)
			for line := 0; line < 12; line++ {
				fmt.Fprintf(&b, "Paragraph word%d and term%d with preload%d, ipc%d and evidence text for section %d.\n",
					(s*13+line)%4093, (s*7+line)%1021, line, s%31, s)
			}
		}
		m[fmt.Sprintf("doc%d.md", f)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	return m
}

func BenchmarkBuildFourMiBBundle(b *testing.B) {
	fsys := fourMiBBundle()
	total := 0
	for _, f := range fsys {
		total += len(f.Data)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		if _, err := Build(fsys); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearchFourMiBBundle(b *testing.B) {
	ix, err := Build(fourMiBBundle())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ix.Search(SearchParams{Query: "preload3 evidence topic5"}); err != nil {
			b.Fatal(err)
		}
	}
}
