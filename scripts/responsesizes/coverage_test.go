package main

import (
	"os"
	"strings"
	"testing"

	"rea/host/operation"
)

// Every operation has a default call in this script (a call site naming
// the tool), so a new tool cannot be added without a row in
// docs/response-sizes.md; the script itself also exits 1 when a tool in
// tools/list has no row. make sizes regenerates the table.
func TestEveryOperationHasADefaultCall(t *testing.T) {
	var src strings.Builder
	for _, f := range []string{"main.go", "live.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	for _, s := range operation.All() {
		name := `"` + s.Name + `"`
		if !strings.Contains(src.String(), "{"+name) && !strings.Contains(src.String(), "call("+name) {
			t.Errorf("%s has no default call in scripts/responsesizes: add one (callsFor in main.go or a step in live.go), then make sizes", s.Name)
		}
	}
}
