package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/abi"
	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/container"
	"rea/analysis/artifact/inventory"
)

// blocksOf hashes b the way @electron/asar declares blocks.
func blocksOf(b []byte, size int) []string {
	var out []string
	for len(b) >= size {
		out = append(out, sha(b[:size]))
		b = b[size:]
	}
	return append(out, sha(b))
}

func TestStreamRangesHashesEachRangeAndFindsTheFirstBadBlock(t *testing.T) {
	data := pattern(10_000, 9)
	const bs = 1000
	bad := blocksOf(data[4000:9000], bs)
	bad[2] = sha([]byte("not this block"))
	for _, whole := range []bool{false, true} {
		good := &digestJob{entry: 0, offset: 100, length: 3500, blockSize: bs, declared: blocksOf(data[100:3600], bs)}
		tampered := &digestJob{entry: 1, offset: 4000, length: 5000, blockSize: bs, declared: bad}
		empty := &digestJob{entry: 2, offset: 4000, length: 0}
		small := &digestJob{entry: 3, offset: 9500, length: 10, blockSize: bs, declared: []string{sha(data[9500:9510])}}
		jobs := []*digestJob{good, tampered, small, empty}
		sortJobs(jobs)
		h := sha256.New()
		if !whole {
			h = nil
		}
		var r io.Reader = bytes.NewReader(data)
		if _, err := streamRanges(context.Background(), r, jobs, h); err != nil {
			t.Fatal(err)
		}
		if good.sha256 != sha(data[100:3600]) || good.badBlock != -1 {
			t.Errorf("whole=%v good = %s block %d", whole, good.sha256, good.badBlock)
		}
		if tampered.sha256 != sha(data[4000:9000]) || tampered.badBlock != 2 || tampered.badBlockObserved != sha(data[6000:7000]) {
			t.Errorf("whole=%v tampered = %s block %d", whole, tampered.sha256, tampered.badBlock)
		}
		if empty.sha256 != sha(nil) || !empty.done || small.sha256 != sha(data[9500:9510]) || small.badBlock != -1 {
			t.Errorf("whole=%v empty %s small %s/%d", whole, empty.sha256, small.sha256, small.badBlock)
		}
		if whole && hex.EncodeToString(h.Sum(nil)) != sha(data) {
			t.Error("the whole-stream hash differs")
		}
	}
	// A stream that ends inside a range is an error, not a short hash.
	late := &digestJob{offset: 9990, length: 20}
	if _, err := streamRanges(context.Background(), bytes.NewReader(data), []*digestJob{late}, nil); err == nil {
		t.Fatal("a range past the end of the stream must fail")
	}
}

func TestInspectArtifactKeepsEmptyFilesApartFromTheirNeighbours(t *testing.T) {
	a := newArtifactApp(t)
	files := map[string][]byte{"a": nil, "b": []byte("bee"), "c": nil, "d": []byte("dee"), "e": nil}
	var list []asarpack.File
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		list = append(list, asarpack.Bytes(n, files[n]))
	}
	var buf bytes.Buffer
	asarpack.Write(&buf, list)
	p := filepath.Join(t.TempDir(), "e.asar")
	os.WriteFile(p, buf.Bytes(), 0o644)
	out, err := a.InspectArtifact(context.Background(), InspectArtifactRequest{ArtifactRequest: ArtifactRequest{InputPath: p}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n, b := range files {
		if o := occurrence(t, out.Inventory, n); *o.ObservedSHA256 != sha(b) || o.HashStatus != "verified" {
			t.Errorf("%s = %s %s, want %s", n, *o.ObservedSHA256, o.HashStatus, sha(b))
		}
	}
}

// TestHashingRefusesAHeaderThatChangedAfterParsing parses an archive, then
// changes one byte of its header before the host hashes it: the host must
// notice rather than trust ranges from a header that is no longer there.
func TestHashingRefusesAHeaderThatChangedAfterParsing(t *testing.T) {
	f := writeASAR(t)
	res, err := container.Inventory(os.DirFS(f.dir), "app.asar", "", inventory.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tamper(t, f.asar, offsetOf(t, f.asar, []byte(`"main.js"`))+1)
	in, err := resolveInput(f.asar)
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(in.mountDir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	s := &artifactScan{input: in, res: res, obs: make([]entryObservation, len(res.Entries))}
	err = s.hashAll(context.Background(), root, nil)
	ae := wantError(t, err, abi.CodeArtifactIntegrity)
	if !strings.Contains(ae.Message, "changed between parsing") {
		t.Fatalf("message = %s", ae.Message)
	}
}
