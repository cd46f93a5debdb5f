package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/wasm/wasmtest"
)

// newArtifactApp runs the real artifact module in the real sandbox.
func newArtifactApp(t testing.TB) *App {
	t.Helper()
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(t, "artifact"), CacheDir: filepath.Join(os.TempDir(), "rea-artifact-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(context.Background()) })
	return a
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// pattern returns n deterministic, non-repeating-looking bytes.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	x := uint32(seed) + 1
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	return b
}

type fixture struct {
	dir, asar string
	big, js   []byte
	addon     []byte
}

// writeASAR packs a small app with a multi-block file, an unpacked native
// addon (with its companion) and a link.
func writeASAR(t *testing.T) fixture {
	t.Helper()
	f := fixture{dir: t.TempDir(), big: pattern(asarpack.BlockSize*2+100, 1), js: []byte("require('./lib')\n"), addon: pattern(300, 2)}
	f.asar = filepath.Join(f.dir, "app.asar")
	var buf bytes.Buffer
	err := asarpack.Write(&buf, []asarpack.File{
		asarpack.Bytes("main.js", f.js),
		asarpack.Bytes("assets/big.bin", f.big),
		{Path: "native/addon.node", Size: int64(len(f.addon)), Open: func() io.Reader { return bytes.NewReader(f.addon) }, Unpacked: true},
		{Path: "current.js", Link: "main.js"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.asar, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	comp := filepath.Join(f.dir, "app.asar.unpacked", "native")
	if err := os.MkdirAll(comp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(comp, "addon.node"), f.addon, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func occurrence(t *testing.T, inv *ArtifactInventory, p string) ArtifactOccurrence {
	t.Helper()
	for _, o := range inv.Occurrences.Items {
		if o.LogicalPath == p {
			return o
		}
	}
	t.Fatalf("no occurrence %q", p)
	return ArtifactOccurrence{}
}

func wantError(t *testing.T, err error, code string) *abi.Error {
	t.Helper()
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != code {
		t.Fatalf("err = %v, want %s", err, code)
	}
	return ae
}

func TestInspectArtifactVerifiesEveryFileAndBlock(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	out, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	inv := out.Inventory
	raw, _ := os.ReadFile(f.asar)
	if inv.RootArtifactID != "art_"+sha(raw) || out.Evidence.Subject.Digest.SHA256 != sha(raw) {
		t.Fatalf("root %s / subject %s, want digest %s", inv.RootArtifactID, out.Evidence.Subject.Digest.SHA256, sha(raw))
	}
	if !strings.HasPrefix(out.Evidence.EvidenceID, "ev_") || out.Evidence.Operation != "inspect_artifact" {
		t.Fatalf("evidence %s %s", out.Evidence.EvidenceID, out.Evidence.Operation)
	}
	big := occurrence(t, inv, "assets/big.bin")
	if big.HashStatus != "verified" || *big.ObservedSHA256 != sha(f.big) || *big.DeclaredSHA256 != sha(f.big) {
		t.Fatalf("big = %+v", big)
	}
	addon := occurrence(t, inv, "native/addon.node")
	if addon.HashStatus != "verified" || !addon.Unpacked || *addon.ObservedSHA256 != sha(f.addon) {
		t.Fatalf("addon = %+v", addon)
	}
	link := occurrence(t, inv, "current.js")
	if link.EntryKind != "link" || link.LinkTarget != "main.js" || link.ArtifactID != nil {
		t.Fatalf("link = %+v", link)
	}
	if inv.Coverage != "complete" || inv.Counts.Verified != 3 || inv.Counts.Files != 3 || inv.Counts.Links != 1 {
		t.Fatalf("counts = %+v coverage %s", inv.Counts, inv.Coverage)
	}
	kinds := map[string]string{}
	for _, n := range inv.Nodes.Items {
		kinds[n.SHA256] = n.Kind
	}
	if kinds[sha(f.js)] != "javascript" || kinds[sha(f.addon)] != "native-addon" || kinds[sha(raw)] != "container" {
		t.Fatalf("kinds = %v", kinds)
	}
	for _, e := range inv.Edges.Items {
		if e.Relation != "contains" || e.FromArtifactID != inv.RootArtifactID {
			t.Fatalf("edge = %+v", e)
		}
	}
	if inv.Counts.Edges != 3 || inv.Provenance.ModuleSHA256 == "" || inv.Provenance.FuelUsed == 0 {
		t.Fatalf("edges %d provenance %+v", inv.Counts.Edges, inv.Provenance)
	}
	// The same bytes give the same Evidence, wherever they are.
	moved := filepath.Join(t.TempDir(), "other.asar")
	os.WriteFile(moved, raw, 0o644)
	again, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: moved}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Evidence.EvidenceID == out.Evidence.EvidenceID {
		t.Fatal("a missing unpacked companion must change the observation")
	}
	if again.Inventory.Coverage != "partial" || occurrence(t, again.Inventory, "native/addon.node").HashStatus != "unavailable" {
		t.Fatalf("missing companion: coverage %s, %+v", again.Inventory.Coverage, occurrence(t, again.Inventory, "native/addon.node"))
	}
	json.Marshal(again.Evidence)
}

// tamper flips one byte of the file at off.
func tamper(t *testing.T, p string, off int64) {
	t.Helper()
	fh, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var b [1]byte
	fh.ReadAt(b[:], off)
	b[0] ^= 0xff
	if _, err := fh.WriteAt(b[:], off); err != nil {
		t.Fatal(err)
	}
}

// offsetOf finds where needle's bytes start in the archive.
func offsetOf(t *testing.T, p string, needle []byte) int64 {
	t.Helper()
	raw, _ := os.ReadFile(p)
	i := bytes.Index(raw, needle)
	if i < 0 {
		t.Fatal("needle not found")
	}
	return int64(i)
}

func TestInspectArtifactFailsClosedOnATamperedByte(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	// One byte in the second 4 MiB block of big.bin.
	tamper(t, f.asar, offsetOf(t, f.asar, f.big[:64])+asarpack.BlockSize+7)
	_, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}}, nil)
	ae := wantError(t, err, abi.CodeArtifactIntegrity)
	if ae.Details["logical_path"] != "assets/big.bin" || ae.Details["declared_sha256"] != sha(f.big) || ae.Details["first_mismatched_block"] != 1 {
		t.Fatalf("details = %v", ae.Details)
	}
	if obs, _ := ae.Details["observed_sha256"].(string); len(obs) != 64 || obs == sha(f.big) {
		t.Fatalf("observed = %v", ae.Details["observed_sha256"])
	}
	if !strings.Contains(ae.Message, "record-and-continue") {
		t.Fatalf("message does not say how to continue: %s", ae.Message)
	}
}

func TestInspectArtifactRecordsContradictionsAndKeepsSiblings(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	tamper(t, f.asar, offsetOf(t, f.asar, f.js)+2)
	req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar, IntegrityPolicy: IntegrityRecordAndContinue}}
	out, err := a.InspectArtifact(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	inv := out.Inventory
	if inv.Coverage != "partial" || len(inv.IntegrityContradictions) != 1 {
		t.Fatalf("coverage %s contradictions %+v", inv.Coverage, inv.IntegrityContradictions)
	}
	c := inv.IntegrityContradictions[0]
	main := occurrence(t, inv, "main.js")
	if c.LogicalPath != "main.js" || c.DeclaredSHA256 != sha(f.js) || c.ObservedSHA256 == sha(f.js) || c.OccurrenceID != main.OccurrenceID ||
		c.Trust != "observed-untrusted" || c.Provenance != "container-integrity-metadata-versus-observed-bytes" ||
		!strings.HasPrefix(c.ContradictionID, "ic_") || len(c.Limitations) == 0 || c.ParentArtifactID != inv.RootArtifactID {
		t.Fatalf("contradiction = %+v", c)
	}
	if main.HashStatus != "mismatched" || occurrence(t, inv, "assets/big.bin").HashStatus != "verified" {
		t.Fatal("siblings must stay verified and the tampered file mismatched")
	}
	req.MaxIntegrityMismatches = 101
	_, err = a.InspectArtifact(context.Background(), req, nil)
	wantError(t, err, abi.CodeInvalidRequest)
}

func TestInspectArtifactNamesRepackagingForUnpackedMismatches(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	// A signing tool appends to the native binary after packing.
	comp := filepath.Join(f.dir, "app.asar.unpacked", "native", "addon.node")
	os.WriteFile(comp, append(bytes.Clone(f.addon), "SIGNATURE"...), 0o755)
	_, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}}, nil)
	ae := wantError(t, err, abi.CodeArtifactIntegrity)
	if ae.Details["unpacked"] != true || !strings.Contains(ae.Message, "re-sign") || !strings.Contains(ae.Message, "record-and-continue") {
		t.Fatalf("error = %v %v", ae.Message, ae.Details)
	}
}

