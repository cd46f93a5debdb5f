package container

import (
	"archive/zip"
	"bytes"
	"testing"
	"testing/fstest"

	"rea/analysis/artifact/inventory"
)

// TestTopLevelOnlyLeavesArchivesUnexpanded: with Options.TopLevelOnly an
// archive among a directory's or a zip's entries is listed and hashed as a
// file — one container, the input — and a malformed one fails nothing;
// without it the same input is expanded (and the malformed one refused).
func TestTopLevelOnlyLeavesArchivesUnexpanded(t *testing.T) {
	var inner bytes.Buffer
	zw := zip.NewWriter(&inner)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "a.js", Method: zip.Store})
	w.Write([]byte("module.exports = 1;\n"))
	zw.Close()
	var outer bytes.Buffer
	zw = zip.NewWriter(&outer)
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: "lib/inner.zip", Method: zip.Store})
	w.Write(inner.Bytes())
	zw.Close()
	fsys := fstest.MapFS{
		"app/main.js":                {Data: []byte("require('electron');\n")},
		"app/fixtures/good.zip":      {Data: inner.Bytes()},
		"app/fixtures/broken.zip":    {Data: []byte("PK\x03\x04 and nothing after it")},
		"app/fixtures/truncated.tgz": {Data: []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03 not deflate")},
		"outer.zip":                  {Data: outer.Bytes()},
	}
	for _, c := range []struct{ input, format string }{{"app", inventory.FormatDirectory}, {"outer.zip", ""}} {
		res, err := InventoryWith(fsys, c.input, c.format, inventory.Limits{}, Options{TopLevelOnly: true}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		if len(res.Containers) != 1 {
			t.Fatalf("%s: %d containers, want the input alone: %+v", c.input, len(res.Containers), res.Containers)
		}
		for _, e := range res.Entries {
			if e.Container != 0 {
				t.Fatalf("%s: entry %q of container %d", c.input, e.Path, e.Container)
			}
		}
	}
	if _, err := InventoryWith(fsys, "app", inventory.FormatDirectory, inventory.Limits{}, Options{}, nil); err == nil {
		t.Fatal("a full inventory accepted the malformed nested zip")
	}
	res, err := InventoryWith(fsys, "outer.zip", "", inventory.Limits{}, Options{}, nil)
	if err != nil || len(res.Containers) != 2 {
		t.Fatalf("a full inventory of outer.zip: %v, containers %+v; want the inner zip expanded", err, res)
	}
}
