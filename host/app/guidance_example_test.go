package app_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"rea/host/app"
)

// Render one guided workflow as the MCP prompt, the guided_workflows tool
// and `rea guided-workflows` all do; argument values stay JSON data.
func ExampleGuidedWorkflows() {
	req := app.GuidedWorkflowsRequest{Action: "render", WorkflowID: "audit_residual_unknowns"}.
		WithArguments(map[string]json.RawMessage{"audit_scope": json.RawMessage(`"IPC handlers"`)})
	res, err := app.GuidedWorkflows(req, nil, app.RenderContext{})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(res.Text, "\n")
	fmt.Println(lines[0])
	fmt.Println(lines[7])
	// Output:
	// # Audit residual unknowns
	// {"audit_scope":"IPC handlers"}
}
