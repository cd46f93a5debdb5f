package container

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// zipOf writes a zip of the given members with Go's archive/zip; a name
// in stored is written with method Store, every other one deflated.
func zipOf(t testing.TB, members [][2]string, stored map[string]bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		method := zip.Deflate
		if stored[m[0]] {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m[0], Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entryBytes decodes an entry's bytes from the input file itself, the way
// the host's extraction does (not from the stage), so a range the module
// placed wrongly shows.
func entryBytes(t *testing.T, file []byte, e inventory.Entry) []byte {
	t.Helper()
	if e.Data.Source != nil {
		file = sourceBytes(t, file, *e.Data)
		d := *e.Data
		d.Source = nil
		e.Data = &d
	}
	switch {
	case e.Data.Compression == inventory.CompressionNone:
		return file[e.Data.Offset:e.Data.End()]
	case e.Data.Compression == inventory.CompressionDeflate:
		b, err := io.ReadAll(flate.NewReader(bytes.NewReader(file[e.Data.Offset:e.Data.End()])))
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		return b
	case e.Data.Compression == inventory.CompressionBlocks:
		if err := stream.CheckBlocks(e.Data.Blocks, int64(len(file)), e.Size); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		b, err := io.ReadAll(stream.OpenBlocks(bytes.NewReader(file), *e.Data, nil))
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		return b
	case stream.IsStream(e.Data.Compression):
		rc, err := stream.Open(bytes.NewReader(file), int64(len(file)), *e.Data)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		defer rc.Close()
		if _, err := io.CopyN(io.Discard, rc, e.Data.Offset); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		b := make([]byte, e.Data.Length)
		if _, err := io.ReadFull(rc, b); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		return b
	}
	t.Fatalf("%s: compression %q", e.Path, e.Data.Compression)
	return nil
}

// sourceBytes decodes the bytes r's offsets address: file, or its
// Source stream decoded from the bytes that stream's own offsets address.
func sourceBytes(t *testing.T, file []byte, r inventory.Range) []byte {
	t.Helper()
	if r.Source == nil {
		return file
	}
	parent := sourceBytes(t, file, *r.Source)
	rc, err := stream.Open(bytes.NewReader(parent), int64(len(parent)), *r.Source)
	if err != nil {
		t.Fatalf("source %+v: %v", *r.Source, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("source %+v: %v", *r.Source, err)
	}
	return b
}

// nestedFiles maps "container format:path" of every file of containers
// at depth ≥ 1 to its bytes.
func nestedFiles(t *testing.T, file []byte, res *inventory.Result) map[string]string {
	out := map[string]string{}
	for _, e := range res.Entries {
		if e.Kind == inventory.KindFile && res.Containers[e.Container].Depth > 0 {
			out[res.Containers[e.Container].Format+":"+e.Path] = string(entryBytes(t, file, e))
		}
	}
	return out
}

// TestNestedASARInAZipMemberIsExpanded: resources/app.asar stored in a
// zip is listed in place (its members are ranges of the zip); deflated,
// it is expanded from the host's decoded copy (deflate-stream ranges),
// and the member itself is hashed from that copy. Every member's bytes
// decode from the zip file itself.
func TestNestedASARInAZipMemberIsExpanded(t *testing.T) {
	for _, store := range []bool{true, false} {
		z := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"readme.txt", strings.Repeat("hello ", 100)}},
			map[string]bool{"resources/app.asar": store})
		res, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{})
		if err != nil {
			t.Fatalf("store=%v: %v", store, err)
		}
		if len(res.Containers) != 2 || res.Containers[1].Format != inventory.FormatASAR || res.Containers[1].Depth != 1 || res.Containers[1].ParsedBytes != 0 {
			t.Fatalf("store=%v: containers %+v", store, res.Containers)
		}
		outer := res.Entries[res.Containers[1].Entry]
		wantComp := inventory.CompressionNone
		if !store {
			wantComp = inventory.CompressionDeflateStream
		}
		if outer.Path != "resources/app.asar" || outer.Data.Compression != wantComp || outer.CRC32 == nil {
			t.Fatalf("store=%v: the archive's entry is %+v %+v", store, outer, outer.Data)
		}
		if got := string(entryBytes(t, z, outer)); got != string(staticASAR()) || crc32.ChecksumIEEE([]byte(got)) != *outer.CRC32 {
			t.Errorf("store=%v: the archive entry's range does not hold the archive", store)
		}
		got := nestedFiles(t, z, res)
		if got["asar:main.js"] != "main1" || got["asar:lib/a.js"] != "abc" || len(got) != 2 {
			t.Errorf("store=%v: nested members %q", store, got)
		}
		for _, e := range res.Entries {
			if e.Container == 1 && e.Data != nil && e.Data.Compression != wantComp {
				t.Errorf("store=%v: %s has compression %q", store, e.Path, e.Data.Compression)
			}
		}
	}
}

