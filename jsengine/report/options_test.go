package report

import (
	"encoding/json"
	"errors"
	"testing"

	"rea/abi"
)

func TestWithDefaultsFillsZeroFieldsAndRejectsBadOnes(t *testing.T) {
	o, err := Options{MaxFindings: 10}.WithDefaults()
	if err != nil || o.MaxFindings != 10 || o.MaxTextFiles != 5000 || o.MaxASTNodes != 2_000_000 {
		t.Fatalf("%+v %v", o, err)
	}
	cases := map[string]Options{
		"limits.max_text_files": {MaxTextFiles: -1},
		"limits.max_modules":    {MaxModules: LimitCaps.MaxModules + 1},
	}
	for field, o := range cases {
		_, err := o.WithDefaults()
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest || ae.Details["field"] != field {
			t.Errorf("%+v: %v, want invalid_request on %s", o, err, field)
		}
	}
}

func TestParamsUseTheAnchorLimitNames(t *testing.T) {
	var p Params
	if err := json.Unmarshal([]byte(`{"root":"/in/app","limits":{"max_text_files":3,"max_ast_nodes":9,"fail_on_limit":true}}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.Root != "/in/app" || p.Limits.MaxTextFiles != 3 || p.Limits.MaxASTNodes != 9 || !p.Limits.FailOnLimit {
		t.Fatalf("%+v", p)
	}
}
