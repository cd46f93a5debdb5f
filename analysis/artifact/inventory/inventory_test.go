package inventory

import (
	"errors"
	"testing"

	"rea/abi"
)

func TestLimitsDefaultsAreTheIssueNumbers(t *testing.T) {
	got := Limits{}.WithDefaults()
	want := Limits{MaxEntries: 10000, MaxTotalBytes: 1 << 30, MaxEntryBytes: 256 << 20, MaxCompressionRatio: 1000,
		MaxDepth: 20, MaxPathBytes: 4096, MaxHeaderBytes: 64 << 20}
	if got != want {
		t.Fatalf("defaults = %+v, want %+v", got, want)
	}
	if kept := (Limits{MaxEntries: 5}).WithDefaults(); kept.MaxEntries != 5 {
		t.Fatalf("explicit limit replaced: %+v", kept)
	}
}

func TestLimitsValidateNamesTheNegativeField(t *testing.T) {
	err := Limits{MaxCompressionRatio: -1}.Validate()
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest || ae.Details["field"] != "limits.max_compression_ratio" {
		t.Fatalf("err = %v", err)
	}
	if err := (Limits{}).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestNewLinkFlagsTargetsOutsideTheContainer(t *testing.T) {
	cases := []struct {
		target, dir       string
		absolute, escapes bool
	}{
		{"main.js", "", false, false},
		{"../main.js", "lib", false, false},
		{"../../main.js", "lib", false, true},
		{"..", "", false, true},
		{"/etc/passwd", "lib", true, false},
		{`C:\Windows`, "", true, false},
		{`..\..\x`, "a", false, true},
	}
	for _, tc := range cases {
		l := NewLink(tc.target, tc.dir)
		if l.Target != tc.target || l.Absolute != tc.absolute || l.Escapes != tc.escapes {
			t.Errorf("NewLink(%q, %q) = %+v", tc.target, tc.dir, l)
		}
	}
}
