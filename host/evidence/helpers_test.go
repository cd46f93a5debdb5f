package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"

	"rea/abi"
)

const (
	digestA = "a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0"
	digestB = "0000000000000000000000000000000000000000000000000000000000000001"
)

func strp(s string) *string { return &s }

func testProvider() Provider {
	return Provider{ID: "rea.jsapp", Name: "rea JavaScript analyzer", Version: strp("0.1.0")}
}

func testSubject() *Subject {
	return &Subject{Name: "app.asar", Digest: Digest{SHA256: digestA}, Format: "asar", Architecture: "", LocalPath: "/tmp/x/app.asar"}
}

func testDraft() Draft {
	return Draft{
		Subject:          testSubject(),
		Provider:         testProvider(),
		Operation:        "analyze_javascript_application",
		Parameters:       map[string]any{"input_path": "/tmp/x/app.asar", "detail": "complete"},
		NormalizedResult: map[string]any{"windows": []any{map[string]any{"contextIsolation": false}}, "count": 1},
		Locations:        []Location{ArtifactPathLocation("main.js"), FileOffsetRangeLocation(16, 32)},
	}
}

func mustNew(t testing.TB, d Draft) Record {
	t.Helper()
	r, err := New(d)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

// independentID derives an evidence id without this package's canonical
// writer: the projection is built as a generic JSON value, encoded by
// encoding/json and canonicalised by the RFC 8785 library.
func independentID(t testing.TB, canonical []byte) string {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(canonical)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	delete(m, "evidence_id")
	if s, ok := m["subject"].(map[string]any); ok {
		m["subject"] = map[string]any{"digest": s["digest"], "format": s["format"], "architecture": s["architecture"]}
	}
	encoded, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	c, err := jcs.Transform(encoded)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c)
	return "ev_" + hex.EncodeToString(sum[:])
}

// asABI extracts the typed error.
func asABI(t testing.TB, err error) *abi.Error {
	t.Helper()
	var e *abi.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *abi.Error", err, err)
	}
	return e
}

// issuePath returns the dotted field of an invalid_request error.
func issuePath(t testing.TB, err error) string {
	t.Helper()
	e := asABI(t, err)
	if e.Code != abi.CodeInvalidRequest {
		t.Fatalf("code %q, want invalid_request: %v", e.Code, e)
	}
	f, _ := e.Details["field"].(string)
	return f
}

// mutate decodes canonical record JSON, applies edit and re-encodes it.
func mutate(t testing.TB, canonical []byte, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(canonical)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// resealed recomputes evidence_id for edited JSON, so a test can reach the
// validation behind the integrity check.
func resealed(t testing.TB, doc []byte) []byte {
	t.Helper()
	c, err := jcs.Transform(doc)
	if err != nil {
		t.Fatal(err)
	}
	return mutate(t, c, func(m map[string]any) { m["evidence_id"] = independentID(t, c) })
}
