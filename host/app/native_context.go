package app

import (
	"context"
	"errors"
	"path/filepath"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/evidence"
	"rea/host/notes"
	"rea/host/sandbox"
	"rea/providers"
)

// Native context: the document an MCP session opened, its cursor and the
// facts around an address. native-lite has no user interface, so the
// cursor is the session's own: it starts at the document's entry point and
// says so (basis), and comments and bookmarks, which only an interactive
// provider keeps, are reported unavailable rather than empty.

// NativeDocument is one document a session can analyse: an opened native
// binary, named by its file's base name.
type NativeDocument struct {
	Name          string           `json:"name"`
	Path          string           `json:"path"`
	SHA256        string           `json:"sha256"`
	Format        string           `json:"format"`
	Architecture  string           `json:"architecture"`
	Architectures []string         `json:"architectures,omitempty"`
	Type          string           `json:"type"`
	Entry         *nativewire.Addr `json:"entry"`
	FileSize      int64            `json:"file_size"`
}

// NativeOpening is what opening a native target establishes: the document
// and the provider binding (nil with the rejections when auto found no
// provider for it).
type NativeOpening struct {
	// Document is nil, with DocumentError, when the file is not a binary
	// the native module reads.
	Document      *NativeDocument        `json:"document"`
	DocumentError *abi.Error             `json:"document_error,omitempty"`
	Binding       *providers.BindingView `json:"analysis_provider_binding"`
	Rejections    []providers.Rejection  `json:"rejections"`
}

// OpenNativeDocument reads a native binary's identity in the sandbox
// (format, architecture, entry; no analysis) and binds a provider with the
// same parser and policy as the CLI's --provider: an explicit provider_id
// that is unknown, unavailable or unsupported, or an ambiguous auto, fails
// with the typed selection error; auto with no usable candidate leaves the
// document unbound with the rejections.
func (a *App) OpenNativeDocument(ctx context.Context, path, providerID, architecture string, progress func(abi.Progress)) (*NativeOpening, error) {
	if err := providers.ValidateEnvironment(nil); err != nil {
		return nil, err
	}
	if providerID != "" {
		if _, err := providers.ParseSelector(providerID, "provider_id"); err != nil {
			return nil, err
		}
	}
	reg, err := a.providerRegistry()
	if err != nil {
		return nil, err
	}
	in, err := openNative(path)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	var segs nativewire.Segments
	if _, err := a.runNative(ctx, in, nativewire.OpSegments, nativewire.Params{Architecture: architecture}, &segs, progress); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		// Not a binary native-lite reads: the target opens without a
		// document, and says why.
		return &NativeOpening{DocumentError: typedError(err), Rejections: []providers.Rejection{}}, nil
	}
	t := segs.Target
	doc := NativeDocument{Name: filepath.Base(in.abs), Path: in.abs, SHA256: in.sha256, Format: t.Format, Architecture: t.Architecture,
		Architectures: t.Architectures, Type: t.Type, Entry: t.Entry, FileSize: t.FileSize}
	b, rej, err := reg.Select(providerID, providers.Target{SHA256: in.sha256, Format: t.Format, Architecture: t.Architecture})
	if err != nil {
		return nil, err
	}
	out := &NativeOpening{Document: &doc, Rejections: []providers.Rejection{}}
	if rej != nil {
		out.Rejections = rej
	}
	if b != nil {
		v := b.View()
		out.Binding = &v
	}
	return out, nil
}

// typedError keeps a typed error as it is and wraps any other.
func typedError(err error) *abi.Error {
	var typed *abi.Error
	if errors.As(err, &typed) {
		return typed
	}
	return abi.Errorf(abi.CodeArtifactOperationFailed, "%v", err)
}

// NativeCursor is a session's current address and why it is there.
type NativeCursor struct {
	Address nativewire.Addr `json:"address"`
	// Basis: entry-point (where a document opens; nothing has moved it).
	Basis string `json:"basis"`
}

// CursorBasisEntry is the basis of a cursor at the document's entry.
const CursorBasisEntry = "entry-point"