func TestInspectArtifactLimitsRecordedMismatches(t *testing.T) {
	a := newArtifactApp(t)
	dir := t.TempDir()
	var files []asarpack.File
	for _, n := range []string{"a", "b", "c"} {
		files = append(files, asarpack.Bytes(n+".txt", []byte("content of "+n)))
	}
	var buf bytes.Buffer
	asarpack.Write(&buf, files)
	raw := buf.Bytes()
	for _, n := range []string{"a", "b", "c"} { // tamper every file
		raw[bytes.Index(raw, []byte("content of "+n))] ^= 1
	}
	p := filepath.Join(dir, "x.asar")
	os.WriteFile(p, raw, 0o644)
	req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p, IntegrityPolicy: IntegrityRecordAndContinue, MaxIntegrityMismatches: 2}}
	_, err := a.InspectArtifact(context.Background(), req, nil)
	ae := wantError(t, err, abi.CodeResourceConstraint)
	if ae.Details["limit"] != "max_integrity_mismatches" {
		t.Fatalf("details = %v", ae.Details)
	}
	req.MaxIntegrityMismatches = 3
	out, err := a.InspectArtifact(context.Background(), req, nil)
	if err != nil || len(out.Inventory.IntegrityContradictions) != 3 {
		t.Fatalf("err %v", err)
	}
}

