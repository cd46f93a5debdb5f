package app

import (
	"encoding/json"
	"testing"
	"unicode/utf16"
)

func TestPseudocodePagesInUTF16UnitsWithoutSplittingSurrogates(t *testing.T) {
	text := "a😀b" // a, a surrogate pair, b: 4 code units
	doc := map[string]json.RawMessage{"pseudocode": json.RawMessage(`{"status":"available","text":` + mustQuote(text) + `}`)}
	cases := []struct {
		offset, limit int
		want          string
		start         int
		next          any
	}{
		{0, 64, "a😀b", 0, nil},
		{0, 2, "a", 0, 1},    // ending inside the pair stops before it
		{2, 2, "😀b", 1, nil}, // starting inside the pair starts at its first half
		{1, 2, "😀", 1, 3},
		{4, 2, "", 4, nil},
	}
	for _, c := range cases {
		out := map[string]any{}
		pseudocodeView(doc, AnalysisViewRequest{Offset: c.offset, Limit: c.limit}, out)
		pc := out["pseudocode"].(map[string]any)
		if pc["text"] != c.want || pc["offset"] != c.start || pc["next_offset"] != c.next || pc["total_code_units"] != len(utf16.Encode([]rune(text))) {
			t.Errorf("offset %d limit %d: %v, want %q from %d next %v", c.offset, c.limit, pc, c.want, c.start, c.next)
		}
	}
	// An unavailable facet is passed through as the record states it.
	out := map[string]any{}
	pseudocodeView(map[string]json.RawMessage{"pseudocode": json.RawMessage(`{"status":"unavailable","reason":"no decompiler"}`)}, AnalysisViewRequest{Limit: 64}, out)
	if string(out["pseudocode"].(json.RawMessage)) != `{"status":"unavailable","reason":"no decompiler"}` {
		t.Errorf("unavailable facet: %v", out)
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestNativeItemSelectsByNodeIDOrNameAndReportsCandidates(t *testing.T) {
	rp := recordedPage{Items: []json.RawMessage{
		json.RawMessage(`{"name":"a","address":"0x10"}`), json.RawMessage(`{"name":"dup","address":"0x20"}`), json.RawMessage(`{"name":"dup","address":"0x30"}`),
	}, Total: 10, Offset: 4}
	cases := []struct {
		req     AnalysisViewRequest
		matches int
		nodeID  any
		err     bool
	}{
		{AnalysisViewRequest{Collection: "symbols", Selector: "a"}, 1, "symbols#4", false},
		{AnalysisViewRequest{Collection: "symbols", Selector: "0x30"}, 1, "symbols#6", false},
		{AnalysisViewRequest{Collection: "symbols", Selector: "dup"}, 2, "symbols#5", false},
		{AnalysisViewRequest{Collection: "symbols", NodeID: "symbols#6"}, 1, "symbols#6", false},
		{AnalysisViewRequest{Collection: "symbols", NodeID: "symbols#1"}, 0, "symbols#1", false}, // not in the recorded window
		{AnalysisViewRequest{Collection: "symbols", NodeID: "sections#1"}, 0, nil, true},
		{AnalysisViewRequest{Collection: "symbols"}, 0, nil, true},
	}
	for _, c := range cases {
		out := map[string]any{}
		err := nativeItem(rp, c.req, out)
		if (err != nil) != c.err {
			t.Fatalf("%+v: err %v", c.req, err)
		}
		if err != nil {
			continue
		}
		if out["matches"] != c.matches || out["node_id"] != c.nodeID {
			t.Errorf("%+v: %v", c.req, out)
		}
		if c.req.Selector == "dup" && len(out["candidates"].([]string)) != 2 {
			t.Errorf("ambiguous selector lists no candidates: %v", out)
		}
		if c.req.Selector != "" && out["coverage"] != "partial" {
			t.Errorf("a selector over a partial window must say so: %v", out)
		}
	}
}

func TestUnresolvedCallsAreIndirectOrTargetless(t *testing.T) {
	doc := map[string]json.RawMessage{"assembly": json.RawMessage(`{"total":4,"offset":0,"items":[
		{"address":"0x1","flow":"call","target":"0x9"},{"address":"0x2","flow":"indirect-call"},
		{"address":"0x3","flow":"call"},{"address":"0x4","flow":"next"}]}`)}
	got := unresolvedCalls(doc)
	if len(got) != 2 || !json.Valid(got[0]) {
		t.Fatalf("unresolved calls %s", got)
	}
	var first struct{ Address string }
	_ = json.Unmarshal(got[0], &first)
	if first.Address != "0x2" {
		t.Errorf("first unresolved call %s", got[0])
	}
}
