package container

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/inventory"
)

// fixtureDir holds archives packed by @electron/asar and what its list and
// extract commands printed (scripts/asar-fixtures.sh regenerates them).
const fixtureDir = "../../../testdata/artifact"

// asarListing renders entries the way `asar list` prints them.
func asarListing(entries []inventory.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString("/" + e.Path + "\n")
	}
	return b.String()
}

// referenceArchives are the fixtures scripts/asar-fixtures.sh packs.
func referenceArchives() []string { return []string{"app.asar", "unpackdir.asar"} }

func TestInventoryListsReferenceArchivesLikeAsarList(t *testing.T) {
	for _, name := range referenceArchives() {
		want, err := os.ReadFile(filepath.Join(fixtureDir, name+".list.txt"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Inventory(os.DirFS(fixtureDir), name, "", inventory.Limits{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := asarListing(res.Entries); got != string(want) {
			t.Fatalf("%s: listing differs from asar list:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

func TestAsarpackWritesTheReferenceIntegrity(t *testing.T) {
	res, err := Inventory(os.DirFS(fixtureDir), "app.asar", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "app.asar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Entries {
		if e.Path != "lib/big.bin" {
			continue
		}
		body := raw[e.Data.Offset:e.Data.End()]
		var buf bytes.Buffer
		if err := asarpack.Write(&buf, []asarpack.File{asarpack.Bytes("big.bin", body)}); err != nil {
			t.Fatal(err)
		}
		ours, err := ParseASAR(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "x", inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got := ours.Entries[0].Integrity
		if len(e.Integrity.Blocks) != 2 || got.Hash != e.Integrity.Hash || strings.Join(got.Blocks, ",") != strings.Join(e.Integrity.Blocks, ",") {
			t.Fatalf("asarpack integrity %+v, reference %+v", got, e.Integrity)
		}
		return
	}
	t.Fatal("lib/big.bin missing from the reference archive")
}
