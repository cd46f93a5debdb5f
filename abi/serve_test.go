package abi

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// The success envelope written around a result is byte for byte what
// marshalling a Response gives, for results with HTML characters, escapes,
// non-ASCII text, nesting and null.
func TestSuccessEnvelopeIsWhatMarshallingAResponseGives(t *testing.T) {
	results := []any{
		map[string]any{"html": "<a href=\"x\">&</a>", "esc": "line\nbreak\ttab\\", "utf8": "日本語 😀 \u2028"},
		[]any{1, 2.5, true, nil, []string{}},
		nil,
		"plain",
	}
	for _, r := range results {
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(Response{ABI: Version, OK: true, Result: raw})
		if err != nil {
			t.Fatal(err)
		}
		var got, errOut bytes.Buffer
		if code := writeResult(&got, &errOut, raw); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if got.String() != string(want) {
			t.Fatalf("envelope\n got %s\nwant %s", got.String(), want)
		}
	}
}

// ServeIO end to end: a handler's result arrives in a success envelope, an
// unknown operation in an error envelope naming the field.
func TestServeIOWritesResultAndErrorEnvelopes(t *testing.T) {
	handlers := map[string]Handler{"echo": func(p json.RawMessage, _ *Reporter) (any, error) { return p, nil }}
	var out, errOut bytes.Buffer
	req := `{"abi":` + strconv.Itoa(Version) + `,"operation":"echo","params":{"x":"<y>"}}`
	if code := ServeIO(strings.NewReader(req), &out, &errOut, handlers); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var resp Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil || !resp.OK || string(resp.Result) != `{"x":"\u003cy\u003e"}` {
		t.Fatalf("response %s (%v)", out.String(), err)
	}
	out.Reset()
	req = strings.Replace(req, "echo", "nope", 1)
	if code := ServeIO(strings.NewReader(req), &out, &errOut, handlers); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil || resp.OK || resp.Error == nil || resp.Error.Details["field"] != "operation" {
		t.Fatalf("response %s (%v)", out.String(), err)
	}
}
