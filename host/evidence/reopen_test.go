package evidence

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"rea/abi"
)

// reopenDrafts are records with every kind of field filled and payloads
// that exercise the splitter and the indenter: nested and empty
// containers, escapes, non-ASCII text, U+2028, numbers of every form.
func reopenDrafts() []Draft {
	tricky := json.RawMessage(`{"a":[],"b":{},"c":[{}],"d":"q\"uo\\te } ] { [ , :","e":"\u2028 é 😀 <&>","f":-1.5e-7,"g":[true,false,null,0,[[]]],"h":{"":""}}`)
	d := testDraft()
	d.Environment = &Environment{ID: "e", Platform: "linux", Architecture: "x86_64", Isolation: "process"}
	d.Limitations = []string{"one \"limit\"", "two"}
	d.EvidenceLinks = []string{"ev_" + digestA}
	d.RawResult = tricky
	d.NormalizedResult = tricky
	return []Draft{testDraft(), d, {Provider: testProvider(), Operation: "x"}, {Provider: testProvider(), Operation: "y", NormalizedResult: json.RawMessage(`"just a string"`)}}
}

func TestReopenRestoresWhatParseReads(t *testing.T) {
	for _, d := range reopenDrafts() {
		r := mustNew(t, d)
		parsed, err := Parse(r.Canonical())
		if err != nil {
			t.Fatal(err)
		}
		reopened, err := Reopen(r.Canonical())
		if err != nil {
			t.Fatalf("Reopen of a sealed record: %v", err)
		}
		if !reflect.DeepEqual(reopened, parsed) {
			t.Fatalf("Reopen and Parse differ:\n%+v\n%+v", reopened, parsed)
		}
	}
}

// A cache's copy that changed is refused: a payload byte (the id's digest
// covers it), a space (the top level must be canonical), bytes after the
// record, a truncation. (Like Parse, it accepts another subject name or
// local path: those are for people and outside the id.)
func TestReopenRefusesBytesThatAreNotTheSealedRecord(t *testing.T) {
	r := mustNew(t, reopenDrafts()[0])
	c := r.Canonical()
	edits := map[string][]byte{
		"payload byte":  bytes.Replace(c, []byte(`"count":1`), []byte(`"count":2`), 1),
		"space":         bytes.Replace(c, []byte(`"count":1`), []byte(`"count": 1`), 1),
		"trailing":      append(append([]byte{}, c...), ' '),
		"truncated":     c[:len(c)-1],
		"empty":         nil,
		"not an object": []byte(`[]`),
	}
	for name, b := range edits {
		if bytes.Equal(b, c) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		_, err := Reopen(b)
		if err == nil {
			t.Fatalf("%s: Reopen accepted altered bytes", name)
		}
		var typed *abi.Error
		if !errors.As(err, &typed) {
			t.Fatalf("%s: untyped error %v", name, err)
		}
	}
	if _, err := Reopen(bytes.Replace(c, []byte(`"count":1`), []byte(`"count":2`), 1)); !isCode(err, abi.CodeEvidenceIntegrity) {
		t.Fatalf("a changed payload: %v, want %s", err, abi.CodeEvidenceIntegrity)
	}
}

func isCode(err error, code string) bool {
	var typed *abi.Error
	return errors.As(err, &typed) && typed.Code == code
}

// AppendIndented writes what the CLI's encoder wrote (SetIndent, no HTML
// escaping), for sealed and unsealed records.
func TestAppendIndentedWritesWhatTheEncoderWrites(t *testing.T) {
	for _, d := range reopenDrafts() {
		r := mustNew(t, d)
		for _, rec := range []Record{r, func() Record { u := r; u.canonical = nil; return u }()} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(rec); err != nil {
				t.Fatal(err)
			}
			got, err := rec.AppendIndented([]byte("x"), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got[1:], want.Bytes()) {
				t.Fatalf("AppendIndented:\n%s\nencoder:\n%s", got[1:], want.Bytes())
			}
		}
	}
}

// WriteIndented writes AppendIndented's bytes, in chunks.
func TestWriteIndentedWritesAppendIndentedBytes(t *testing.T) {
	d := reopenDrafts()[1]
	big := make([]any, 20000)
	for i := range big {
		big[i] = map[string]any{"i": i, "s": "x\"y"}
	}
	d.NormalizedResult = map[string]any{"big": big}
	r := mustNew(t, d)
	want, err := r.AppendIndented(nil, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := r.WriteIndented(&got, "", "  "); err != nil {
		t.Fatal(err)
	}
	if len(want) < 4*indentChunk || !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("WriteIndented wrote %d bytes, AppendIndented %d", got.Len(), len(want))
	}
}
