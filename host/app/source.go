package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/jssource/sourcewire"
	"rea/host/evidence"
	"rea/host/sandbox"
)

// SourceModule reads, searches and unpacks application JavaScript.
const SourceModule = "source"

// SourceInput is the application a source operation reads: the same
// input analyze_javascript_application takes, inventoried the same way,
// so a source_ref of an analysis names the same bytes.
type SourceInput struct {
	InputPath string `json:"input_path"`
	Format    string `json:"format,omitempty"`
	inventory.Limits
}

// ReadSourceRequest is read_javascript_source's input.
type ReadSourceRequest struct {
	SourceInput
	sourcewire.ReadRequest
	// Offset is the first line of the page (0-based); nil pages from the
	// context before the focus.
	Offset *int `json:"offset,omitempty"`
}

// SearchTextRequest is search_application_text's input.
type SearchTextRequest struct {
	SourceInput
	sourcewire.SearchRequest
}

// UnpackBundleRequest is unpack_javascript_bundle's input.
type UnpackBundleRequest struct {
	SourceInput
	sourcewire.UnpackRequest
	// OutputDir must not exist; empty means a fresh temporary directory.
	OutputDir string `json:"output_dir,omitempty"`
}

// ExtractSourcesRequest is extract_source_map_sources' input.
type ExtractSourcesRequest struct {
	SourceInput
	sourcewire.ExtractRequest
	OutputDir string `json:"output_dir,omitempty"`
}

// SourceResult is what a source operation found, tied to the inventory
// whose bytes it read.
type SourceResult struct {
	ApplicationRoot     string             `json:"application_root"`
	RootArtifactSHA256  string             `json:"root_artifact_sha256"`
	InventoryManifestID string             `json:"inventory_manifest_id"`
	Result              json.RawMessage    `json:"result"`
	Provenance          ArtifactProvenance `json:"provenance"`
}

// WrittenResult is an unpack or extraction: the Evidence, and where the
// files are (beside the Evidence, never in it: paths are no identity).
type WrittenResult struct {
	Evidence  evidence.Record
	OutputDir string
	Files     int
}

// sourceTree is an inventoried application mounted for the source module.
type sourceTree struct {
	tree     *treeFS
	scan     *artifactScan
	rel      string
	cacheKey string
	close    func()
}

// openSourceTree inventories the input and exposes exactly its bytes.
func (a *App) openSourceTree(ctx context.Context, in SourceInput, progress func(abi.Progress)) (*sourceTree, error) {
	if in.InputPath == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the application (input_path): the directory, .asar or installed layout analyze_javascript_application read").WithDetail("field", "input_path")
	}
	abs, rel, format, err := applicationRoot(in.InputPath, in.Format)
	if err != nil {
		return nil, err
	}
	go func() { _, _, _ = a.Runner.Compile(context.WithoutCancel(ctx), SourceModule, a.Config.Limits) }()
	scan, err := a.scanArtifact(ctx, ArtifactRequest{InputPath: abs, Format: format, Limits: in.Limits}, progress)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(scan.input.mountDir)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot open %q: %v", scan.input.mountDir, err)
	}
	tree, _ := scan.applicationTree(root)
	return &sourceTree{tree: tree, scan: scan, rel: rel, cacheKey: "source-tree:" + scan.graph.manifestID + ":" + scan.digest,
		close: func() { _ = root.Close() }}, nil
}

// run calls the source module over the tree; results are cached by the
// inventory's digests, so a repeated read or search costs no module run.
func (s *sourceTree) run(ctx context.Context, a *App, op string, params any, progress func(abi.Progress)) (*sandbox.Outcome, error) {
	out, err := a.Runner.Run(ctx, sandbox.Call{Module: SourceModule, Operation: op, Params: params,
		Mounts: []sandbox.Mount{{GuestPath: "/in", FS: s.tree}}, Limits: a.Config.Limits, Progress: progress, CacheKey: s.cacheKey})
	if err != nil {
		return nil, err
	}
	if t := s.tree.Tampered(); len(t) > 0 {
		return nil, abi.Errorf(abi.CodeArtifactIntegrity, "%d file(s) changed between the inventory and the read (first: %s); the input is being modified — read a copy", len(t), t[0]).
			WithDetail("logical_paths", t)
	}
	return out, nil
}

// record makes the Evidence of a source operation.
func (s *sourceTree) record(op string, params any, out *sandbox.Outcome, limitations []string) (evidence.Record, error) {
	res := SourceResult{ApplicationRoot: s.rel, RootArtifactSHA256: s.scan.digest, InventoryManifestID: s.scan.graph.manifestID, Result: out.Result,
		Provenance: ArtifactProvenance{Module: out.Module.Name, ModuleSHA256: out.Module.SHA256, ABIVersion: out.Module.ABIVersion,
			SandboxLimits: ReportLimits(out.Limits), FuelUsed: out.Usage.FuelUsed}}
	version := out.Module.SHA256
	// The inventory's limits, with their defaults, are part of the request:
	// spellings of one request are one identity, as for the analysis.
	if b, err := json.Marshal(params); err == nil {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && m != nil {
			if lb, err := json.Marshal(s.scan.req.Limits); err == nil {
				_ = json.Unmarshal(lb, &m)
			}
			params = m
		}
	}
	return evidence.New(evidence.Draft{
		Subject: &evidence.Subject{Name: filepath.Base(s.scan.input.abs), Digest: evidence.Digest{SHA256: s.scan.digest},
			Format: s.scan.res.Format, LocalPath: s.scan.input.abs},
		Provider:         evidence.Provider{ID: "rea.javascript-source", Name: "rea JavaScript source reader", Version: &version},
		Operation:        op,
		Parameters:       params,
		NormalizedResult: res,
		Limitations:      limitations,
	})
}

