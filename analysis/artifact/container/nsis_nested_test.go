package container

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// nsisNestedFixtures writes, for an installer to pack: app.zip (Go's
// archive/zip, deflated) holding resources/app.asar and a README, and
// app-64.7z (the real 7z) holding resources/app.asar.
func nsisNestedFixtures(t *testing.T) (dir string, asar []byte) {
	t.Helper()
	need7z(t)
	dir = t.TempDir()
	asar = staticASAR()
	// README is stored, so the zip compresses and makensis keeps it
	// compressed; app.asar is deflated in the zip.
	z := zipOf(t, [][2]string{{"resources/app.asar", string(asar)}, {"README", strings.Repeat("read me ", 100)}}, map[string]bool{"README": true})
	if err := os.WriteFile(filepath.Join(dir, "app.zip"), z, 0o644); err != nil {
		t.Fatal(err)
	}
	tree := t.TempDir()
	os.MkdirAll(filepath.Join(tree, "resources"), 0o755)
	os.WriteFile(filepath.Join(tree, "resources", "app.asar"), asar, 0o644)
	os.WriteFile(filepath.Join(tree, "LICENSE"), []byte("MIT\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "notes.txt"), bytes.Repeat([]byte("notes\n"), 500), 0o644)
	// -mx=0 stores, so the 7z compresses in the installer (a 7z that
	// does not is stored by makensis, and expanded in place).
	build7z(t, tree, filepath.Join(dir, "app-64.7z"), "-mx=0")
	return dir, asar
}

// TestNSISCompressedArchivesAreExpanded: a zip and a 7z packed by the
// real makensis with a compressor (non-solid zlib, solid LZMA, bzip2)
// are expanded from the staged copy of their stream, and so are the
// app.asar archives inside them; every nested member decodes, from the
// installer itself, to its bytes; nothing is partial. Without a stage
// they stay listed.
func TestNSISCompressedArchivesAreExpanded(t *testing.T) {
	dir, asar := nsisNestedFixtures(t)
	for _, c := range []string{"SetCompressor zlib", "SetCompressor /SOLID lzma", "SetCompressor bzip2"} {
		t.Run(c, func(t *testing.T) {
			b := makeNSIS(t, c, `SetOutPath "$INSTDIR"`, `File "`+dir+`/app.zip"`, `SetOutPath "$PLUGINSDIR"`, `File "`+dir+`/app-64.7z"`)
			res, _, err := stagedInventory(t, b, inventory.FormatNSIS, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var formats []string
			for _, ct := range res.Containers {
				formats = append(formats, ct.Format)
			}
			slices.Sort(formats) // makensis stores an item its compressor does not shrink (a 7z)
			if got := strings.Join(formats, " "); got != "7z asar asar nsis zip" {
				t.Fatalf("containers %s: %s", got, paths(res))
			}
			if len(res.Limitations) != 0 {
				t.Errorf("limitations %v", res.Limitations)
			}
			got := nestedFiles(t, b, res)
			if got["zip:resources/app.asar"] != string(asar) || got["7z:resources/app.asar"] != string(asar) ||
				got["7z:LICENSE"] != "MIT\n" || got["asar:main.js"] != "main1" || got["asar:lib/a.js"] != "abc" ||
				got["zip:README"] != strings.Repeat("read me ", 100) {
				t.Errorf("nested members %q", got)
			}
			for _, e := range res.Entries {
				if e.Container > 0 && e.Data != nil && e.Data.Source == nil {
					t.Errorf("%s is not read from its stream: %+v", e.Path, e.Data)
				}
			}
			checkAccepted(t, b, res)
			// Without a stage (native callers) they are listed only.
			res, err = Inventory(fstest.MapFS{"x": {Data: b, Mode: 0o644}}, "x", inventory.FormatNSIS, inventory.Limits{}, nil)
			if err != nil || len(res.Containers) != 1 {
				t.Fatalf("without a stage: %v", err)
			}
		})
	}
}

// TestNSISCompressedArchiveBombIsContained: a zip member of 8 MiB of
// zeros, in a zip compressed in an NSIS item, is refused by the
// compression-ratio limit as in a zip on its own; a zip whose NSIS
// stream is itself cut by the stream budget is refused too.
func TestNSISCompressedArchiveBombIsContained(t *testing.T) {
	dir := t.TempDir()
	z := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"zeros.bin", string(make([]byte, 8<<20))}}, nil)
	os.WriteFile(filepath.Join(dir, "bomb.zip"), z, 0o644)
	for _, c := range []string{"SetCompressor zlib", "SetCompressor /SOLID lzma"} {
		b := makeNSIS(t, c, `SetOutPath "$INSTDIR"`, `File "`+dir+`/bomb.zip"`)
		ae := wantCode(t, mustFail2(stagedInventory(t, b, inventory.FormatNSIS, inventory.Limits{MaxCompressionRatio: 100})), abi.CodeResourceConstraint)
		if ae.Details["limit"] != "max_compression_ratio" || !strings.Contains(ae.Message, "zeros.bin") {
			t.Errorf("%s: %s %v", c, ae.Message, ae.Details)
		}
		// DEFLATE's ratio is about 1030:1 for zeros: over the default
		// limit too; a limit above it lists the member.
		if _, _, err := stagedInventory(t, b, inventory.FormatNSIS, inventory.Limits{MaxCompressionRatio: 2000}); err != nil {
			t.Errorf("%s: within max_compression_ratio 2000: %v", c, err)
		}
	}
	// Traversal inside the nested zip is refused naming it.
	evil := zipOf(t, [][2]string{{"../../evil.js", "x"}}, nil)
	os.WriteFile(filepath.Join(dir, "evil.zip"), evil, 0o644)
	b := makeNSIS(t, "SetCompressor zlib", `SetOutPath "$INSTDIR"`, `File "`+dir+`/evil.zip"`)
	ae := wantCode(t, mustFail2(stagedInventory(t, b, inventory.FormatNSIS, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	if ae.Details["container"] != "evil.zip" {
		t.Errorf("traversal: %s %v", ae.Message, ae.Details)
	}
}

func mustFail2(_ *inventory.Result, _ any, err error) error { return err }
