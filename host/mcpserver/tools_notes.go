package mcpserver

import (
	"context"
	"sort"

	"rea/abi"
	"rea/host/app"
	"rea/host/notes"
	"rea/host/operation"
)

// noteTools are the analyst-note tools over the session's open document:
// each change is a mutation Evidence record in the session ledger, which
// later native results read.
func (s *Server) noteTools() []*Tool {
	mutationOut := result("The mutations recorded and each note read back.", map[string]Schema{
		"action": typed("string"), "mutations": typed("array"), "mutation_evidence_id": typed("string"),
	})
	type docIn struct {
		Document string `json:"document"`
	}
	doc := func(c *Call, name string) (*nativeState, error) {
		n, _, err := selectDocument(c, name)
		return n, err
	}
	arch := func(n *nativeState) string {
		if len(n.document.Architectures) > 1 {
			return n.document.Architecture
		}
		return ""
	}
	write := func(ctx context.Context, c *Call, op, document, field string, changes []notes.Change) (any, error) {
		n, err := doc(c, document)
		if err != nil {
			return nil, err
		}
		return s.app.WriteNotes(ctx, app.NoteWriteRequest{InputPath: n.document.Path, Architecture: arch(n), Ledger: c.Session.Ledger,
			Operation: op, Actor: c.actor(), Changes: changes, Field: field}, c.Progress)
	}
	emptyIsNil := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	setOne := func(sp operation.Spec, kind, valueField string) *Tool {
		return &Tool{Spec: spec(sp), Modules: []string{app.NativeModule}, Output: mutationOut,
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in map[string]string
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return write(ctx, c, sp.Name, in["document"], "address", []notes.Change{{Kind: kind, Address: in["address"], Value: emptyIsNil(in[valueField])}})
			}}
	}
	read := func(sp operation.Spec, kind string) *Tool {
		return &Tool{Spec: spec(sp), Modules: []string{app.NativeModule},
			Output: result("The note at the address.", map[string]Schema{
				"document": typed("string"), "address": typed("string"), "kind": typed("string"), "value": typed("string", "null"),
				"note": typed("object", "null"), "authority": typed("string"),
			}),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Address  string `json:"address"`
					Document string `json:"document"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				n, err := doc(c, in.Document)
				if err != nil {
					return nil, err
				}
				if in.Address == "" {
					if n.cursor == nil {
						return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "the document has no entry point, so the session has no current address").
							WithDetail("reason", "no_cursor").WithDetail("remediation", "pass address")
					}
					in.Address = n.cursor.Address.String()
				}
				return s.app.ReadNote(ctx, kind, app.NoteReadRequest{InputPath: n.document.Path, Architecture: arch(n), Ledger: c.Session.Ledger, Address: in.Address}, c.Progress)
			}}
	}
	return []*Tool{
		setOne(operation.SetAddressName(), notes.KindName, "name"),
		{Spec: spec(operation.SetAddressesNames()), Modules: []string{app.NativeModule}, Output: mutationOut,
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Names    map[string]string `json:"names"`
					Document string            `json:"document"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				addrs := make([]string, 0, len(in.Names))
				for a := range in.Names {
					addrs = append(addrs, a)
				}
				sort.Strings(addrs)
				var changes []notes.Change
				for _, a := range addrs {
					changes = append(changes, notes.Change{Kind: notes.KindName, Address: a, Value: emptyIsNil(in.Names[a])})
				}
				return write(ctx, c, "set_addresses_names", in.Document, "names", changes)
			}},
		setOne(operation.SetComment(), notes.KindComment, "comment"),
		setOne(operation.SetInlineComment(), notes.KindInlineComment, "comment"),
		{Spec: spec(operation.SetBookmark()), Modules: []string{app.NativeModule}, Output: mutationOut,
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in map[string]string
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				name := in["name"]
				if name == "" {
					name = in["address"]
				}
				return write(ctx, c, "set_bookmark", in["document"], "address", []notes.Change{{Kind: notes.KindBookmark, Address: in["address"], Value: &name}})
			}},
		{Spec: spec(operation.UnsetBookmark()), Modules: []string{app.NativeModule}, Output: mutationOut,
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in map[string]string
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				return write(ctx, c, "unset_bookmark", in["document"], "address", []notes.Change{{Kind: notes.KindBookmark, Address: in["address"]}})
			}},
		{Spec: spec(operation.ListBookmarks()),
			Output: result("One page of bookmarks.", map[string]Schema{
				"document": typed("string"), "authority": typed("string"), "bookmarks": typed("object"), "conflicts": typed("array"),
			}),
			Run: func(ctx context.Context, c *Call) (any, error) {
				var in struct {
					Document string `json:"document"`
					Offset   int    `json:"offset"`
					Limit    int    `json:"limit"`
				}
				if err := c.Decode(&in); err != nil {
					return nil, err
				}
				n, err := doc(c, in.Document)
				if err != nil {
					return nil, err
				}
				return s.app.ListBookmarks(ctx, app.NoteReadRequest{InputPath: n.document.Path, Ledger: c.Session.Ledger, Offset: in.Offset, Limit: in.Limit})
			}},
		read(operation.ReadComment(), notes.KindComment),
		read(operation.ReadInlineComment(), notes.KindInlineComment),
		{Spec: spec(operation.AddressName()), Modules: []string{app.NativeModule},
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
				return s.app.AddressName(ctx, req, c.Progress)
			}},
	}
}

// actor names the MCP client that asked, by its initialize identity.
func (c *Call) actor() string {
	if c.Session != nil && c.Session.conn != nil {
		if p := c.Session.conn.InitializeParams(); p != nil && p.ClientInfo != nil {
			return notes.Actor("mcp-client", p.ClientInfo.Name, p.ClientInfo.Version)
		}
	}
	return notes.Actor("mcp-client", "", "")
}
