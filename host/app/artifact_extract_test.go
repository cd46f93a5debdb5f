package app

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
)

// listTree maps every path under dir to its kind and content.
func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			got[filepath.ToSlash(rel)] = "link"
		case info.IsDir():
			got[filepath.ToSlash(rel)] = "dir"
		default:
			b, _ := os.ReadFile(p)
			got[filepath.ToSlash(rel)] = sha(b)
		}
		return nil
	})
	return got
}

func TestExtractArtifactWritesVerifiedBytesIntoAFreshDirectory(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	out := filepath.Join(t.TempDir(), "out")
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, OutputDir: out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.OutputDir != out {
		t.Fatalf("wrote to %s, asked for %s", res.OutputDir, out)
	}
	want := map[string]string{
		"main.js": sha(f.js), "assets": "dir", "assets/big.bin": sha(f.big),
		"native": "dir", "native/addon.node": sha(f.addon),
	}
	got := listTree(t, out)
	if len(got) != len(want) {
		t.Fatalf("tree = %v, want %v", got, want)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s = %s, want %s", p, got[p], w)
		}
	}
	ex := res.Extraction
	if len(ex.Skipped) != 1 || ex.Skipped[0].LogicalPath != "current.js" || !strings.HasPrefix(ex.ExtractionID, "aex_") {
		t.Fatalf("skipped = %+v id %s", ex.Skipped, ex.ExtractionID)
	}
	// Never into an existing directory.
	_, err = a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, OutputDir: out}, nil)
	wantError(t, err, abi.CodeInvalidRequest)
	// Without --output, a fresh temporary directory.
	res, err = a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, Paths: []string{"assets"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(res.OutputDir)
	if got := listTree(t, res.OutputDir); len(got) != 2 || got["assets/big.bin"] != sha(f.big) {
		t.Fatalf("selected tree = %v", got)
	}
}

func TestExtractArtifactSelectsByOccurrence(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	insp, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := occurrence(t, insp.Inventory, "main.js").OccurrenceID
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar},
		OccurrenceIDs: []string{id}, OutputDir: filepath.Join(t.TempDir(), "o")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, res.OutputDir); len(got) != 1 || got["main.js"] != sha(f.js) {
		t.Fatalf("tree = %v", got)
	}
	_, err = a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar},
		OccurrenceIDs: []string{"occ_nope"}, OutputDir: filepath.Join(t.TempDir(), "o")}, nil)
	wantError(t, err, abi.CodeInvalidRequest)
}

func TestExtractArtifactFailsUnavailableForAMissingCompanion(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	os.RemoveAll(filepath.Join(f.dir, "app.asar.unpacked"))
	out := filepath.Join(t.TempDir(), "out")
	_, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, OutputDir: out}, nil)
	ae := wantError(t, err, abi.CodeUnavailable)
	if ae.Details["logical_path"] != "native/addon.node" {
		t.Fatalf("details = %v", ae.Details)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a failed extraction must not leave an output directory")
	}
	// The other entries still extract.
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, Paths: []string{"*.js"}, OutputDir: out}, nil)
	if err != nil || listTree(t, res.OutputDir)["main.js"] != sha(f.js) {
		t.Fatalf("err %v", err)
	}
}

func TestExtractArtifactWritesObservedBytesUnderRecordAndContinue(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	tamper(t, f.asar, offsetOf(t, f.asar, f.js))
	out := filepath.Join(t.TempDir(), "out")
	req := ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, Paths: []string{"main.js"}, OutputDir: out}
	_, err := a.ExtractArtifact(context.Background(), req, nil)
	wantError(t, err, abi.CodeArtifactIntegrity)
	req.IntegrityPolicy = IntegrityRecordAndContinue
	res, err := a.ExtractArtifact(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(filepath.Join(out, "main.js"))
	if bytes.Equal(written, f.js) || len(written) != len(f.js) {
		t.Fatal("record-and-continue writes the observed (tampered) bytes")
	}
	if len(res.Extraction.IntegrityContradictions) != 1 || res.Extraction.IntegrityContradictions[0].ObservedSHA256 != sha(written) {
		t.Fatalf("contradictions = %+v", res.Extraction.IntegrityContradictions)
	}
}

func TestExtractArtifactWritesNothingForHostileArchives(t *testing.T) {
	a := newArtifactApp(t)
	dir := t.TempDir()
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("../../evil.sh")
	w.Write([]byte("#!/bin/sh\nrm -rf ~\n"))
	zw.Close()
	slip := filepath.Join(dir, "slip.zip")
	os.WriteFile(slip, zbuf.Bytes(), 0o644)

	var abuf bytes.Buffer
	asarpack.Write(&abuf, []asarpack.File{asarpack.Bytes("ok.txt", []byte("ok")), {Path: "passwd", Link: "/etc/passwd"}})
	linky := filepath.Join(dir, "link.asar")
	os.WriteFile(linky, abuf.Bytes(), 0o644)

	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	_, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: slip}, OutputDir: out}, nil)
	wantError(t, err, abi.CodeArtifactOperationFailed)
	if got := listTree(t, parent); len(got) != 0 {
		t.Fatalf("zip slip wrote %v", got)
	}
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: linky}, OutputDir: out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, parent); len(got) != 2 || got["out/ok.txt"] != sha([]byte("ok")) {
		t.Fatalf("tree = %v", got)
	}
	if len(res.Extraction.Skipped) != 1 || !strings.Contains(res.Extraction.Skipped[0].Reason, "/etc/passwd") {
		t.Fatalf("skipped = %+v", res.Extraction.Skipped)
	}
}

