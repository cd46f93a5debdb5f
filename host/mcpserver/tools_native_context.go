package mcpserver

import (
	"context"

	"rea/abi"
	"rea/host/app"
	"rea/host/operation"
)

// nativeContextTools are the document, cursor and address-context tools
// over the session's open native binary.
func (s *Server) nativeContextTools() []*Tool {
	doc := func(c *Call) (string, error) {
		var in struct {
			Document string `json:"document"`
		}
		return in.Document, c.Decode(&in)
	}
	return []*Tool{
		{
			Spec: spec(operation.ListDocuments()),
			Output: result("The session's documents.", map[string]Schema{
				"documents": typed("array"), "current_document": typed("string", "null"),
			}),
			Run: func(_ context.Context, c *Call) (any, error) {
				if err := c.Decode(&struct{}{}); err != nil {
					return nil, err
				}
				docs := []*app.NativeDocument{}
				var current any
				if n := c.Session.nativeState(); n != nil && n.document != nil {
					docs = append(docs, n.document)
					current = n.document.Name
				}
				return map[string]any{"documents": docs, "current_document": current}, nil
			},
		},
		{
			Spec: spec(operation.CurrentDocument()),
			Output: result("The current document.", map[string]Schema{
				"document": typed("object"), "analysis_provider_binding": typed("object", "null"),
			}),
			Run: func(_ context.Context, c *Call) (any, error) {
				if err := c.Decode(&struct{}{}); err != nil {
					return nil, err
				}
				n, _, err := selectDocument(c, "")
				if err != nil {
					return nil, err
				}
				return map[string]any{"document": n.document, "analysis_provider_binding": bindingOrNil(n.binding)}, nil
			},
		},
		{
			Spec: spec(operation.CurrentAddress()),
			Output: result("The cursor of the document.", map[string]Schema{
				"document": typed("string"), "address": typed("string", "null"), "basis": typed("string", "null"),
			}),
			Run: func(_ context.Context, c *Call) (any, error) {
				name, err := doc(c)
				if err != nil {
					return nil, err
				}
				n, _, err := selectDocument(c, name)
				if err != nil {
					return nil, err
				}
				out := map[string]any{"document": n.document.Name, "address": nil, "basis": nil}
				if n.cursor != nil {
					out["address"], out["basis"] = n.cursor.Address.String(), n.cursor.Basis
				} else {
					out["reason"] = "the document has no entry point, so nothing places the cursor"
				}
				return out, nil
			},
		},
		{
			Spec:    spec(operation.CurrentProcedure()),
			Modules: []string{app.NativeModule},
			Run: func(ctx context.Context, c *Call) (any, error) {
				name, err := doc(c)
				if err != nil {
					return nil, err
				}
				req, _, err := contextRequest(c, name)
				if err != nil {
					return nil, err
				}
				return s.app.CurrentProcedure(ctx, req, c.Progress)
			},
		},
		{
			Spec:    spec(operation.GetNavigationContext()),
			Modules: []string{app.NativeModule},
			Run: func(ctx context.Context, c *Call) (any, error) {
				name, err := doc(c)
				if err != nil {
					return nil, err
				}
				req, mode, err := contextRequest(c, name)
				if err != nil {
					return nil, err
				}
				return s.app.NavigationContext(ctx, req, mode, c.Progress)
			},
		},
		{
			Spec:    spec(operation.InspectAddressContext()),
			Modules: []string{app.NativeModule},
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Address  string `json:"address"`
					Document string `json:"document"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				req, _, err := contextRequest(c, in.Document)
				if err != nil {
					return nil, err
				}
				req.Address = in.Address
				return s.app.InspectAddressContext(ctx, req, c.Progress)
			},
		},
	}
}

// selectDocument finds the document a call names (or the current one) and
// the mode it was selected in.
func selectDocument(c *Call, name string) (*nativeState, string, error) {
	n := c.Session.nativeState()
	if n == nil || n.document == nil {
		e := abi.Errorf(abi.CodeCapabilityUnavailable, "no native binary is open in this session, so there is no document").
			WithDetail("reason", "no_document").
			WithDetail("remediation", "call open_binary with input_path set to an ELF, PE or Mach-O binary")
		if n != nil && n.docError != nil {
			e = e.WithDetail("document_error", n.docError)
		}
		return nil, "", e
	}
	if name == "" {
		return n, "current_selection", nil
	}
	if name != n.document.Name && name != n.document.Path {
		return nil, "", abi.Errorf(abi.CodeInvalidRequest, "document %q is not open in this session; list_documents names %q", name, n.document.Name).
			WithDetail("field", "document").WithDetail("reason", "not_found").WithDetail("available_documents", []string{n.document.Name})
	}
	return n, "explicit_document", nil
}

// contextRequest is the context service's request for a document: its
// identity, the session's binding (a selected provider is never replaced)
// and cursor.
func contextRequest(c *Call, name string) (app.NativeContextRequest, string, error) {
	n, mode, err := selectDocument(c, name)
	if err != nil {
		return app.NativeContextRequest{}, "", err
	}
	if n.binding == nil {
		return app.NativeContextRequest{}, "", abi.Errorf(abi.CodeCapabilityUnavailable, "no analysis provider is bound to %s", n.document.Name).
			WithDetail("reason", "provider_unbound").WithDetail("rejections", n.rejections).
			WithDetail("remediation", "open the binary again with open_binary and provider_id native-lite")
	}
	return app.NativeContextRequest{Document: *n.document, ProviderID: n.binding.Provider, Cursor: n.cursor, Notes: app.LedgerNotes(c.Session.Ledger)}, mode, nil
}