// TestZipInAZipIsExpandedToTheDepthLimit: zips stored in zips, four
// levels deep, the innermost holding a deflated app.asar: every level is
// listed with ranges of the outer file up to max_depth; one level past
// it is listed, not expanded, with no error.
func TestZipInAZipIsExpandedToTheDepthLimit(t *testing.T) {
	inner := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"lvl", "0"}}, nil)
	for i := 1; i <= 3; i++ {
		inner = zipOf(t, [][2]string{{"pad.txt", strings.Repeat("x", i*37)}, {"inner.zip", string(inner)}}, map[string]bool{"inner.zip": true})
	}
	// Levels: outer zip 0, inner.zip 1, 2, 3 (holds app.asar), app.asar 4.
	res, _, err := stagedInventory(t, inner, inventory.FormatZip, inventory.Limits{MaxDepth: 4})
	if err != nil {
		t.Fatal(err)
	}
	var formats []string
	for _, c := range res.Containers {
		formats = append(formats, c.Format)
	}
	if strings.Join(formats, ",") != "zip,zip,zip,zip,asar" || res.Containers[4].Depth != 4 {
		t.Fatalf("containers %v", formats)
	}
	got := nestedFiles(t, inner, res)
	if got["asar:main.js"] != "main1" || got["asar:lib/a.js"] != "abc" || got["zip:lvl"] != "0" {
		t.Errorf("nested members %q", got)
	}
	res, _, err = stagedInventory(t, inner, inventory.FormatZip, inventory.Limits{MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Containers) != 4 || res.Entries[res.Containers[3].Entry].Nested != 3 {
		t.Fatalf("max_depth 3: %d containers", len(res.Containers))
	}
	for _, e := range res.Entries {
		if e.Path == "resources/app.asar" && e.Nested != -1 {
			t.Errorf("the archive past max_depth was expanded: %+v", e)
		}
	}
}

// TestNestedArchivesInAZipAreHostile: a traversal in an ASAR stored or
// deflated in a zip, or in a zip stored in a zip, is refused naming the
// nested container; a deflated app.asar that inflates past what it
// declares, or past the compression budget, is refused typed.
func TestNestedArchivesInAZipAreHostile(t *testing.T) {
	evil := rawASAR(`{"files":{"..":{"files":{"evil.js":{"size":1,"offset":"0"}}}}}`, []byte("x"))
	for _, store := range []bool{true, false} {
		z := zipOf(t, [][2]string{{"resources/app.asar", string(evil)}}, map[string]bool{"resources/app.asar": store})
		_, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{})
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Details["container"] != "resources/app.asar" {
			t.Errorf("store=%v: traversal: %v", store, err)
		}
	}
	inner := zipOf(t, [][2]string{{"../../evil", "x"}}, nil)
	z := zipOf(t, [][2]string{{"inner.zip", string(inner)}}, map[string]bool{"inner.zip": true})
	if _, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{}); err == nil || !strings.Contains(err.Error(), "inner.zip") {
		t.Errorf("traversal in a nested zip: %v", err)
	}

	// A member that declares 64 KiB but inflates to 4 MiB of zeros: the
	// stage stops at the budget (1 MiB slack at ratio 100).
	bomb := append(staticASAR(), make([]byte, 4<<20)...)
	lie := func(bomb []byte, declared int) []byte {
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestCompression)
		fw.Write(bomb)
		fw.Close()
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "resources/app.asar", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(bomb),
			CompressedSize64: uint64(comp.Len()), UncompressedSize64: uint64(declared)})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(comp.Bytes())
		zw.Close()
		return buf.Bytes()
	}
	_, st, err := stagedInventory(t, lie(bomb, 64<<10), inventory.FormatZip, inventory.Limits{MaxCompressionRatio: 100})
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeResourceConstraint || ae.Details["limit"] != "max_compression_ratio" {
		t.Errorf("bomb: %v", err)
	}
	if p, ok := st.Decoded(inventory.Range{File: "x", Compression: inventory.CompressionDeflateStream}); ok {
		t.Errorf("a cut stream was served as whole: %s", p)
	}
	// Within the budget, but more than it declares.
	_, _, err = stagedInventory(t, lie(append(staticASAR(), make([]byte, 200<<10)...), 64<<10), inventory.FormatZip, inventory.Limits{})
	if !errors.As(err, &ae) || ae.Code != abi.CodeArtifactOperationFailed || !strings.Contains(ae.Message, "inflates to") {
		t.Errorf("a member inflating past its declared size: %v", err)
	}
}

// TestNestedASARInASevenZipFolderIsExpanded: app-64.7z as electron-builder
// writes it (solid LZMA2 with BCJ2 at -mx=9, and non-solid LZMA) holding
// resources/app.asar: the archive is expanded from the host's decoded copy
// of its folder, and every member decodes from the archive itself.
func TestNestedASARInASevenZipFolderIsExpanded(t *testing.T) {
	for _, args := range [][]string{{"-mx=9"}, {"-m0=LZMA", "-ms=off"}} {
		dir := t.TempDir()
		sevenZipTree(t, dir)
		if err := os.WriteFile(filepath.Join(dir, "resources", "app.asar"), staticASAR(), 0o644); err != nil {
			t.Fatal(err)
		}
		b := build7z(t, dir, filepath.Join(t.TempDir(), "app-64.7z"), args...)
		res, _, err := stagedInventory(t, b, inventory.FormatSevenZip, inventory.Limits{})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if len(res.Containers) != 2 || res.Containers[1].Format != inventory.FormatASAR {
			t.Fatalf("%v: containers %+v", args, res.Containers)
		}
		got := nestedFiles(t, b, res)
		if got["asar:main.js"] != "main1" || got["asar:lib/a.js"] != "abc" {
			t.Errorf("%v: nested members %q", args, got)
		}
		// Without a stage (native callers) the archive is listed only.
		res, err = Inventory(fstest.MapFS{"x": {Data: b, Mode: 0o644}}, "x", inventory.FormatSevenZip, inventory.Limits{}, nil)
		if err != nil || len(res.Containers) != 1 {
			t.Errorf("%v: without a stage: %v, %d containers", args, err, len(res.Containers))
		}
	}
}
