package container

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// stagedInventory inventories pkg (written to a temporary directory) the
// way the host does: streams decoded once into a stage the module reads.
func stagedInventory(t testing.TB, pkg []byte, format string, lim inventory.Limits) (*inventory.Result, *stream.Stage, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), pkg, 0o644); err != nil {
		t.Fatal(err)
	}
	stageDir := t.TempDir()
	st := &stream.Stage{Dir: stageDir, Limits: lim, OpenInput: func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }}
	res, err := InventoryStreams(fstest.MapFS{"x": {Data: pkg, Mode: 0o644}}, st, "x", format, lim, nil)
	if err == nil {
		// As the host does first: blocks streams get their blocks back.
		if rerr := res.ResolveSources(); rerr != nil {
			t.Fatalf("the host would refuse the module's answer: %v", rerr)
		}
	}
	return res, st, err
}

// staticASAR is an archive of main.js and lib/a.js.
func staticASAR() []byte {
	return rawASAR(`{"files":{"main.js":{"size":5,"offset":"0"},"lib":{"files":{"a.js":{"size":3,"offset":"5"}}}}}`, []byte("main1abc"))
}

func TestNestedASARInAStreamIsExpanded(t *testing.T) {
	for _, comp := range []struct{ ext, compression string }{{".gz", inventory.CompressionGzipStream}, {".xz", inventory.CompressionXzStream}, {".zst", inventory.CompressionZstdStream}} {
		t.Run(comp.ext, func(t *testing.T) {
			asar := staticASAR()
			deb := makeDeb(t, comp.ext, comp.compression, []member{{name: "./opt/x/resources/app.asar", body: string(asar), mode: 0o644},
				{name: "./opt/x/readme", body: "hi", mode: 0o644}})
			res, st, err := stagedInventory(t, deb, inventory.FormatDeb, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Containers) != 4 || res.Containers[3].Format != inventory.FormatASAR || res.Containers[3].Depth != 2 {
				t.Fatalf("containers %+v", res.Containers)
			}
			outer := res.Entries[res.Containers[3].Entry]
			if outer.Path != "opt/x/resources/app.asar" || outer.Nested != 3 {
				t.Fatalf("the archive's entry is %+v", outer)
			}
			if res.Containers[3].ParsedBytes != 0 {
				t.Errorf("a nested archive names no prefix of the outer file to re-check: %+v", res.Containers[3])
			}
			want := map[string]string{"main.js": "main1", "lib/a.js": "abc"}
			for _, e := range res.Entries {
				if e.Container != 3 || e.Kind != inventory.KindFile {
					continue
				}
				if e.Data.Compression != comp.compression || e.Data.StreamOffset != outer.Data.StreamOffset || e.Data.StreamLength != outer.Data.StreamLength {
					t.Errorf("%s: range %+v is not in the outer stream %+v", e.Path, e.Data, outer.Data)
				}
				// The range addresses the decoded stream: read it from the
				// stage, as the host hashes it.
				p, ok := st.Decoded(*e.Data)
				if !ok {
					t.Fatalf("no staged copy for %+v", e.Data)
				}
				b, _ := os.ReadFile(p)
				if got := string(b[e.Data.Offset:e.Data.End()]); got != want[e.Path] {
					t.Errorf("%s: bytes %q, want %q", e.Path, got, want[e.Path])
				}
				delete(want, e.Path)
			}
			if len(want) != 0 {
				t.Errorf("members not listed: %v", want)
			}
		})
	}
}

