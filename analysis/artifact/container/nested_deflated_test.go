package container

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/analysis/artifact/inventory"
)

// needDpkgDeb fails (never skips) when dpkg-deb is missing.
func needDpkgDeb(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Fatal("dpkg-deb builds this test's fixture: apt-get install -y dpkg (.ci/run installs it)")
	}
}

// dpkgDebWithASAR builds, with the real dpkg-deb (data.tar compressed as
// comp says), a .deb holding opt/Example/resources/app.asar.
func dpkgDebWithASAR(t testing.TB, comp string, asar []byte) []byte {
	return dpkgDeb(t, comp, map[string][]byte{"resources/app.asar": asar})
}

// dpkgDeb builds, with the real dpkg-deb, a .deb holding files (paths
// under opt/Example) and opt/Example/LICENSE.
func dpkgDeb(t testing.TB, comp string, files map[string][]byte) []byte {
	t.Helper()
	needDpkgDeb(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "pkg")
	res := filepath.Join(root, "opt", "Example", "resources")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(res, 0o755))
	must(os.MkdirAll(filepath.Join(root, "DEBIAN"), 0o755))
	must(os.WriteFile(filepath.Join(root, "DEBIAN", "control"), []byte("Package: example\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: rea <rea@example.com>\nDescription: fixture\n"), 0o644))
	for n, b := range files {
		p := filepath.Join(root, "opt", "Example", filepath.FromSlash(n))
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, b, 0o644))
	}
	must(os.WriteFile(filepath.Join(root, "opt", "Example", "LICENSE"), []byte("MIT\n"), 0o644))
	out := filepath.Join(dir, "example.deb")
	if b, err := exec.Command("dpkg-deb", "--root-owner-group", "-Z"+comp, "--build", root, out).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	must(err)
	return b
}

// formatsOf is the containers' formats in order, comma-separated.
func formatsOf(res *inventory.Result) string {
	var f []string
	for _, c := range res.Containers {
		f = append(f, c.Format)
	}
	return strings.Join(f, ",")
}

// TestArchivesDeflatedInAZipAreExpanded: a .deb built by dpkg-deb
// (data.tar as xz and as gzip) holding resources/app.asar, and a zip,
// each DEFLATE-compressed as a zip member, are expanded from the host's
// decoded copy of the member: every nested member is read from that copy
// (Range.Source) and decodes, from the zip itself, to its bytes; the
// member itself becomes a deflate-stream range of the copy; nothing is
// partial. Without a stage they stay listed.
func TestArchivesDeflatedInAZipAreExpanded(t *testing.T) {
	asar := staticASAR()
	for _, comp := range []string{"xz", "gzip"} {
		t.Run("deb-"+comp, func(t *testing.T) {
			deb := dpkgDebWithASAR(t, comp, asar)
			z := zipOf(t, [][2]string{{"README", strings.Repeat("read me ", 100)}, {"payload/example.deb", string(deb)}}, nil)
			res, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := formatsOf(res); got != "zip,deb,tar,tar,asar" {
				t.Fatalf("containers %s: %s", got, paths(res))
			}
			if len(res.Limitations) != 0 {
				t.Errorf("limitations %v", res.Limitations)
			}
			outer := res.Entries[res.Containers[1].Entry]
			if outer.Path != "payload/example.deb" || outer.Data.Compression != inventory.CompressionDeflateStream || outer.Data.Length != int64(len(deb)) {
				t.Fatalf("the .deb's entry: %+v %+v", outer, outer.Data)
			}
			if got := entryBytes(t, z, outer); !bytes.Equal(got, deb) || crc32.ChecksumIEEE(got) != *outer.CRC32 {
				t.Errorf("the .deb's range does not hold the .deb")
			}
			got := nestedFiles(t, z, res)
			if got["tar:opt/Example/resources/app.asar"] != string(asar) || got["tar:opt/Example/LICENSE"] != "MIT\n" ||
				got["asar:main.js"] != "main1" || got["asar:lib/a.js"] != "abc" {
				t.Errorf("nested members %q", got)
			}
			for _, e := range res.Entries {
				if e.Container > 0 && e.Data != nil && e.Data.Source == nil {
					t.Errorf("%s is not read from the member's decoded copy: %+v", e.Path, e.Data)
				}
			}
			checkAccepted(t, z, res)
			res, err = Inventory(fstest.MapFS{"x": {Data: z, Mode: 0o644}}, "x", inventory.FormatZip, inventory.Limits{}, nil)
			if err != nil || len(res.Containers) != 1 {
				t.Fatalf("without a stage: %v", err)
			}
		})
	}
	t.Run("zip-in-zip", func(t *testing.T) {
		inner := zipOf(t, [][2]string{{"resources/app.asar", string(asar)}, {"index.js", strings.Repeat("x;", 300)}}, nil)
		z := zipOf(t, [][2]string{{"app.zip", string(inner)}}, nil)
		res, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := formatsOf(res); got != "zip,zip,asar" {
			t.Fatalf("containers %s", got)
		}
		got := nestedFiles(t, z, res)
		if got["zip:index.js"] != strings.Repeat("x;", 300) || got["zip:resources/app.asar"] != string(asar) || got["asar:main.js"] != "main1" {
			t.Errorf("nested members %q", got)
		}
		checkAccepted(t, z, res)
	})
}

