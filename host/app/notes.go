package app

import (
	"context"
	"path/filepath"
	"time"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/evidence"
	"rea/host/notes"
)

// Analyst notes over native binaries (package notes keeps them as
// Evidence in a ledger). The services here check each address against
// the binary's sections and segments, read in the sandbox, before a note
// is written, and apply the notes to native results.

// NotesSource gives the current notes of a binary by its sha256; nil
// when there are none to apply.
type NotesSource func(sha256 string) *notes.View

// LedgerNotes is the notes source over a ledger.
func LedgerNotes(l *evidence.Ledger) NotesSource {
	if l == nil {
		return nil
	}
	return func(sha string) *notes.View { return notes.Load(l, sha) }
}

// notesFor is the notes to apply to a request: its own source (an MCP
// session's ledger), else the App's (the CLI's --notes bundle).
func (a *App) notesFor(src NotesSource) NotesSource {
	if src != nil {
		return src
	}
	return a.Notes
}

// annotate adds the notes at the addresses a normalized result names, in
// their own analyst_annotations section, and returns the note records to
// link.
func annotate(src NotesSource, sha string, normalized map[string]any) ([]string, []string) {
	if src == nil {
		return nil, nil
	}
	ann, links := src(sha).Annotate(normalized)
	if ann == nil {
		return nil, nil
	}
	normalized["analyst_annotations"] = ann
	return links, []string{"analyst_annotations are analyst-supplied notes (authority analyst-inference, linked as evidence_links), not facts read from the binary"}
}

// NoteWriteRequest is one note operation's write.
type NoteWriteRequest struct {
	InputPath    string
	Architecture string
	Ledger       *evidence.Ledger
	// Operation is the tool that writes (set_comment, …); Actor who
	// asked (notes.Actor).
	Operation string
	Actor     string
	Changes   []notes.Change
	// Field names the argument an invalid address came from.
	Field string
}

// noteTarget opens the binary, reads its sections and segments in the
// sandbox and checks every address lies in one.
func (a *App) noteTarget(ctx context.Context, path, arch string, addrs []string, field string, progress func(abi.Progress)) (notes.Target, error) {
	in, err := openNative(path)
	if err != nil {
		return notes.Target{}, err
	}
	defer in.f.Close()
	var segs nativewire.Segments
	if _, err := a.runNative(ctx, in, nativewire.OpSegments, nativewire.Params{Architecture: arch}, &segs, progress); err != nil {
		return notes.Target{}, err
	}
	for _, s := range addrs {
		addr, err := nativewire.ParseAddr(s)
		if err != nil || s == "" {
			return notes.Target{}, abi.Errorf(abi.CodeInvalidRequest, "%q is not an address; write it as hex (0x401000) or decimal", s).
				WithDetail("field", field).WithDetail("reason", "invalid_address")
		}
		if !mapped(segs, addr) {
			return notes.Target{}, abi.Errorf(abi.CodeInvalidRequest, "address %s lies in no section or segment of %s, so nothing there can carry a note", addr, filepath.Base(in.abs)).
				WithDetail("field", field).WithDetail("reason", "address_unmapped").WithDetail("address", addr.String())
		}
	}
	t := segs.Target
	return notes.Target{SHA256: in.sha256, Name: in.info.Name(), Format: t.Format, Architecture: evidenceArch(t.Architecture), LocalPath: in.abs}, nil
}

func mapped(segs nativewire.Segments, a nativewire.Addr) bool {
	for _, s := range segs.Segments {
		if a >= s.Address && uint64(a-s.Address) < s.MemorySize {
			return true
		}
	}
	for _, s := range segs.Sections {
		if a >= s.Address && uint64(a-s.Address) < s.Size && s.Address != 0 {
			return true
		}
	}
	return false
}

// WriteNotes checks and records note changes.
func (a *App) WriteNotes(ctx context.Context, req NoteWriteRequest, progress func(abi.Progress)) (*notes.Result, error) {
	if req.Ledger == nil {
		return nil, abi.Errorf(abi.CodeInternal, "%s has no ledger to record notes in", req.Operation)
	}
	if len(req.Changes) == 0 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s needs at least one address", req.Operation).WithDetail("field", req.Field)
	}
	if len(req.Changes) > notes.MaxBatch {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%d addresses; at most %d are named in one call", len(req.Changes), notes.MaxBatch).
			WithDetail("field", req.Field).WithDetail("maximum", notes.MaxBatch)
	}
	addrs := make([]string, len(req.Changes))
	for i, c := range req.Changes {
		if _, err := notes.Validate(c, req.Field); err != nil {
			return nil, err
		}
		addrs[i] = c.Address
	}
	t, err := a.noteTarget(ctx, req.InputPath, req.Architecture, addrs, req.Field, progress)
	if err != nil {
		return nil, err
	}
	if req.Operation == "unset_bookmark" {
		addr, _ := nativewire.ParseAddr(req.Changes[0].Address)
		if _, ok := notes.Load(req.Ledger, t.SHA256).At(notes.KindBookmark, addr); !ok {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "there is no bookmark at %s", addr).WithDetail("field", "address").WithDetail("reason", "not_found")
		}
	}
	if ctx.Err() != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "%s was cancelled before anything was recorded", req.Operation)
	}
	return notes.Write(req.Ledger, t, req.Operation, req.Actor, time.Now(), req.Changes)
}

