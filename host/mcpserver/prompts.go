package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/app"
)

// registerPrompts advertises the guided workflows in scope as MCP prompts
// and adds field diagnostics to the SDK's invalid-params errors of the
// prompt and completion methods. Registering again replaces every prompt,
// which emits notifications/prompts/list_changed to connected clients.
func (s *Server) registerPrompts() {
	s.mcp.AddReceivingMiddleware(promptParamsDiagnostics)
	s.RefreshPrompts()
}

// RefreshPrompts re-registers the guided workflows (after a workflow
// changes); clients receive notifications/prompts/list_changed.
func (s *Server) RefreshPrompts() {
	for _, w := range s.Workflows() {
		s.mcp.AddPrompt(promptOf(w), s.promptHandler(w.ID))
	}
}

// PromptInventoryDigest identifies the advertised prompt inventory (each
// workflow's id, title, description, arguments and suggested tools) under
// the server's family scope, so the identity digest can follow the scope.
func (s *Server) PromptInventoryDigest() string {
	b, _ := json.Marshal(s.Workflows()) // exported fields only: id, title, description, arguments, tools
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func promptOf(w *app.Workflow) *mcp.Prompt {
	p := &mcp.Prompt{Name: w.ID, Title: w.Title, Description: w.Description}
	for _, a := range w.Arguments {
		desc := a.Description
		if a.Completion != "" {
			desc += " Completion offers " + a.Completion + " values from this session."
		}
		p.Arguments = append(p.Arguments, &mcp.PromptArgument{Name: a.Name, Description: desc, Required: a.Required})
	}
	return p
}

// promptHandler renders one workflow with the same renderer as the
// guided_workflows tool and `rea guided-workflows`.
func (s *Server) promptHandler(id string) mcp.PromptHandler {
	return func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		w, ok := app.FindWorkflow(id, s.workflowScope())
		if !ok {
			return nil, invalidParams("unknown prompt "+quote(id), []app.FieldIssue{{Path: []any{"name"}, Reason: "not_found", Message: "name: no prompt " + quote(id) + " in this server's scope"}})
		}
		args, deps, issues := w.StringArguments(req.Params.Arguments, "arguments")
		if len(issues) > 0 {
			return nil, invalidParams("invalid prompt arguments", issues)
		}
		var sess *Session
		if req.Session != nil {
			sess = s.session(req.Session)
		}
		text := w.Render(args, renderContext(sess))
		res := &mcp.GetPromptResult{
			Description: w.Description,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
		}
		if len(deps) > 0 {
			res.Meta = map[string]any{deprecationsMeta: deps}
		}
		return res, nil
	}
}

// invalidParams is JSON-RPC -32602 with the field issues as data, so a
// client can correct the named fields and retry on the same connection.
func invalidParams(summary string, issues []app.FieldIssue) *jsonrpc.Error {
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = is.Message
	}
	data, _ := json.Marshal(map[string]any{"issues": issues})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: summary + ": " + strings.Join(msgs, "; "), Data: data}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// promptParamsDiagnostics names the field of the SDK's own -32602 errors
// for prompts: an unknown prompt name and an invalid list cursor.
func promptParamsDiagnostics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil {
			return res, nil
		}
		var wire *jsonrpc.Error
		isWire := errors.As(err, &wire)
		switch {
		case method == "prompts/get" && isWire && wire.Code == jsonrpc.CodeInvalidParams && len(wire.Data) == 0:
			name := ""
			if p, ok := req.GetParams().(*mcp.GetPromptParams); ok && p != nil {
				name = p.Name
			}
			return nil, invalidParams("unknown prompt "+quote(name), []app.FieldIssue{{Path: []any{"name"}, Reason: "not_found",
				Message: "name: no prompt " + quote(name) + " in this server's scope; list them with prompts/list"}})
		case method == "prompts/list" && isWire && wire.Code == jsonrpc.CodeInvalidParams && len(wire.Data) == 0:
			return nil, invalidParams("invalid prompts/list params", []app.FieldIssue{{Path: []any{"cursor"}, Reason: "invalid_value",
				Message: "cursor: not a cursor this server issued; omit it to list from the start"}})
		}
		return nil, err
	}
}