func TestInspectArtifactPagesTheGraph(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	req := InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}, Occurrences: PageRequest{Limit: 2, Offset: 1}}
	out, err := a.InspectArtifact(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	occ := out.Inventory.Occurrences
	if occ.Total != 6 || len(occ.Items) != 2 || occ.NextOffset == nil || *occ.NextOffset != 3 || out.Inventory.Counts.Occurrences != 6 {
		t.Fatalf("page = total %d items %d next %v", occ.Total, len(occ.Items), occ.NextOffset)
	}
	req.Occurrences.Offset = 4
	out, _ = a.InspectArtifact(context.Background(), req, nil)
	if out.Inventory.Occurrences.NextOffset != nil || len(out.Inventory.Occurrences.Items) != 2 {
		t.Fatalf("last page = %+v", out.Inventory.Occurrences)
	}
	req.Edges.Limit = MaxPageLimit + 1
	_, err = a.InspectArtifact(context.Background(), req, nil)
	ae := wantError(t, err, abi.CodeInvalidRequest)
	if ae.Details["field"] != "edges.limit" {
		t.Fatalf("details = %v", ae.Details)
	}
}

func TestInspectArtifactIdentityIgnoresSpellingOfTheRequest(t *testing.T) {
	a := newArtifactApp(t)
	f := writeASAR(t)
	link := filepath.Join(t.TempDir(), "via-link.asar")
	if err := os.Symlink(f.asar, link); err != nil {
		t.Fatal(err)
	}
	plain, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: f.asar}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	spelled, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{
		ArtifactRequest: ArtifactRequest{InputPath: link, Format: "auto", IntegrityPolicy: IntegrityFail, MaxIntegrityMismatches: 10},
		Occurrences:     PageRequest{Limit: DefaultPageLimit}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Evidence.EvidenceID != spelled.Evidence.EvidenceID {
		t.Fatalf("defaults spelled out changed the id: %s vs %s", plain.Evidence.EvidenceID, spelled.Evidence.EvidenceID)
	}
}