// TestDeflatedZipsNestToTheDepthLimit: zips deflated in zips, five
// levels, are expanded through a chain of decoded copies up to max_depth;
// past it the archive is listed (so the host says the inventory is
// partial), not expanded and not an error.
func TestDeflatedZipsNestToTheDepthLimit(t *testing.T) {
	z := zipOf(t, [][2]string{{"lvl", "0"}}, nil)
	for i := 1; i <= 4; i++ {
		z = zipOf(t, [][2]string{{"pad.txt", strings.Repeat("y", i*41)}, {"inner.zip", string(z)}}, nil)
	}
	// Levels: the input 0, inner.zip 1..4 (the last holds lvl).
	res, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{MaxDepth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := formatsOf(res); got != "zip,zip,zip,zip,zip" {
		t.Fatalf("containers %s", got)
	}
	got := nestedFiles(t, z, res)
	if got["zip:lvl"] != "0" {
		t.Errorf("nested members %q", got)
	}
	for _, e := range res.Entries {
		if e.Path == "lvl" && e.Data.Sources() != 4 {
			t.Errorf("lvl is read through %d decoded copies, want 4", e.Data.Sources())
		}
	}
	checkAccepted(t, z, res)
	res, _, err = stagedInventory(t, z, inventory.FormatZip, inventory.Limits{MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Containers) != 4 {
		t.Fatalf("max_depth 3: %d containers", len(res.Containers))
	}
	last := -1
	for i, e := range res.Entries {
		if e.Path == "inner.zip" && e.Container == 3 {
			last = i
		}
	}
	if last < 0 || res.Entries[last].Nested != -1 {
		t.Fatalf("the archive past max_depth: %v", paths(res))
	}
}

// TestArchivesInASevenZipFolderAreExpanded: a zip in a non-solid 7z, and
// two zips and a .deb among other files in one solid folder, are listed
// from the host's decoded copy of the folder, their members read from it.
func TestArchivesInASevenZipFolderAreExpanded(t *testing.T) {
	asar := staticASAR()
	a := zipOf(t, [][2]string{{"resources/app.asar", string(asar)}, {"a.txt", "aaa"}}, nil)
	b := zipOf(t, [][2]string{{"b.txt", strings.Repeat("b", 1000)}}, map[string]bool{"b.txt": true})
	for _, c := range []struct {
		name    string
		args    []string
		files   map[string][]byte
		formats []string
	}{
		{"non-solid", []string{"-ms=off", "-m0=LZMA"}, map[string][]byte{"app.zip": a}, []string{"7z", "zip", "asar"}},
		{"solid", []string{"-mx=9", "-ms=on"}, map[string][]byte{"app.zip": a, "sub/b.zip": b, "example.deb": dpkgDebWithASAR(t, "xz", asar), "notes.txt": bytes.Repeat([]byte("n\n"), 999)},
			[]string{"7z", "asar", "asar", "deb", "tar", "tar", "zip", "zip"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range c.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, n)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, n), body, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sz := build7z(t, dir, filepath.Join(t.TempDir(), "x.7z"), c.args...)
			res, _, err := stagedInventory(t, sz, inventory.FormatSevenZip, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ct := range res.Containers {
				got = append(got, ct.Format)
			}
			// A solid folder's order is 7-Zip's: compare as sets.
			slices.Sort(got)
			slices.Sort(c.formats)
			if strings.Join(got, ",") != strings.Join(c.formats, ",") {
				t.Fatalf("containers %v: %s", got, paths(res))
			}
			files := nestedFiles(t, sz, res)
			if files["zip:a.txt"] != "aaa" || files["asar:main.js"] != "main1" {
				t.Errorf("nested members %q", files)
			}
			if c.name == "solid" && (files["zip:b.txt"] != strings.Repeat("b", 1000) || files["tar:opt/Example/LICENSE"] != "MIT\n") {
				t.Errorf("nested members %q", files)
			}
			for _, e := range res.Entries {
				if e.Container > 0 && e.Data != nil && e.Data.Source == nil && res.Containers[e.Container].Format != inventory.FormatASAR {
					t.Errorf("%s is not read from the folder's decoded copy: %+v", e.Path, e.Data)
				}
			}
			checkAccepted(t, sz, res)
		})
	}
}

// TestArchivesCompressedInAZipAreHostile: the limits hold across the
// nesting — a bomb in a zip deflated in a zip (or in a 7z folder) is
// refused by the ratio limit naming its member, and so is a deflated
// member whose own inflation is the bomb; a traversal in the nested zip
// is refused naming it; a nested zip cut short, or a member whose
// DEFLATE stream is cut short, is a typed error, never a quiet result.
func TestArchivesCompressedInAZipAreHostile(t *testing.T) {
	zeros := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"zeros.bin", string(make([]byte, 8<<20))}}, nil)
	z := zipOf(t, [][2]string{{"bomb.zip", string(zeros)}}, nil)
	ae := wantCode(t, mustFail2(stagedInventory(t, z, inventory.FormatZip, inventory.Limits{MaxCompressionRatio: 100})), abi.CodeResourceConstraint)
	if ae.Details["limit"] != "max_compression_ratio" || !strings.Contains(ae.Message, "zeros.bin") {
		t.Errorf("bomb in a deflated zip: %s %v", ae.Message, ae.Details)
	}
	if _, _, err := stagedInventory(t, z, inventory.FormatZip, inventory.Limits{MaxCompressionRatio: 2000}); err != nil {
		t.Errorf("within max_compression_ratio 2000: %v", err)
	}
	// The inner zip stores its zeros: the outer member is the bomb.
	stored := zipOf(t, [][2]string{{"zeros.bin", string(make([]byte, 8<<20))}}, map[string]bool{"zeros.bin": true})
	z = zipOf(t, [][2]string{{"bomb.zip", string(stored)}}, nil)
	ae = wantCode(t, mustFail2(stagedInventory(t, z, inventory.FormatZip, inventory.Limits{MaxCompressionRatio: 100})), abi.CodeResourceConstraint)
	if ae.Details["limit"] != "max_compression_ratio" || !strings.Contains(ae.Message, "bomb.zip") {
		t.Errorf("a deflated zip that is a bomb itself: %s %v", ae.Message, ae.Details)
	}
	// The same bomb in a 7z folder.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bomb.zip"), zeros, 0o644)
	sz := build7z(t, dir, filepath.Join(t.TempDir(), "x.7z"), "-mx=1")
	ae = wantCode(t, mustFail2(stagedInventory(t, sz, inventory.FormatSevenZip, inventory.Limits{MaxCompressionRatio: 100})), abi.CodeResourceConstraint)
	if ae.Details["limit"] != "max_compression_ratio" || !strings.Contains(ae.Message, "zeros.bin") {
		t.Errorf("bomb in a zip in a 7z folder: %s %v", ae.Message, ae.Details)
	}

	// Traversal inside the nested zip, deflated or in a 7z folder.
	evil := zipOf(t, [][2]string{{"ok.txt", "fine"}, {"../../evil.js", "x"}}, nil)
	z = zipOf(t, [][2]string{{"evil.zip", string(evil)}}, nil)
	ae = wantCode(t, mustFail2(stagedInventory(t, z, inventory.FormatZip, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	if ae.Details["container"] != "evil.zip" {
		t.Errorf("traversal in a deflated zip: %s %v", ae.Message, ae.Details)
	}
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "evil.zip"), evil, 0o644)
	sz = build7z(t, dir, filepath.Join(t.TempDir(), "x.7z"))
	ae = wantCode(t, mustFail2(stagedInventory(t, sz, inventory.FormatSevenZip, inventory.Limits{})), abi.CodeArtifactOperationFailed)
	if ae.Details["container"] != "evil.zip" {
		t.Errorf("traversal in a zip in a 7z folder: %s %v", ae.Message, ae.Details)
	}

	// A nested zip cut short (its central directory gone): typed, naming it.
	inner := zipOf(t, [][2]string{{"resources/app.asar", string(staticASAR())}, {"a.txt", strings.Repeat("a", 500)}}, nil)
	z = zipOf(t, [][2]string{{"cut.zip", string(inner[:len(inner)*2/3])}}, nil)
	err := mustFail2(stagedInventory(t, z, inventory.FormatZip, inventory.Limits{}))
	var e *abi.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "cut.zip") {
		t.Errorf("a truncated nested zip: %v", err)
	}
	// A member whose DEFLATE stream is cut short.
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestCompression)
	fw.Write(inner)
	fw.Close()
	cut := comp.Bytes()[:comp.Len()/2]
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "app.zip", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(inner),
		CompressedSize64: uint64(len(cut)), UncompressedSize64: uint64(len(inner))})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(cut)
	zw.Close()
	err = mustFail2(stagedInventory(t, buf.Bytes(), inventory.FormatZip, inventory.Limits{}))
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "app.zip") {
		t.Errorf("a nested zip whose DEFLATE stream is cut: %v", err)
	}
}