// NativeContextRequest names the document (its path and slice), the bound
// provider and the address a context service reads.
type NativeContextRequest struct {
	Document   NativeDocument
	ProviderID string
	Cursor     *NativeCursor
	// Address is inspect_address_context's explicit address.
	Address string
	// Notes are the session's analyst notes.
	Notes NotesSource
}

func (r NativeContextRequest) native(address string) NativeRequest {
	arch := ""
	if len(r.Document.Architectures) > 1 { // the slice of a universal file
		arch = r.Document.Architecture
	}
	return NativeRequest{InputPath: r.Document.Path, ProviderID: r.ProviderID, Architecture: arch, Address: address, Notes: r.Notes}
}

// CurrentProcedure resolves the cursor to its containing procedure (null
// procedure outside one), as Evidence.
func (a *App) CurrentProcedure(ctx context.Context, r NativeContextRequest, progress func(abi.Progress)) (evidence.Record, error) {
	if r.Cursor == nil {
		return evidence.Record{}, noCursor()
	}
	return a.composeNative(ctx, "current_procedure", r.native(r.Cursor.Address.String()), progress,
		func(run runFunc, p nativewire.Params) (nativewire.Target, any, error) {
			var res nativewire.Resolution
			if err := run(nativewire.OpResolve, p, &res); err != nil {
				return nativewire.Target{}, nil, err
			}
			return res.Target, map[string]any{"document": r.Document.Name, "address": r.Cursor, "status": res.Status,
				"section": res.Section, "procedure": res.Procedure}, nil
		})
}

// NavigationContext composes the selected document, the cursor and its
// containing procedure (null outside one), with the modes this provider
// supports, as one Evidence record.
func (a *App) NavigationContext(ctx context.Context, r NativeContextRequest, mode string, progress func(abi.Progress)) (evidence.Record, error) {
	address := ""
	if r.Cursor != nil {
		address = r.Cursor.Address.String()
	}
	return a.composeNative(ctx, "get_navigation_context", r.native(address), progress,
		func(run runFunc, p nativewire.Params) (nativewire.Target, any, error) {
			out := map[string]any{"mode": mode, "document": r.Document, "address": nil, "procedure": nil, "status": "no-cursor",
				"capabilities": navigationCapabilities()}
			if r.Cursor == nil {
				// A document without an entry point opens with no cursor;
				// segments still name the target.
				var segs nativewire.Segments
				if err := run(nativewire.OpSegments, nativewire.Params{Architecture: p.Architecture}, &segs); err != nil {
					return nativewire.Target{}, nil, err
				}
				return segs.Target, out, nil
			}
			var res nativewire.Resolution
			if err := run(nativewire.OpResolve, p, &res); err != nil {
				return nativewire.Target{}, nil, err
			}
			out["address"], out["status"], out["section"] = r.Cursor, res.Status, res.Section
			if res.Procedure != nil {
				out["procedure"] = res.Procedure
			}
			return res.Target, out, nil
		})
}

// navigationCapabilities is get_navigation_context's inventory: both modes
// work, since the session always knows its document.
func navigationCapabilities() map[string]any {
	return map[string]any{"modes": []map[string]any{
		{"mode": "current_selection", "available": true, "reason": nil,
			"description": "the session's open document and its cursor (entry point until a tool moves it)"},
		{"mode": "explicit_document", "available": true, "reason": nil,
			"description": "the caller names the document (list_documents); it must be one this session opened"},
	}}
}

// unavailableFacet is a context facet native-lite cannot answer.
func unavailableFacet(reason string) map[string]any {
	return map[string]any{"status": "unavailable", "reason": reason}
}

