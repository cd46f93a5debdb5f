package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"rea/abi"
)

func serve(t *testing.T, op string, params string) abi.Response {
	t.Helper()
	req, _ := json.Marshal(abi.Request{ABI: abi.Version, Operation: op, Params: json.RawMessage(params)})
	var out, errOut bytes.Buffer
	abi.ServeIO(bytes.NewReader(req), &out, &errOut, handlers())
	var resp abi.Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		t.Fatalf("response %q: %v", out.String(), err)
	}
	return resp
}

func TestModuleAnswersBothOperationsAndRefusesUnknownParams(t *testing.T) {
	ev := "ev_" + strings.Repeat("a", 64)
	spec := `{"schema_version":1,"name":"n","claims":[{"claim_id":"c","kind":"structural-artifact","evidence_id":"` + ev + `"}]}`
	resp := serve(t, "verify_reconstruction", `{"specification":`+spec+`,"comparisons":[],"inputs":[],"unknowns":[],"offset":0,"limit":10}`)
	if !resp.OK || !strings.Contains(string(resp.Result), `"verdict":"unknown"`) {
		t.Fatalf("a claim without its comparison must be unknown: %s %v", resp.Result, resp.Error)
	}
	resp = serve(t, "verify_reconstruction", `{"specification":`+spec+`,"surprise":1}`)
	if resp.OK || resp.Error.Code != abi.CodeInvalidRequest {
		t.Fatalf("unknown params accepted: %+v", resp)
	}
	resp = serve(t, "evaluate_reconstruction_coverage", `{"workspace":{"schema_version":1,"workspace_id":"rcw_a","boundaries":[{"boundary_id":"b","inventory_complete":true,"owners":[],"surfaces":[],"verifiers":[],"contradictions":[]}]}}`)
	if !resp.OK || !strings.Contains(string(resp.Result), `"status":"partial"`) {
		t.Fatalf("a boundary with no surfaces is partial: %s %v", resp.Result, resp.Error)
	}
	resp = serve(t, "build_reconstruction_obligation_ledger", `{"sources":[],"reviewed_obligations":[],"manifest":{"schema_version":1,"bindings":[],"contradictions":[]},"limits":{"max_obligations":10},"page":{"offset":0,"limit":10}}`)
	if !resp.OK || !strings.Contains(string(resp.Result), `"status":"unknown"`) {
		t.Fatalf("an obligation ledger without Evidence is unknown: %s %v", resp.Result, resp.Error)
	}
}