// TestArchivesInACompressedTarAreExpanded: a zip (deflated members, its
// app.asar too) and a 7z in a .deb's data.tar (xz, zstd), and a zip in a
// tar.gz, are listed from the host's decoded copy of the tar stream.
func TestArchivesInACompressedTarAreExpanded(t *testing.T) {
	asar := staticASAR()
	app := zipOf(t, [][2]string{{"resources/app.asar", string(asar)}, {"a.txt", "aaa"}}, nil)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte(strings.Repeat("b", 700)), 0o644)
	sz := build7z(t, dir, filepath.Join(t.TempDir(), "x.7z"))
	for _, comp := range []string{"xz", "zstd"} {
		t.Run("deb-"+comp, func(t *testing.T) {
			deb := dpkgDeb(t, comp, map[string][]byte{"app.zip": app, "tools/extra.7z": sz})
			res, _, err := stagedInventory(t, deb, inventory.FormatDeb, inventory.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := formatsOf(res); got != "deb,tar,tar,zip,asar,7z" && got != "deb,tar,tar,7z,zip,asar" {
				t.Fatalf("containers %s: %s", got, paths(res))
			}
			got := nestedFiles(t, deb, res)
			if got["zip:a.txt"] != "aaa" || got["asar:main.js"] != "main1" || got["7z:b.txt"] != strings.Repeat("b", 700) || got["zip:resources/app.asar"] != string(asar) {
				t.Errorf("nested members %q", got)
			}
			checkAccepted(t, deb, res)
		})
	}
	t.Run("tar.gz", func(t *testing.T) {
		tgz := makeTar(t, true, member{name: "dist/app.zip", body: string(app), mode: 0o644}, member{name: "dist/README", body: "r", mode: 0o644})
		res, _, err := stagedInventory(t, tgz, inventory.FormatTarGz, inventory.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := formatsOf(res); got != "tar.gz,zip,asar" {
			t.Fatalf("containers %s: %s", got, paths(res))
		}
		got := nestedFiles(t, tgz, res)
		if got["zip:a.txt"] != "aaa" || got["asar:main.js"] != "main1" {
			t.Errorf("nested members %q", got)
		}
		checkAccepted(t, tgz, res)
	})
}