func TestInspectArtifactExpandsArchivesInADirectory(t *testing.T) {
	a := newArtifactApp(t)
	dir := t.TempDir()
	inner := []byte("module.exports = 42\n")
	var abuf bytes.Buffer
	asarpack.Write(&abuf, []asarpack.File{asarpack.Bytes("index.js", inner)})
	os.MkdirAll(filepath.Join(dir, "resources"), 0o755)
	os.WriteFile(filepath.Join(dir, "resources", "app.asar"), abuf.Bytes(), 0o644)
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	zipped := bytes.Repeat([]byte("deflate me "), 500)
	w, _ := zw.Create("docs/readme.txt")
	w.Write(zipped)
	zw.Close()
	os.WriteFile(filepath.Join(dir, "resources", "docs.zip"), zbuf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x"}`), 0o644)

	out, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: dir}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	inv := out.Inventory
	if inv.Format != "directory" || inv.Counts.Containers != 3 || out.Evidence.Subject.Format != "directory" {
		t.Fatalf("format %s containers %d", inv.Format, inv.Counts.Containers)
	}
	asarOcc := occurrence(t, inv, "resources/app.asar")
	idx := occurrence(t, inv, "index.js")
	if idx.ParentArtifactID != *asarOcc.ArtifactID || *idx.ObservedSHA256 != sha(inner) || *asarOcc.ObservedSHA256 != sha(abuf.Bytes()) {
		t.Fatalf("nested asar: %+v in %+v", idx, asarOcc)
	}
	readme := occurrence(t, inv, "docs/readme.txt")
	if *readme.ObservedSHA256 != sha(zipped) || readme.HashStatus != "verified" {
		t.Fatalf("zip member = %+v", readme)
	}
	kinds := map[string]string{}
	for _, n := range inv.Nodes.Items {
		kinds[n.SHA256] = n.Kind + "/" + n.Format
	}
	if kinds[sha(abuf.Bytes())] != "container/asar" || kinds[sha([]byte(`{"name":"x"}`))] != "package-metadata/" {
		t.Fatalf("kinds = %v", kinds)
	}
	// The directory's identity is its content, not its location.
	moved := filepath.Join(t.TempDir(), "copy")
	os.CopyFS(moved, os.DirFS(dir))
	again, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: moved}}, nil)
	if err != nil || again.Evidence.EvidenceID != out.Evidence.EvidenceID {
		t.Fatalf("moved directory: %v, ids %s vs %s", err, again.Evidence.EvidenceID, out.Evidence.EvidenceID)
	}
	// Nested members extract under "<archive>!/".
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: dir},
		Paths: []string{"resources/*!"}, OutputDir: filepath.Join(t.TempDir(), "x")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tree := listTree(t, res.OutputDir)
	if tree["resources/app.asar!/index.js"] != sha(inner) || tree["resources/docs.zip!/docs/readme.txt"] != sha(zipped) || tree["resources/app.asar"] != "" {
		t.Fatalf("tree = %v", tree)
	}
}

func TestInspectArtifactRecordsDirectoryLinksWithoutFollowing(t *testing.T) {
	a := newArtifactApp(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	out, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: dir}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pw := occurrence(t, out.Inventory, "passwd")
	if pw.EntryKind != "link" || pw.LinkTarget != "/etc/passwd" || !pw.LinkAbsolute || pw.ArtifactID != nil {
		t.Fatalf("passwd = %+v", pw)
	}
	if al := occurrence(t, out.Inventory, "alias"); al.EntryKind != "link" || al.LinkTarget != "a.txt" || al.LinkAbsolute || al.LinkEscapes {
		t.Fatalf("alias = %+v", al)
	}
}

func TestInspectArtifactHashesTarGzMembers(t *testing.T) {
	a := newArtifactApp(t)
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	members := map[string][]byte{"app/one.js": pattern(70000, 3), "app/two.bin": pattern(5, 4)}
	for _, name := range []string{"app/one.js", "app/two.bin"} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(members[name])), Typeflag: tar.TypeReg})
		tw.Write(members[name])
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(dir, "app.tgz")
	os.WriteFile(p, buf.Bytes(), 0o644)
	out, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range members {
		if o := occurrence(t, out.Inventory, name); *o.ObservedSHA256 != sha(b) {
			t.Fatalf("%s = %+v", name, o)
		}
	}
	res, err := a.ExtractArtifact(context.Background(), ExtractArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p}, OutputDir: filepath.Join(dir, "x")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tree := listTree(t, res.OutputDir); tree["app/one.js"] != sha(members["app/one.js"]) || tree["app/two.bin"] != sha(members["app/two.bin"]) {
		t.Fatalf("tree = %v", tree)
	}
}
