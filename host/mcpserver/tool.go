package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/evidence"
	"rea/host/operation"

	"rea/abi"
)

// Effects is the one record of what a tool may do (operation.Effects).
type Effects = operation.Effects

// annotations derives the MCP hints from the effects, never by hand.
func annotations(e Effects, title string) *mcp.ToolAnnotations {
	destructive := e.MayDiscardData || e.ExecutesForeignCode || e.MutatesDevice
	open := e.LaunchesProcess || e.AccessesNetwork
	return &mcp.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    e.ReadOnly(),
		DestructiveHint: &destructive,
		IdempotentHint:  e.Idempotent,
		OpenWorldHint:   &open,
	}
}

// Tool is one MCP tool: its contract and the handler that runs it over the
// same application service the CLI uses.
type Tool struct {
	// Spec, when set, is the operation's declaration: Name, Title, Family,
	// Description, Effects, Input, Examples, CLI and OneSidedReason are
	// derived from it (fromSpec) and are not written by hand.
	Spec *operation.Spec

	Name        string
	Title       string
	Family      string
	Description string
	Effects     Effects
	Input       Schema
	// Output is the schema of structuredContent on success; nil means an
	// Evidence record.
	Output Schema
	// Examples are advertised, distinct, valid canonical inputs.
	Examples []map[string]any
	// Modules are the analyzer modules the tool runs; a missing one makes
	// the tool unavailable (it stays listed, with a remediation).
	Modules []string
	// ClientRequired and ClientOptional are the negotiated client features
	// (elicitation_form, elicitation_url, roots, sampling) the tool needs
	// or may use; binary_session reports them with the missing ones.
	ClientRequired, ClientOptional []string
	// CLI names the CLI command sharing this tool's service, or "" with
	// OneSidedReason saying why there is none.
	CLI            string
	OneSidedReason string
	// Run executes a validated call. It returns an evidence.Record (which is
	// retained in the session ledger) or any JSON-serialisable result.
	Run func(ctx context.Context, c *Call) (any, error)
}

// Call is what a handler receives.
type Call struct {
	Arguments json.RawMessage
	Session   *Session
	// Progress reports a phase to the client when it asked for progress.
	Progress func(abi.Progress)
	// self is this call's entry among the session's calls in flight.
	self *activeCall
}

// Resolve returns producer Evidence given inline or as a retained
// reference; a failure names the argument it came from.
func (c *Call) Resolve(raw json.RawMessage, field string) (evidence.Record, error) {
	if err := referenceFormError(raw); err != nil {
		return evidence.Record{}, withField(err, field)
	}
	rec, err := c.Session.Ledger.Resolve(raw)
	if err != nil {
		return evidence.Record{}, withField(err, field)
	}
	return c.parentOf(rec), nil // resolve.go
}

// Sides resolves the left and right producer Evidence of a comparison.
func (c *Call) Sides(left, right json.RawMessage) (evidence.Record, evidence.Record, error) {
	l, err := c.Resolve(left, "left")
	if err != nil {
		return evidence.Record{}, evidence.Record{}, err
	}
	r, err := c.Resolve(right, "right")
	if err != nil {
		return evidence.Record{}, evidence.Record{}, err
	}
	return l, r, nil
}

// ResolveAll resolves a list of producer Evidence, naming field[i] on failure.
func (c *Call) ResolveAll(raws []json.RawMessage, field string) ([]evidence.Record, error) {
	out := make([]evidence.Record, 0, len(raws))
	for i, raw := range raws {
		rec, err := c.Resolve(raw, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// withField names the argument an error came from, unless it already does.
func withField(err error, field string) error {
	if ae, ok := err.(*abi.Error); ok {
		if _, has := ae.Details["field"]; !has {
			return ae.WithDetail("field", field)
		}
	}
	return err
}

// Decode decodes the (already schema-validated) arguments into v.
func (c *Call) Decode(v any) error {
	raw := c.Arguments
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "arguments: %v", err)
	}
	return nil
}
