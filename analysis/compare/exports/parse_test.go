package exports

import (
	"strings"
	"testing"
)

// An over-deep module is refused as that module — its side is unparsed,
// with the bound named — instead of exhausting the module's stack.
func TestOverDeepModuleIsUnparsedNotACrash(t *testing.T) {
	deep := "exports.a = " + strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000) + ";"
	res := compare(t, side(`exports.a = 1;`, "a"), side(deep, "a"))
	if res.Status != StatusUnknown || res.Right.Status != "unparsed" {
		t.Fatalf("status %s, right %+v", res.Status, res.Right)
	}
	if ex := Extract(deep, "a", Limits{}); ex.Shape != nil || !strings.Contains(ex.Reason, "brackets nest") {
		t.Fatalf("reason %q", ex.Reason)
	}
	// The ES-module hint is for syntax errors, not for a refusal.
	if ex := Extract("import x from 'y';\n"+deep, "a", Limits{}); !strings.Contains(ex.Reason, "brackets nest") {
		t.Fatalf("reason %q", ex.Reason)
	}
}
