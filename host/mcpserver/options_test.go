package mcpserver

import (
	"errors"
	"strings"
	"testing"

	"rea/abi"
)

func TestMaxResponseBytesIsReadExactlyAsWritten(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int64 // 0: refused
	}{
		{"", DefaultMaxResponseBytes},
		{"10485760", 10485760},
		{"20971520", 20971520},
		{" 20971520", 0},
		{"20971520 ", 0},
		{"\t20971520\n", 0},
		{"+20971520", 0},
		{"2e7", 0},
		{"20_971_520", 0},
		{"1000", 0},
		{"9007199254740992", 0},
	} {
		o, err := OptionsFromEnvironment(func(k string) string {
			if k == "REA_MCP_MAX_RESPONSE_BYTES" {
				return tc.value
			}
			return ""
		}, "test")
		if tc.want == 0 {
			var ae *abi.Error
			if !errors.As(err, &ae) || ae.Code != abi.CodeConfigurationInvalid || ae.Details["variable"] != "REA_MCP_MAX_RESPONSE_BYTES" {
				t.Errorf("%q: want configuration_invalid naming the variable, got %v", tc.value, err)
			}
			continue
		}
		if err != nil || o.MaxResponseBytes != tc.want {
			t.Errorf("%q: got %d, %v; want %d", tc.value, o.MaxResponseBytes, err, tc.want)
		}
	}
}

func TestSchemaProfilesAreTheThreeNamedOnes(t *testing.T) {
	for _, tc := range []struct{ value, want string }{{"", "full"}, {"full", "full"}, {"compact", "compact"}, {"strict", "strict"}, {"STRICT", ""}, {"openai", ""}} {
		o, err := OptionsFromEnvironment(func(k string) string {
			if k == "REA_MCP_INPUT_SCHEMA_PROFILE" {
				return tc.value
			}
			return ""
		}, "test")
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "REA_MCP_INPUT_SCHEMA_PROFILE") {
				t.Errorf("%q: want a configuration error, got %v", tc.value, err)
			}
			continue
		}
		if err != nil || o.SchemaProfile != tc.want {
			t.Errorf("%q: got %q, %v", tc.value, o.SchemaProfile, err)
		}
	}
}