// InspectAddressContext reports the name, containing procedure, comment,
// inline comment and bookmark facets at an explicit address; the facets
// native-lite does not keep are unavailable with the reason.
func (a *App) InspectAddressContext(ctx context.Context, r NativeContextRequest, progress func(abi.Progress)) (evidence.Record, error) {
	if r.Address == "" {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "inspect_address_context needs an explicit address").WithDetail("field", "address")
	}
	return a.composeNative(ctx, "inspect_address_context", r.native(r.Address), progress,
		func(run runFunc, p nativewire.Params) (nativewire.Target, any, error) {
			var res nativewire.Resolution
			if err := run(nativewire.OpResolve, p, &res); err != nil {
				return nativewire.Target{}, nil, err
			}
			var names nativewire.Names
			np := p
			np.Limit = nativewire.MaxLimit
			if err := run(nativewire.OpNames, np, &names); err != nil {
				return nativewire.Target{}, nil, err
			}
			name := map[string]any{"status": "available", "name": nil, "names": names.Names}
			for _, n := range names.Names.Items {
				if n.Primary || name["name"] == nil {
					name["name"] = n.Name
				}
				if n.Primary {
					break
				}
			}
			facets := map[string]any{
				"name":      name,
				"procedure": map[string]any{"status": "available", "resolution": res.Status, "section": res.Section, "procedure": res.Procedure},
			}
			// Comments and bookmarks are the session's analyst notes
			// (set_comment, set_inline_comment, set_bookmark).
			v := a.notesFor(r.Notes)
			for facet, kind := range map[string]string{"comment": notes.KindComment, "inline_comment": notes.KindInlineComment, "bookmarks": notes.KindBookmark} {
				if v == nil {
					facets[facet] = unavailableFacet("no analyst notes are kept for this request")
					continue
				}
				f := map[string]any{"status": "available", "source": "analyst", "note": nil}
				if n, ok := v(r.Document.SHA256).At(kind, *p.Address); ok {
					f["note"] = n
				}
				facets[facet] = f
			}
			if v != nil {
				if n, ok := v(r.Document.SHA256).At(notes.KindName, *p.Address); ok {
					name["analyst_name"] = n
				}
			}
			return res.Target, map[string]any{
				"document": r.Document.Name,
				"address":  res.Address,
				"facets":   facets,
			}, nil
		})
}

func noCursor() error {
	return abi.Errorf(abi.CodeCapabilityUnavailable, "the document has no entry point, so the session has no current address").
		WithDetail("reason", "no_cursor").WithDetail("remediation", "use inspect_address_context with an explicit address")
}

// runFunc runs one module operation over the opened document.
type runFunc func(op string, params nativewire.Params, out any) error

// composeNative runs a context service: select the provider (fail fast),
// run the module operations build asks for over one opened file, check
// the binding supports the target they found and seal one Evidence record
// whose provenance counts the fuel of every run.
func (a *App) composeNative(ctx context.Context, tool string, req NativeRequest, progress func(abi.Progress),
	build func(run runFunc, p nativewire.Params) (nativewire.Target, any, error)) (evidence.Record, error) {
	if err := providers.ValidateEnvironment(nil); err != nil {
		return evidence.Record{}, err
	}
	reg, err := a.providerRegistry()
	if err != nil {
		return evidence.Record{}, err
	}
	if b, rej, err := reg.Select(req.ProviderID, providers.Target{}); err != nil {
		return evidence.Record{}, err
	} else if b == nil {
		return evidence.Record{}, unbound(tool, rej)
	}
	params, err := queryParams(req)
	if err != nil {
		return evidence.Record{}, err
	}
	in, err := openNative(req.InputPath)
	if err != nil {
		return evidence.Record{}, err
	}
	defer in.f.Close()
	var last *sandbox.Outcome
	var fuel uint64
	run := func(op string, p nativewire.Params, out any) error {
		res, err := a.runNative(ctx, in, op, p, out, progress)
		if err != nil {
			return err
		}
		fuel += res.Usage.FuelUsed
		last = res
		return nil
	}
	t, result, err := build(run, params)
	if err != nil {
		return evidence.Record{}, err
	}
	if last == nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInternal, "%s ran no module operation", tool)
	}
	b, rej, err := reg.Select(req.ProviderID, providers.Target{SHA256: in.sha256, Format: t.Format, Architecture: t.Architecture})
	if err != nil {
		return evidence.Record{}, err
	}
	if b == nil {
		return evidence.Record{}, unbound(tool, rej)
	}
	view := b.View()
	req.Notes = a.notesFor(req.Notes)
	merged := *last
	merged.Usage.FuelUsed = fuel
	return nativeEvidence(tool, req, in, t, &view, &merged, result)
}
