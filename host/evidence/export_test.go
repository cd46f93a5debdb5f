package evidence

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"rea/abi"
)

// cancelAfter is a context that reports cancellation from its n-th Err call
// on, so a test can cancel in the middle of a stream deterministically.
type cancelAfter struct {
	context.Context
	n     int64
	calls atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) >= c.n {
		return context.Canceled
	}
	return nil
}

func bigBundle(t *testing.T) Bundle {
	t.Helper()
	var rs []Record
	for i := 0; i < 8; i++ {
		d := testDraft()
		d.NormalizedResult = map[string]any{"index": i, "blob": strings.Repeat("x", 128<<10)}
		rs = append(rs, mustNew(t, d))
	}
	b, err := NewBundle(rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestExportPublishesTheCanonicalBundle(t *testing.T) {
	b := bigBundle(t)
	dir := t.TempDir()
	dest := filepath.Join(dir, "evidence.json")
	res, err := Export(context.Background(), b, dest, false)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(b)
	if !bytes.Equal(data, want) {
		t.Error("exported bytes differ from the canonical bundle")
	}
	sum := sha256.Sum256(data)
	if res.SHA256 != hex.EncodeToString(sum[:]) || res.Bytes != int64(len(data)) || res.Records != 8 {
		t.Errorf("result %+v", res)
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("staging files left behind: %v", names)
	}
	got, err := ReadBundleFile(context.Background(), dest, Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Records) != 8 {
		t.Errorf("read back %d records", len(got.Records))
	}
}

func TestExportRefusesToOverwriteWithoutConsent(t *testing.T) {
	b := bigBundle(t)
	dir := t.TempDir()
	dest := filepath.Join(dir, "evidence.json")
	os.WriteFile(dest, []byte("keep me"), 0o644)
	_, err := Export(context.Background(), b, dest, false)
	if got := issuePath(t, err); got != "overwrite" {
		t.Fatalf("field %q", got)
	}
	if !strings.Contains(asABI(t, err).Message, "overwrite: true") {
		t.Errorf("message does not say how to proceed: %s", asABI(t, err).Message)
	}
	if data, _ := os.ReadFile(dest); string(data) != "keep me" {
		t.Error("destination changed")
	}
	if _, err := Export(context.Background(), b, dest, true); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(dest); string(data) == "keep me" {
		t.Error("overwrite: true did not replace the file")
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("staging files left behind: %v", names)
	}
}

func TestExportCancellationRemovesTheStagingFile(t *testing.T) {
	b := bigBundle(t)
	for _, overwrite := range []bool{false, true} {
		dir := t.TempDir()
		dest := filepath.Join(dir, "evidence.json")
		if overwrite {
			os.WriteFile(dest, []byte("previous export"), 0o644)
		}
		ctx := &cancelAfter{Context: context.Background(), n: 4}
		_, err := Export(ctx, b, dest, overwrite)
		if asABI(t, err).Code != abi.CodeCancelled {
			t.Fatalf("got %v", err)
		}
		if ctx.calls.Load() < 4 {
			t.Errorf("cancelled before writing began (%d checks)", ctx.calls.Load())
		}
		names := dirEntries(t, dir)
		if overwrite {
			if data, _ := os.ReadFile(dest); string(data) != "previous export" || len(names) != 1 {
				t.Errorf("cancelled export touched the destination: %q %v", data, names)
			}
		} else if len(names) != 0 {
			t.Errorf("cancelled export left %v", names)
		}
	}
}

func TestExportRejectsUnusableDestinations(t *testing.T) {
	dir := t.TempDir()
	b, _ := NewBundle(nil, nil)
	for name, path := range map[string]string{
		"empty":          "",
		"missing parent": filepath.Join(dir, "nope", "e.json"),
		"a directory":    dir,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Export(context.Background(), b, path, true); asABI(t, err).Code != abi.CodeInvalidRequest {
				t.Errorf("got %v", err)
			}
		})
	}
}

func TestReadBundleFileEnforcesItsImportBudget(t *testing.T) {
	b := bigBundle(t)
	dest := filepath.Join(t.TempDir(), "e.json")
	res, err := Export(context.Background(), b, dest, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadBundleFile(context.Background(), dest, Limits{MaxBytes: res.Bytes - 1}, nil)
	if e := asABI(t, err); e.Code != abi.CodeTruncated || e.Details["limit"] != "bytes" {
		t.Errorf("got %v", err)
	}
	if _, err := ReadBundleFile(context.Background(), dest, Limits{MaxBytes: res.Bytes}, nil); err != nil {
		t.Errorf("a file exactly at the budget was refused: %v", err)
	}
	_, err = ReadBundleFile(context.Background(), dest, Limits{MaxRecords: len(b.Records) - 1}, nil)
	if e := asABI(t, err); e.Code != abi.CodeTruncated || e.Details["limit"] != "records" {
		t.Errorf("record budget: %v", err)
	}
	if _, err := ReadBundleFile(context.Background(), filepath.Join(t.TempDir(), "absent.json"), Limits{}, nil); asABI(t, err).Code != abi.CodeInvalidRequest {
		t.Errorf("absent file: %v", err)
	}
}

func TestExportOfALedgerPublishesItsSnapshot(t *testing.T) {
	l := NewLedger(Limits{})
	rs := mixedRecords(t)
	for _, r := range rs {
		l.Add(r)
	}
	dest := filepath.Join(t.TempDir(), "session.json")
	res, err := Export(context.Background(), l, dest, false)
	if err != nil {
		t.Fatal(err)
	}
	imported := NewLedger(Limits{})
	b, err := ReadBundleFile(context.Background(), dest, Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := imported.Import(b); err != nil || got.Added != len(rs) || res.Records != len(rs) {
		t.Fatalf("import %+v %v, exported %d", got, err, res.Records)
	}
	for _, r := range rs {
		if _, ok := imported.Lookup(r.EvidenceID); !ok {
			t.Errorf("%s lost in the round trip", r.EvidenceID)
		}
	}
}
