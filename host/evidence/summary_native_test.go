package evidence

import (
	"encoding/json"
	"testing"
)

func TestNativeDossierReportsValueFlowAsRecorded(t *testing.T) {
	cases := []struct {
		name, op, result string
		want             string // JSON of the summary, "null" for none
	}{
		{"other operation", "list_strings", `{"value_flow":{"status":"available"}}`, `null`},
		{"unavailable facet", "analyze_function", `{"value_flow":{"status":"unavailable","reason":"no decompiler"}}`,
			`{"value_flow":{"status":"unavailable","reason":"no decompiler","truncated":null,"omitted_count":null}}`},
		{"truncated facet", "analyze_function", `{"value_flow":{"status":"partial","truncated":true,"omitted_count":12}}`,
			`{"value_flow":{"status":"partial","reason":null,"truncated":true,"omitted_count":12}}`},
		{"no facet", "analyze_function", `{"procedure":{"address":"0x1"}}`,
			`{"value_flow":{"status":"unknown","reason":"the record holds no readable value_flow facet","truncated":null,"omitted_count":null}}`},
		{"not an object", "analyze_function", `[1]`,
			`{"value_flow":{"status":"unknown","reason":"the record holds no readable value_flow facet","truncated":null,"omitted_count":null}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := json.Marshal(nativeDossier(Record{Operation: c.op, NormalizedResult: json.RawMessage(c.result)}))
			if string(got) != c.want {
				t.Errorf("got %s\nwant %s", got, c.want)
			}
		})
	}
}