// NoteReadRequest reads notes of one binary.
type NoteReadRequest struct {
	InputPath    string
	Architecture string
	Ledger       *evidence.Ledger
	Address      string
	Offset       int
	Limit        int
}

// NoteRead is comment's and inline_comment's answer.
type NoteRead struct {
	Document  string           `json:"document"`
	Address   string           `json:"address"`
	Kind      string           `json:"kind"`
	Value     *string          `json:"value"`
	Note      *notes.Note      `json:"note"`
	Authority string           `json:"authority"`
	Conflicts []notes.Conflict `json:"conflicts,omitempty"`
}

// ReadNote reads the comment or inline comment at an address.
func (a *App) ReadNote(ctx context.Context, kind string, req NoteReadRequest, progress func(abi.Progress)) (*NoteRead, error) {
	t, err := a.noteTarget(ctx, req.InputPath, req.Architecture, []string{req.Address}, "address", progress)
	if err != nil {
		return nil, err
	}
	addr, _ := nativewire.ParseAddr(req.Address)
	v := notes.Load(req.Ledger, t.SHA256)
	out := &NoteRead{Document: t.Name, Address: addr.String(), Kind: kind, Authority: string(evidence.AuthorityAnalystInference)}
	if n, ok := v.At(kind, addr); ok {
		s := n.Value
		out.Value, out.Note = &s, &n
	}
	for _, c := range v.Conflicts {
		if c.Kind == kind && c.Address == addr.String() {
			out.Conflicts = append(out.Conflicts, c)
		}
	}
	return out, nil
}

// Bookmarks is list_bookmarks' page.
type Bookmarks struct {
	Document  string               `json:"document"`
	Authority string               `json:"authority"`
	Bookmarks abi.Page[notes.Note] `json:"bookmarks"`
	Conflicts []notes.Conflict     `json:"conflicts"`
}

// NotesPage applies list_bookmarks' paging defaults and bounds.
func NotesPage(offset, limit int) (int, int, error) {
	if offset < 0 || offset > 1<<31 {
		return 0, 0, abi.Errorf(abi.CodeInvalidRequest, "offset must be between 0 and 2^31").WithDetail("field", "offset")
	}
	if limit == 0 {
		limit = 100
	}
	if limit < 1 || limit > 500 {
		return 0, 0, abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and 500").WithDetail("field", "limit").WithDetail("maximum", 500)
	}
	return offset, limit, nil
}

// ListBookmarks pages a binary's bookmarks. It reads the notes only: the
// binary is hashed, not analysed.
func (a *App) ListBookmarks(ctx context.Context, req NoteReadRequest) (*Bookmarks, error) {
	off, lim, err := NotesPage(req.Offset, req.Limit)
	if err != nil {
		return nil, err
	}
	in, err := openNative(req.InputPath)
	if err != nil {
		return nil, err
	}
	in.f.Close()
	v := notes.Load(req.Ledger, in.sha256)
	out := &Bookmarks{Document: in.info.Name(), Authority: string(evidence.AuthorityAnalystInference), Conflicts: []notes.Conflict{}}
	for _, c := range v.Conflicts {
		if c.Kind == notes.KindBookmark {
			out.Conflicts = append(out.Conflicts, c)
		}
	}
	all := v.All(notes.KindBookmark)
	if all == nil {
		all = []notes.Note{}
	}
	out.Bookmarks = abi.PageOf(all, off, lim)
	return out, nil
}

// AddressName is address_name: the analyst's name at an address, else
// the binary's primary name, each also reported on its own, as Evidence.
func (a *App) AddressName(ctx context.Context, r NativeContextRequest, progress func(abi.Progress)) (evidence.Record, error) {
	if r.Address == "" {
		if r.Cursor == nil {
			return evidence.Record{}, noCursor()
		}
		r.Address = r.Cursor.Address.String()
	}
	req := r.native(r.Address)
	req.Notes = r.Notes
	src := a.notesFor(r.Notes)
	return a.composeNative(ctx, "address_name", req, progress,
		func(run runFunc, p nativewire.Params) (nativewire.Target, any, error) {
			var names nativewire.Names
			np := p
			np.Limit = nativewire.MaxLimit
			if err := run(nativewire.OpNames, np, &names); err != nil {
				return nativewire.Target{}, nil, err
			}
			var binary any
			for _, n := range names.Names.Items {
				if n.Address != *p.Address {
					continue
				}
				if n.Primary || binary == nil {
					binary = n.Name
				}
				if n.Primary {
					break
				}
			}
			out := map[string]any{"document": r.Document.Name, "address": p.Address.String(), "binary_name": binary, "analyst_name": nil,
				"name": binary, "name_source": nil}
			if binary != nil {
				out["name_source"] = "binary"
			}
			if src != nil {
				if n, ok := src(r.Document.SHA256).At(notes.KindName, *p.Address); ok {
					out["analyst_name"], out["name"], out["name_source"] = n, n.Value, "analyst"
				}
			}
			return names.Target, out, nil
		})
}

// AddressNameOf is address_name for the CLI: the binary by path, the
// App's notes.
func (a *App) AddressNameOf(ctx context.Context, path, address string, progress func(abi.Progress)) (evidence.Record, error) {
	in, err := openNative(path)
	if err != nil {
		return evidence.Record{}, err
	}
	in.f.Close()
	doc := NativeDocument{Name: filepath.Base(in.abs), Path: in.abs, SHA256: in.sha256}
	return a.AddressName(ctx, NativeContextRequest{Document: doc, Address: address}, progress)
}