func TestNestedASARHostileCases(t *testing.T) {
	code := func(err error) string {
		var ae *abi.Error
		if !errors.As(err, &ae) {
			t.Fatalf("untyped error %v", err)
		}
		return string(ae.Code)
	}
	debWith := func(asar []byte) []byte {
		return makeDeb(t, ".zst", inventory.CompressionZstdStream, []member{{name: "./opt/x/resources/app.asar", body: string(asar), mode: 0o644}})
	}

	t.Run("traversal", func(t *testing.T) {
		evil := rawASAR(`{"files":{"..":{"files":{"..":{"files":{"etc":{"files":{"passwd":{"size":1,"offset":"0"}}}}}}}}}`, []byte("x"))
		_, _, err := stagedInventory(t, debWith(evil), inventory.FormatDeb, inventory.Limits{})
		if err == nil || !strings.Contains(err.Error(), `nested container "opt/x/resources/app.asar"`) {
			t.Fatalf("want a refusal naming the nested archive, got %v", err)
		}
		if c := code(err); c != string(abi.CodeInvalidRequest) && c != string(abi.CodeArtifactOperationFailed) {
			t.Errorf("code %s", c)
		}
	})
	t.Run("member past the archive", func(t *testing.T) {
		// The member claims bytes beyond the archive, which lie in the
		// next tar member of the stream: refused, not read.
		evil := rawASAR(`{"files":{"a":{"size":4096,"offset":"0"}}}`, []byte("x"))
		_, _, err := stagedInventory(t, debWith(evil), inventory.FormatDeb, inventory.Limits{})
		if err == nil || code(err) != string(abi.CodeArtifactOperationFailed) {
			t.Fatalf("want artifact_operation_failed, got %v", err)
		}
	})
	t.Run("depth limit", func(t *testing.T) {
		// deb (0) → data.tar (1) → app.asar (2): with max_depth 1 the
		// archive is listed and left unexpanded, not an error.
		deb := makeDeb(t, ".zst", inventory.CompressionZstdStream, []member{{name: "./app.asar", body: string(staticASAR()), mode: 0o644}})
		res, _, err := stagedInventory(t, deb, inventory.FormatDeb, inventory.Limits{MaxDepth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Containers) != 3 {
			t.Fatalf("%d containers, want 3 (the archive unexpanded)", len(res.Containers))
		}
		for _, e := range res.Entries {
			if e.Path == "app.asar" && e.Nested != -1 {
				t.Fatalf("expanded past max_depth: %+v", e)
			}
		}
	})
	t.Run("entries limit spans the nesting", func(t *testing.T) {
		_, _, err := stagedInventory(t, debWith(staticASAR()), inventory.FormatDeb, inventory.Limits{MaxEntries: 7})
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Code != abi.CodeResourceConstraint || ae.Details["limit"] != "max_entries" {
			t.Fatalf("want max_entries, got %v", err)
		}
	})
	t.Run("bomb", func(t *testing.T) {
		// 64 MiB of zeros as the archive: the stage stops at the ratio
		// budget and the module names the limit.
		big := append(staticASAR(), make([]byte, 64<<20)...)
		_, st, err := stagedInventory(t, debWith(big), inventory.FormatDeb, inventory.Limits{MaxCompressionRatio: 100})
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Code != abi.CodeResourceConstraint || ae.Details["limit"] != "max_compression_ratio" {
			t.Fatalf("want max_compression_ratio, got %v", err)
		}
		if st.Err() != nil {
			t.Errorf("a stream cut by its budget is not a decoding error: %v", st.Err())
		}
	})
	t.Run("total bytes bound the stage", func(t *testing.T) {
		big := append(staticASAR(), make([]byte, 8<<20)...)
		// The stage stops at the total-bytes bound; the host turns its
		// ErrTotalBudget into resource_constraint max_total_bytes.
		_, st, err := stagedInventory(t, debWith(big), inventory.FormatDeb, inventory.Limits{MaxTotalBytes: 1 << 20, MaxEntries: 16, MaxCompressionRatio: 100_000})
		var ae *abi.Error
		if !errors.As(err, &ae) || !errors.Is(st.Err(), stream.ErrTotalBudget) {
			t.Fatalf("want a typed refusal and the stage's total budget, got %v / %v", err, st.Err())
		}
	})
	t.Run("corrupt stream", func(t *testing.T) {
		deb := debWith(staticASAR())
		deb[len(deb)-6] ^= 0xff // inside the zstd frame's last block / checksum
		_, st, err := stagedInventory(t, deb, inventory.FormatDeb, inventory.Limits{})
		if err == nil || code(err) != string(abi.CodeArtifactOperationFailed) || st.Err() == nil {
			t.Fatalf("want artifact_operation_failed and a decoder error, got %v / %v", err, st.Err())
		}
	})
}

func TestSliceBlocks(t *testing.T) {
	blocks := []inventory.Block{
		{Offset: 100, Length: 50, Size: 10, Codec: inventory.CodecZlib},
		{Offset: 0, Length: 0, Size: 10},                                                  // sparse
		{Offset: 200, Length: 7, Size: 5, Skip: 3, Whole: 20, Codec: inventory.CodecZlib}, // fragment tail
	}
	got := sliceBlocks(blocks, 8, 15)
	want := []inventory.Block{
		{Offset: 100, Length: 50, Size: 2, Skip: 8, Whole: 10, Codec: inventory.CodecZlib},
		{Offset: 0, Length: 0, Size: 10},
		{Offset: 200, Length: 7, Size: 3, Skip: 3, Whole: 20, Codec: inventory.CodecZlib},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := stream.CheckBlocks(got, 1000, 15); err != nil {
		t.Errorf("the host refuses the slice: %v", err)
	}
	if len(sliceBlocks(blocks, 25, 0)) != 0 {
		t.Error("an empty range takes no block")
	}
}

// FuzzInventoryStaged runs the host's way of reading packages — streams
// decoded into a stage, nested archives expanded from it — over arbitrary
// bytes: typed failures only, every range inside its file or its stream.
func FuzzInventoryStaged(f *testing.F) {
	f.Add(makeDeb(f, ".gz", inventory.CompressionGzipStream, []member{{name: "./app.asar", body: string(staticASAR()), mode: 0o644}}))
	f.Add(makeTar(f, true, member{name: "r/app.asar", body: string(staticASAR()), mode: 0o644}))
	// Zip members: a deflated app.asar (staged deflate-stream) and a zip
	// stored in a zip holding a stored one (ranges moved in place).
	f.Add(zipOf(f, [][2]string{{"resources/app.asar", string(staticASAR())}}, nil))
	inner := zipOf(f, [][2]string{{"app.asar", string(staticASAR())}}, map[string]bool{"app.asar": true})
	f.Add(zipOf(f, [][2]string{{"inner.zip", string(inner)}}, map[string]bool{"inner.zip": true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := inventory.Limits{MaxEntries: 200, MaxTotalBytes: 1 << 20, MaxDepth: 8, MaxCompressionRatio: 50}
		res, st, err := stagedInventory(t, data, "", lim)
		if err != nil {
			var ae *abi.Error
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, e := range res.Entries {
			if e.Data == nil {
				continue
			}
			if e.Data.Compression == inventory.CompressionSevenZipFolder && e.Nested < 0 {
				// A 7-Zip folder is staged only to expand an ASAR in it;
				// otherwise the host decodes it while hashing.
				if err := stream.CheckFolder(e.Data.Folder, int64(len(data))); err != nil {
					t.Fatalf("%s: accepted a folder the host refuses: %v", e.Path, err)
				}
				continue
			}
			if e.Data.Source != nil {
				// Read from a decoded stream: that copy is staged, and the
				// range lies inside it.
				p, ok := st.Decoded(*e.Data.Source)
				if !ok {
					t.Fatalf("%s: no staged source stream for %+v", e.Path, e.Data)
				}
				if fi, _ := os.Stat(p); e.Data.Compression == inventory.CompressionNone && e.Data.End() > fi.Size() {
					t.Fatalf("%s: range %+v outside the %d-byte decoded source", e.Path, e.Data, fi.Size())
				}
				continue
			}
			if stream.IsStream(e.Data.Compression) {
				var size int64
				if p, ok := st.Decoded(*e.Data); ok {
					fi, _ := os.Stat(p)
					size = fi.Size()
				} else if d, ok := st.Sum(*e.Data); ok {
					// Read without a copy: the host hashes it from the
					// sum of exactly its range.
					size = e.Data.End()
					if d.Size != e.Data.Length {
						t.Fatalf("%s: range %+v summed as %d bytes", e.Path, e.Data, d.Size)
					}
				} else if e.Data.Length == 0 {
					continue
				} else {
					t.Fatalf("%s: no staged stream for %+v", e.Path, e.Data)
				}
				if e.Data.Offset < 0 || e.Data.Length < 0 || e.Data.End() > size {
					t.Fatalf("%s: range %+v outside the %d-byte decoded stream", e.Path, e.Data, size)
				}
				continue
			}
			if e.Data.Compression == inventory.CompressionBlocks {
				continue
			}
			if e.Data.Offset < 0 || e.Data.Length < 0 || e.Data.End() > int64(len(data)) {
				t.Fatalf("range %+v outside a %d-byte file", e.Data, len(data))
			}
		}
	})
}

// TestStageBoundsTheDiskOfAllStreams: two packages in a directory, each
// within its own stream budget, may not stage more together than one
// input could list.
func TestStageBoundsTheDiskOfAllStreams(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.deb", "b.deb"} {
		deb := makeDeb(t, ".zst", inventory.CompressionZstdStream, []member{{name: "./big", body: string(make([]byte, 3<<20)), mode: 0o644}})
		if err := os.WriteFile(filepath.Join(dir, n), deb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lim := inventory.Limits{MaxTotalBytes: 4 << 20, MaxEntries: 16, MaxCompressionRatio: 1_000_000}
	st := &stream.Stage{Dir: t.TempDir(), Limits: lim, OpenInput: func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }}
	_, err := InventoryStreams(os.DirFS(dir), st, ".", inventory.FormatDirectory, lim, nil)
	var ae *abi.Error
	if !errors.As(err, &ae) || !errors.Is(st.Err(), stream.ErrTotalBudget) {
		t.Fatalf("want a typed refusal and the stage's total budget, got %v / %v", err, st.Err())
	}
}
