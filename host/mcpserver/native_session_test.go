package mcpserver

import (
	"reflect"
	"testing"
)

func TestClientRequirementsReportMissingNegotiatedFeatures(t *testing.T) {
	none := map[string]bool{"elicitation_form": false, "elicitation_url": false, "roots": false, "sampling": false}
	some := map[string]bool{"elicitation_form": true, "elicitation_url": false, "roots": true, "sampling": false}
	cases := []struct {
		name               string
		required, optional []string
		negotiated         map[string]bool
		missing, blocking  []string
	}{
		{"needs nothing", nil, nil, none, []string{}, []string{}},
		{"required missing", []string{"sampling"}, nil, some, []string{"sampling"}, []string{"sampling"}},
		{"required present", []string{"roots"}, []string{"elicitation_url"}, some, []string{"elicitation_url"}, []string{}},
		{"optional only", nil, []string{"elicitation_form", "sampling"}, none, []string{"elicitation_form", "sampling"}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, blocking := clientRequirements(&Tool{ClientRequired: c.required, ClientOptional: c.optional}, c.negotiated)
			if !reflect.DeepEqual(req["missing"], c.missing) || !reflect.DeepEqual(blocking, c.blocking) {
				t.Errorf("missing %v blocking %v, want %v %v", req["missing"], blocking, c.missing, c.blocking)
			}
			if len(req["required"].([]string)) != len(c.required) || len(req["optional"].([]string)) != len(c.optional) {
				t.Errorf("requirements %v", req)
			}
		})
	}
}