// limitationsOf reads a module result's limitations.
func limitationsOf(raw json.RawMessage) []string {
	var l struct {
		Limitations []string `json:"limitations"`
	}
	_ = json.Unmarshal(raw, &l)
	return l.Limitations
}

// checkRef refuses a source_ref whose digest is not the inventoried one.
func (s *sourceTree) checkRef(ref *sourcewire.SourceRef) error {
	if ref == nil || ref.SHA256 == "" {
		return nil
	}
	n := s.tree.nodes[ref.Path]
	if n == nil || n.dir {
		return abi.Errorf(abi.CodeInvalidRequest, "source_ref names %s, which is not a file of this application", ref.Path).WithDetail("field", "source_ref.path")
	}
	if n.expect != "" && n.expect != ref.SHA256 {
		return abi.Errorf(abi.CodeArtifactIntegrity, "%s has sha256 %s here, but the source_ref was made from bytes with %s; re-run analyze_javascript_application on this input", ref.Path, n.expect, ref.SHA256).
			WithDetail("field", "source_ref.sha256")
	}
	return nil
}

// spansThreshold: bundles above this size get their module list from a
// cached spans run, so later reads name the module without parsing again.
const spansThreshold = 256 << 10

// ReadJavaScriptSource returns one page of an application's source.
func (a *App) ReadJavaScriptSource(ctx context.Context, req ReadSourceRequest, progress func(abi.Progress)) (evidence.Record, error) {
	st, err := a.openSourceTree(ctx, req.SourceInput, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	defer st.close()
	if err := st.checkRef(req.SourceRef); err != nil {
		return evidence.Record{}, err
	}
	p := req.ReadRequest
	p.Root, p.Spans, p.OffsetSet = "/in", nil, false
	if req.Offset != nil {
		p.Offset, p.OffsetSet = *req.Offset, true
	}
	file := p.Path
	if p.SourceRef != nil {
		file = p.SourceRef.Path
	}
	if n := st.tree.nodes[file]; n != nil && !n.dir && n.size > spansThreshold && p.Module == "" && isScript(file) {
		// The module list of a large bundle, cached by its digest.
		if out, err := st.run(ctx, a, sourcewire.OpSpans, sourcewire.SpansRequest{Root: "/in", Path: file, MaxFileBytes: p.MaxFileBytes}, progress); err == nil {
			var sp sourcewire.SpansResult
			if json.Unmarshal(out.Result, &sp) == nil {
				p.Spans = &sp
			}
		}
	}
	out, err := st.run(ctx, a, sourcewire.OpRead, struct {
		sourcewire.ReadRequest
		Memory int64 `json:"memory_limit_bytes"`
	}{p, int64(a.Config.Limits.WithDefaults().MemoryBytes)}, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	// The file's digest is the inventory's (the module does not hash).
	var res map[string]any
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeModuleFailed, "the source module answered with an unreadable result: %v", err)
	}
	if path, _ := res["path"].(string); st.tree.nodes[path] != nil {
		res["sha256"] = st.tree.nodes[path].expect
	}
	if out.Result, err = json.Marshal(res); err != nil {
		return evidence.Record{}, err
	}
	params := p
	params.Root, params.Spans = "", nil
	return st.record("read_javascript_source", params, out, limitationsOf(out.Result))
}

