package app

import (
	"strings"
	"testing"
)

// Seed 000: "For target paths in compare_application_versions, the prompt
// suggests opening each target before calling inspect_artifact."
func TestCompareVersionsPromptOpensEachTargetBeforeInspectArtifact(t *testing.T) {
	text := render(t, "compare_application_versions", map[string]any{"left_input_path": "/a", "right_input_path": "/b"}, RenderContext{})
	open, inspect := strings.Index(text, "`open_binary`"), strings.Index(text, "`inspect_artifact`")
	if open < 0 || inspect < 0 || open > inspect {
		t.Fatalf("open_binary (at %d) is not suggested before inspect_artifact (at %d):\n%s", open, inspect, text)
	}
	step := text[strings.LastIndex(text[:open], "\n- "):open]
	if !strings.Contains(step, "left_input_path") || !strings.Contains(step, "right_input_path") {
		t.Errorf("the open step does not name both targets: %q", step)
	}
}
