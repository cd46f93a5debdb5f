package mcpserver

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/abi"
)

// Diagnostic is the complete error a failed tool returns as JSON text:
// {"error": {...}}. Failures carry no structuredContent, since each output
// schema describes successful results.
type Diagnostic struct {
	Code        string         `json:"code"`
	Category    string         `json:"category"`
	Message     string         `json:"message"`
	Retryable   bool           `json:"retryable"`
	Remediation Remediation    `json:"remediation"`
	Details     map[string]any `json:"details,omitempty"`
}

// Remediation tells the agent what to do next.
type Remediation struct {
	Action          string `json:"action"`
	RestartRequired bool   `json:"restart_required"`
}

// DiagnosticOf classifies a typed error the same way for MCP and the CLI.
func DiagnosticOf(e *abi.Error) Diagnostic {
	d := Diagnostic{Code: e.Code, Message: e.Message, Details: e.Details}
	switch e.Code {
	case abi.CodeInvalidRequest:
		d.Category, d.Retryable = "invalid_input", true
		d.Remediation.Action = "Correct the fields named in details.issues (or details.field) and call again."
	case abi.CodeResourceConstraint:
		switch e.Details["resource"] {
		case "deadline":
			d.Category = "timeout"
			d.Remediation.Action = "Narrow the request or raise the deadline (rea --timeout / REA_TIMEOUT) and call again."
		case "transport":
			d.Category = "truncated"
			d.Remediation.Action = "Read the retained Evidence through inspect_analysis_view or export_evidence_bundle instead of one response."
		default:
			d.Category = "truncated"
			d.Remediation.Action = "Narrow the request, or raise the limit named in details.resource (REA_MEMORY_LIMIT, REA_FUEL) and call again."
		}
	case abi.CodeCancelled:
		d.Category, d.Retryable = "cancelled", true
		d.Remediation.Action = "Call again when you want the result; nothing was recorded."
	case abi.CodeArtifactIntegrity, abi.CodeEvidenceIntegrity:
		d.Category = "integrity_mismatch"
		d.Remediation.Action = "Treat the bytes as untrusted. To continue past artifact mismatches and record them, call again with integrity_policy: \"record-and-continue\"."
	case abi.CodeModuleUnavailable, abi.CodeCapabilityUnavailable, abi.CodeUnavailable, abi.CodeBundleUnavailable:
		d.Category = "unavailable"
		d.Remediation.Action = "Read the message; binary_session lists every tool's availability and remediation."
	case abi.CodeRevisionConflict:
		d.Category, d.Retryable = "invalid_input", true
		d.Remediation.Action = "Read the current revision and retry with it as expected_revision."
	case abi.CodeProcessCaptureFailed:
		d.Category = "execution_failure"
		d.Remediation.Action = "Read details.partial_observation for what was observed; fix the scenario (executable, cwd, env) and run it again."
	case abi.CodeCleanupIncomplete:
		d.Category = "execution_failure"
		d.Remediation.Action = "Address the owned resources listed in details before starting another run."
	case abi.CodeConfigurationInvalid:
		d.Category = "invalid_input"
		d.Remediation.Action = "Fix the environment variable named in details.variable and restart the server."
		d.Remediation.RestartRequired = true
	case abi.CodeTruncated:
		d.Category = "truncated"
		d.Remediation.Action = "Export or clear retained Evidence (export_evidence_bundle, close_binary) and call again."
	default:
		d.Category = "execution_failure"
		d.Remediation.Action = "Read the message; if it names a bug, report it with the details."
	}
	return d
}

// maxErrorBytes bounds an error's text; details are dropped first.
func toolError(err error, budget int64) *mcp.CallToolResult {
	d := DiagnosticOf(asError(err))
	b, _ := json.Marshal(map[string]any{"error": d})
	if int64(len(b))*2+envelopeReserve > budget {
		d.Details = map[string]any{"omitted": "details exceeded the response budget"}
		b, _ = json.Marshal(map[string]any{"error": d})
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}