func isScript(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".js", ".cjs", ".mjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

// SearchApplicationText searches an application's text files and bundled
// modules.
func (a *App) SearchApplicationText(ctx context.Context, req SearchTextRequest, progress func(abi.Progress)) (evidence.Record, error) {
	st, err := a.openSourceTree(ctx, req.SourceInput, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	defer st.close()
	p := req.SearchRequest
	p.Root = "/in"
	p.Digests = map[string]string{}
	for path, n := range st.tree.nodes {
		if !n.dir && n.expect != "" {
			p.Digests[path] = n.expect
		}
	}
	out, err := st.run(ctx, a, sourcewire.OpSearch, p, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	params := p
	params.Root, params.Digests = "", nil
	return st.record("search_application_text", params, out, limitationsOf(out.Result))
}

// written is the files part of an unpack or extraction result.
type written struct {
	Files       []sourcewire.OutputFile `json:"files"`
	Limitations []string                `json:"limitations"`
}

// writeOutputs writes a module's files under a new output directory
// (through os.Root: no path can leave it) and returns the result without
// the contents, which the files now hold.
func writeOutputs(ctx context.Context, raw json.RawMessage, outputDir string) (json.RawMessage, string, int, error) {
	var w written
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, "", 0, abi.Errorf(abi.CodeModuleFailed, "the source module answered with an unreadable result: %v", err)
	}
	stage, err := newExtractionStage(outputDir)
	if err != nil {
		return nil, "", 0, err
	}
	defer stage.discard()
	root, err := os.OpenRoot(stage.dir)
	if err != nil {
		return nil, "", 0, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot open the output directory: %v", err)
	}
	defer root.Close()
	for _, f := range w.Files {
		if err := ctx.Err(); err != nil {
			return nil, "", 0, abi.Errorf(abi.CodeCancelled, "cancelled while writing; nothing was published")
		}
		p := filepath.FromSlash(f.Path)
		if !filepath.IsLocal(p) {
			return nil, "", 0, abi.Errorf(abi.CodeModuleFailed, "the source module named output path %q, which is not local; nothing was written", f.Path)
		}
		if d := filepath.Dir(p); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return nil, "", 0, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot create %s: %v", d, err)
			}
		}
		if err := root.WriteFile(p, []byte(f.Content), 0o644); err != nil {
			return nil, "", 0, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot write %s: %v", f.Path, err)
		}
	}
	dir, err := stage.publish(ctx)
	if err != nil {
		return nil, "", 0, err
	}
	// The Evidence keeps each file's path, digest and size, not its bytes.
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	files := make([]map[string]any, 0, len(w.Files))
	for _, f := range w.Files {
		files = append(files, map[string]any{"path": f.Path, "sha256": f.SHA256, "bytes": f.Bytes})
	}
	m["files"] = files
	slim, err := json.Marshal(m)
	return slim, dir, len(w.Files), err
}

// UnpackJavaScriptBundle writes a bundle's modules as files.
func (a *App) UnpackJavaScriptBundle(ctx context.Context, req UnpackBundleRequest, progress func(abi.Progress)) (*WrittenResult, error) {
	return a.writeFromSource(ctx, req.SourceInput, req.OutputDir, sourcewire.OpUnpack, "unpack_javascript_bundle", func(root string) any {
		p := req.UnpackRequest
		p.Root = root
		return p
	}, progress)
}

// ExtractSourceMapSources writes the sourcesContent of present maps.
func (a *App) ExtractSourceMapSources(ctx context.Context, req ExtractSourcesRequest, progress func(abi.Progress)) (*WrittenResult, error) {
	return a.writeFromSource(ctx, req.SourceInput, req.OutputDir, sourcewire.OpExtract, "extract_source_map_sources", func(root string) any {
		p := req.ExtractRequest
		p.Root = root
		return p
	}, progress)
}

// writeFromSource runs a source operation that returns files and writes
// them under a new output directory; params gives the module's request
// with its mount root ("" for the Evidence's parameters).
func (a *App) writeFromSource(ctx context.Context, in SourceInput, outputDir, op, name string, params func(root string) any, progress func(abi.Progress)) (*WrittenResult, error) {
	if err := checkNewDir(outputDir); err != nil {
		return nil, err
	}
	st, err := a.openSourceTree(ctx, in, progress)
	if err != nil {
		return nil, err
	}
	defer st.close()
	out, err := st.run(ctx, a, op, params("/in"), progress)
	if err != nil {
		return nil, err
	}
	slim, dir, n, err := writeOutputs(ctx, out.Result, outputDir)
	if err != nil {
		return nil, err
	}
	out.Result = slim
	rec, err := st.record(name, params(""), out, limitationsOf(slim))
	return &WrittenResult{Evidence: rec, OutputDir: dir, Files: n}, err
}

func checkNewDir(dir string) error {
	if dir == "" {
		return nil
	}
	if _, err := os.Lstat(dir); err == nil {
		return abi.Errorf(abi.CodeInvalidRequest, "output directory %q already exists; rea never writes into an existing directory, so name a new one", dir).
			WithDetail("field", "output_dir")
	}
	return nil
}

// ReadSourceRefs reads a few lines at each source_ref of one application,
// inventorying it once (the text report's --show-source). A ref that
// cannot be read has no entry.
func (a *App) ReadSourceRefs(ctx context.Context, in SourceInput, refs []sourcewire.SourceRef, lines int) (map[sourcewire.SourceRef][]sourcewire.Line, error) {
	st, err := a.openSourceTree(ctx, in, nil)
	if err != nil {
		return nil, err
	}
	defer st.close()
	out := map[sourcewire.SourceRef][]sourcewire.Line{}
	for _, ref := range refs {
		if _, done := out[ref]; done || st.checkRef(&ref) != nil {
			continue
		}
		r := ref
		res, err := st.run(ctx, a, sourcewire.OpRead, sourcewire.ReadRequest{Root: "/in", SourceRef: &r, ContextLines: 1, Limit: lines, MaxBytes: 4096}, nil)
		if err != nil {
			if ctx.Err() != nil {
				return out, err
			}
			continue
		}
		var page sourcewire.ReadResult
		if json.Unmarshal(res.Result, &page) == nil {
			out[ref] = page.Lines
		}
	}
	return out, nil
}
