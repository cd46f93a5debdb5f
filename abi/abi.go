// Package abi is the contract between the rea host and its WebAssembly
// modules: the request/response envelope, the error codes both sides speak,
// progress lines and exit codes. It imports only the standard library so that
// every module can depend on it without growing.
//
// A module is a WASI command. It reads one Request as JSON from stdin, writes
// one Response as JSON to stdout, writes progress as NDJSON lines to stderr
// and exits with one of the Exit* codes.
package abi

import (
	"encoding/json"
	"fmt"
)

// Version is the ABI version spoken by this build. It is recorded in each
// module's identity (a custom section written at build time) and checked by
// the host before a module is run.
const Version = 1

// Exit codes of a module process.
const (
	// ExitOK means a Response was written, including domain errors.
	ExitOK = 0
	// ExitRuntimeAbort is what the Go runtime uses for fatal errors and
	// unrecovered panics; "out of memory" on stderr maps it to a memory
	// resource_constraint.
	ExitRuntimeAbort = 2
	// ExitBadRequest means the request envelope could not be decoded.
	ExitBadRequest = 3
	// ExitInternal means the module failed to write its response.
	ExitInternal = 4
)

// Request is the envelope the host writes to a module's stdin.
type Request struct {
	// ABI is the envelope version the host speaks.
	ABI int `json:"abi"`
	// Operation selects a handler inside the module.
	Operation string `json:"operation"`
	// Params is the operation's own request object.
	Params json.RawMessage `json:"params,omitempty"`
}

// Response is the envelope a module writes to stdout.
type Response struct {
	ABI    int             `json:"abi"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error codes shared by modules, the host, the CLI and MCP.
const (
	CodeInvalidRequest          = "invalid_request"
	CodeResourceConstraint      = "resource_constraint"
	CodeCancelled               = "cancelled"
	CodeModuleFailed            = "module_failed"
	CodeModuleUnavailable       = "module_unavailable"
	CodeArtifactIntegrity       = "artifact_integrity_mismatch"
	CodeArtifactOperationFailed = "artifact_operation_failed"
	CodeEvidenceIntegrity       = "evidence_integrity_mismatch"
	CodeCapabilityUnavailable   = "capability_unavailable"
	CodeUnavailable             = "unavailable"
	CodeTruncated               = "truncated"
	CodeCleanupIncomplete       = "cleanup_incomplete"
	CodeRevisionConflict        = "revision_conflict"
	CodeBundleUnavailable       = "bundle_unavailable"
	CodeProcessCaptureFailed    = "process_capture_failed"
	CodeConfigurationInvalid    = "configuration_invalid"
	CodeInternal                = "internal"
)

// Error is a typed failure. Message tells a person what happened and what to
// do next; Details carries machine-readable fields (field paths, limits).
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetail returns e with one more detail set.
func (e *Error) WithDetail(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// Progress is one NDJSON line a module writes to stderr while it works.
// Lines that do not decode as Progress are kept as diagnostics.
type Progress struct {
	// Phase names the step, e.g. "parse", "index".
	Phase string `json:"phase"`
	// Done and Total count work units; Total is 0 when unknown.
	Done  int64 `json:"done"`
	Total int64 `json:"total,omitempty"`
	// Message is optional human text.
	Message string `json:"message,omitempty"`
}

// ProgressLine is the wire form of a progress report: {"progress":{...}}.
type ProgressLine struct {
	Progress *Progress `json:"progress"`
}
