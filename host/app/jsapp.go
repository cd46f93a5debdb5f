package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/host/evidence"
	"rea/host/regularfile"
	"rea/host/sandbox"
	"rea/jsengine/report"
)

// JSAppModule is the module that analyses JavaScript/Electron applications.
const JSAppModule = "jsapp"

// NormaliseModule runs esbuild's Transform for the jsapp module's
// TypeScript, JSX and ESM files; it is loaded only when an application has
// such a file (host/sandbox's normaliser).
const NormaliseModule = "normalise"

// AnalyzeApplicationRequest is analyze_javascript_application's input.
type AnalyzeApplicationRequest struct {
	// InputPath is an application directory, an .asar file, or an installed
	// layout (X.app, a folder with resources/app.asar).
	InputPath string `json:"input_path"`
	// Format is auto (default), asar or directory.
	Format                 string `json:"format,omitempty"`
	IntegrityPolicy        string `json:"integrity_policy,omitempty"`
	MaxIntegrityMismatches int    `json:"max_integrity_mismatches,omitempty"`
	// Options bound the analysis (max_text_files, max_ast_nodes, …).
	report.Options
	// Limits bound what the input container may declare, named as
	// inspect_artifact names them (max_entries, max_depth, …): an
	// application with more files than the default allows is analysed by
	// raising them.
	inventory.Limits
}

// ApplicationAnalysis is the normalized result of
// analyze_javascript_application: what the jsapp module found, tied to the
// inventory whose bytes it read.
type ApplicationAnalysis struct {
	SchemaVersion int    `json:"schema_version"`
	Format        string `json:"format"`
	// ApplicationRoot is the analysed root relative to the input
	// ("." or, for an installed layout, e.g. "resources/app.asar").
	ApplicationRoot         string                   `json:"application_root"`
	RootArtifactSHA256      string                   `json:"root_artifact_sha256"`
	InventoryManifestID     string                   `json:"inventory_manifest_id"`
	IntegrityPolicy         string                   `json:"integrity_policy"`
	IntegrityContradictions []IntegrityContradiction `json:"integrity_contradictions"`
	Application             report.Result            `json:"application"`
	Coverage                string                   `json:"coverage"`
	Limitations             []string                 `json:"limitations"`
	Provenance              ArtifactProvenance       `json:"provenance"`
}

// AnalyzeApplicationResult is the Evidence record and the analysis it holds.
type AnalyzeApplicationResult struct {
	Evidence evidence.Record
	// Outcome is what a gate reads of the analysis, at hand without
	// decoding it.
	Outcome ApplicationOutcome

	once     sync.Once
	analysis *ApplicationAnalysis
	encoded  []byte // a cache hit's analysis, decoded on first use
	err      error
}

// ApplicationOutcome is what a CI gate and its one-line explanation read
// of an analysis: coverage, findings and why the coverage is partial.
type ApplicationOutcome struct {
	Coverage      string           `json:"coverage"`
	Findings      []report.Finding `json:"findings"`
	PartialReason string           `json:"partial_reason"`
}

// newApplicationResult pairs a sealed record with the analysis it holds.
func newApplicationResult(rec evidence.Record, analysis *ApplicationAnalysis) *AnalyzeApplicationResult {
	return &AnalyzeApplicationResult{Evidence: rec, Outcome: analysis.outcome(), analysis: analysis}
}

// Analysis returns the analysis the record holds. A result served from
// the application result cache decodes it here, on first use: printing
// the record or judging the outcome does not need it. The bytes were
// checked against their digest when the entry was read and decoded once
// before they were stored, so an error means a defect, not bad input.
func (r *AnalyzeApplicationResult) Analysis() (*ApplicationAnalysis, error) {
	r.once.Do(func() {
		if r.analysis != nil || r.err != nil {
			return
		}
		var a ApplicationAnalysis
		if err := json.Unmarshal(r.encoded, &a); err != nil {
			r.err = abi.Errorf(abi.CodeInternal, "the cached analysis cannot be decoded: %v; run `rea cache clear`", err)
			return
		}
		r.analysis, r.encoded = &a, nil
	})
	return r.analysis, r.err
}

func (a *ApplicationAnalysis) outcome() ApplicationOutcome {
	o := ApplicationOutcome{Coverage: a.Coverage, Findings: a.Application.Findings}
	if a.Coverage != "complete" {
		o.PartialReason = a.PartialReason()
	}
	return o
}

// PartialReason says in one line why the coverage is partial: the limits
// reached, the integrity contradictions, or else the limitations.
func (a *ApplicationAnalysis) PartialReason() string {
	var parts []string
	for _, l := range a.Application.Coverage.LimitsReached {
		parts = append(parts, fmt.Sprintf("limit %s=%d reached, %d omitted", l.Limit, l.Value, l.Omitted))
	}
	if len(a.IntegrityContradictions) > 0 {
		parts = append(parts, fmt.Sprintf("%d integrity contradictions recorded", len(a.IntegrityContradictions)))
	}
	if len(parts) == 0 {
		parts = a.Limitations
	}
	return strings.Join(parts, "; ")
}

// applicationRoot finds what to analyse inside an input: an .asar file, an
// installed layout's app.asar or app directory, or the directory itself.
func applicationRoot(input, format string) (abs, rel, kind string, err error) {
	abs, err = filepath.Abs(input)
	if err != nil {
		return "", "", "", abi.Errorf(abi.CodeInvalidRequest, "input_path: %v", err).WithDetail("field", "input_path")
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", "", "", abi.Errorf(abi.CodeInvalidRequest, "cannot read %q: %v; check the path", input, err).WithDetail("field", "input_path")
	}
	switch format {
	case "", "auto":
	case inventory.FormatASAR:
		if st.IsDir() {
			return "", "", "", abi.Errorf(abi.CodeInvalidRequest, "format asar needs an .asar file, and %q is a directory", input).WithDetail("field", "format")
		}
		return abs, ".", inventory.FormatASAR, nil
	case inventory.FormatDirectory:
		if !st.IsDir() {
			return "", "", "", abi.Errorf(abi.CodeInvalidRequest, "format directory needs a directory, and %q is a file", input).WithDetail("field", "format")
		}
		return abs, ".", inventory.FormatDirectory, nil
	default:
		return "", "", "", abi.Errorf(abi.CodeInvalidRequest, "format %q is not one of auto, asar, directory", format).WithDetail("field", "format")
	}
	if !st.IsDir() {
		return abs, ".", inventory.FormatASAR, nil
	}
	// Installed layouts: macOS bundles, then Windows/Linux resources/.
	for _, cand := range []string{"Contents/Resources/app.asar", "Contents/Resources/app", "resources/app.asar", "resources/app"} {
		p := filepath.Join(abs, filepath.FromSlash(cand))
		if cst, err := os.Stat(p); err == nil {
			if cst.IsDir() {
				return p, cand, inventory.FormatDirectory, nil
			}
			return p, cand, inventory.FormatASAR, nil
		}
	}
	return abs, ".", inventory.FormatDirectory, nil
}

// AnalyzeJavaScriptApplication inventories the application (structure in
// the artifact module, bytes hashed and integrity checked in the host),
// mounts exactly the inventoried bytes read-only and runs the jsapp module
// over them. Analysed code is never executed.
func (a *App) AnalyzeJavaScriptApplication(ctx context.Context, req AnalyzeApplicationRequest, progress func(abi.Progress)) (*AnalyzeApplicationResult, error) {
	return a.analyzeApplication(ctx, req, progress, jsappTuning{})
}

// jsappTuning lets tests and benchmarks look inside one analysis.
type jsappTuning struct {
	// usage, when not nil, receives what the jsapp module runs consumed.
	usage *sandbox.Usage
	// shards, when not 0, replaces the shard count chosen by size.
	shards int
}

// analyzeApplication is AnalyzeJavaScriptApplication with tuning.
func (a *App) analyzeApplication(ctx context.Context, req AnalyzeApplicationRequest, progress func(abi.Progress), tune jsappTuning) (*AnalyzeApplicationResult, error) {
	if req.InputPath == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the application to analyse (input_path)").WithDetail("field", "input_path")
	}
	limits, err := req.Options.WithDefaults()
	if err != nil {
		return nil, err
	}
	abs, rel, format, err := applicationRoot(req.InputPath, req.Format)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	artReq := ArtifactRequest{
		InputPath: abs, Format: format, Limits: req.Limits,
		IntegrityPolicy: req.IntegrityPolicy, MaxIntegrityMismatches: req.MaxIntegrityMismatches,
		// The analysis reads the input's own files only (applicationTree):
		// archives among them — a test fixture's zip, a packed dependency —
		// are hashed as files, not listed, so a malformed one cannot fail it.
		topLevelOnly: true,
	}
	// A repeat over unchanged input is answered from the application result
	// cache before any module loads (appcache.go: the key is the host's walk
	// of the input's bytes, the request and the code).
	var cacheKey string
	var walk *inputWalk
	var keyInput artifactInput
	if tune == (jsappTuning{}) {
		if key, in, w, ok := a.applicationKey(req, artReq, rel, format, limits); ok {
			if hit := a.cachedApplicationResult(key, in); hit != nil {
				a.log.Debug("application served from the result cache", "wall", time.Since(started), "key", key[:16])
				return hit, nil
			}
			cacheKey, walk, keyInput = key, w, in
		}
	}
	// Load the jsapp module while the inventory runs (~0.2 s from the disk
	// cache for its 17 MB). Run waits for this same load; a failure is
	// reported there. Not cancelled with the request: a load cut short
	// would be remembered as failed.
	go func() { _, _, _ = a.Runner.Compile(context.WithoutCancel(ctx), JSAppModule, a.Config.Limits) }()
	// A directory's analysis starts now, on the key walk's tree, beside the
	// inventory (jsapp_early.go); the inventory's tree decides below
	// whether its answer stands.
	progress = serialProgress(progress)
	early := a.startEarly(ctx, walk, keyInput, limits, progress)
	scan, err := a.scanArtifact(ctx, artReq, progress)
	// The inventory is the artifact module's last use in this analysis.
	a.Runner.Done(ArtifactModule)
	if err != nil {
		early.stop()
		return nil, err
	}
	if early == nil && needsNormaliser(scan.res.Entries) {
		// Load the normaliser too while the jsapp module starts: it will
		// be asked for these files (a .js file may still need it; it is
		// then loaded on its first use).
		go func() { _, _, _ = a.Runner.Compile(context.WithoutCancel(ctx), NormaliseModule, a.Config.Limits) }()
	}
	root, err := os.OpenRoot(scan.input.mountDir)
	if err != nil {
		early.stop()
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot open %q: %v", scan.input.mountDir, err)
	}
	defer root.Close()
	tree, skipped := scan.applicationTree(root)
	inventoried := time.Now()
	a.log.Debug("application inventoried", "wall", inventoried.Sub(started), "entries", len(scan.res.Entries), "early", early != nil)
	res, out, err, kept := early.result(tree, skipped)
	if kept {
		tree = early.tree
	} else {
		if early != nil {
			a.log.Debug("early analysis dropped: the inventory's tree differs from the key walk's")
		}
		run := jsappRun{
			app: a, tree: tree, limits: limits, progress: progress, shards: tune.shards,
			// The tree serves exactly the inventoried bytes: a repeat is
			// served from the cache.
			cacheKey: "jsapp-tree:" + tree.contentKey(),
		}
		res, out, err = run.analyse(ctx)
	}
	if err != nil {
		return nil, err
	}
	analysed := time.Now()
	a.log.Debug("application analysed", "wall", analysed.Sub(inventoried), "fuel", out.Usage.FuelUsed, "memory", out.Usage.PeakMemoryBytes, "cached", out.Cached)
	if tune.usage != nil {
		*tune.usage = out.Usage
	}
	if t := tree.Tampered(); len(t) > 0 {
		return nil, abi.Errorf(abi.CodeArtifactIntegrity,
			"%d file(s) changed between the inventory and the analysis (first: %s); the input is being modified — analyse a copy", len(t), t[0]).
			WithDetail("logical_paths", t)
	}
	report.AttachSourceRefs(res, tree.fileDigests()) // every fact names its code for read_javascript_source
	analysis := &ApplicationAnalysis{
		SchemaVersion:           1,
		Format:                  format,
		ApplicationRoot:         rel,
		RootArtifactSHA256:      scan.digest,
		InventoryManifestID:     scan.graph.manifestID,
		IntegrityPolicy:         scan.req.IntegrityPolicy,
		IntegrityContradictions: append([]IntegrityContradiction{}, scan.graph.contradictions...),
		Application:             *res,
		Coverage:                res.Coverage.Status,
		Limitations:             append([]string{}, res.Limitations...),
		Provenance: ArtifactProvenance{Module: out.Module.Name, ModuleSHA256: out.Module.SHA256, ABIVersion: out.Module.ABIVersion,
			SandboxLimits: ReportLimits(out.Limits), FuelUsed: out.Usage.FuelUsed},
	}
	if len(analysis.IntegrityContradictions) > 0 || scan.partial {
		analysis.Coverage = "partial"
		analysis.Limitations = append(analysis.Limitations, scan.graph.limitations...)
	}
	if skipped > 0 {
		analysis.Limitations = append(analysis.Limitations,
			"Entries whose bytes are unavailable (missing .asar.unpacked companions) or inside nested containers were inventoried but not analysed as code.")
	}
	params := applicationParams(req, format, limits, scan.req)
	version := out.Module.SHA256
	rec, err := applicationEvidence(scan.input, analysis, params, version)
	if err != nil {
		return nil, err
	}
	a.log.Debug("evidence recorded", "wall", time.Since(analysed))
	if cacheKey != "" {
		if scan.matchesWalk(walk) {
			a.storeApplicationResult(cacheKey, rec, analysis)
		} else {
			a.log.Debug("application result not cached: the input changed during the analysis, or its inventory and the key's walk differ")
		}
	}
	return newApplicationResult(rec, analysis), nil
}

// applicationParams is the request as its evidence records it: no path,
// the detected format, every default applied (spellings of one request are
// one identity). art is the artifact request after validation.
func applicationParams(req AnalyzeApplicationRequest, format string, limits report.Options, art ArtifactRequest) AnalyzeApplicationRequest {
	params := req
	params.InputPath = ""  // paths never enter identity; the subject digest does
	params.Format = format // "", "auto" and the detected format are one request
	params.Options = limits
	params.Limits = art.Limits
	params.IntegrityPolicy = art.IntegrityPolicy
	params.MaxIntegrityMismatches = art.MaxIntegrityMismatches
	return params
}

// applicationEvidence seals an analysis as its Evidence record.
func applicationEvidence(in artifactInput, analysis *ApplicationAnalysis, params AnalyzeApplicationRequest, version string) (evidence.Record, error) {
	return evidence.New(evidence.Draft{
		Subject: &evidence.Subject{Name: filepath.Base(in.abs), Digest: evidence.Digest{SHA256: analysis.RootArtifactSHA256},
			Format: analysis.Format, LocalPath: in.abs},
		Provider:         evidence.Provider{ID: "rea.javascript-application", Name: "rea JavaScript application analysis", Version: &version},
		Operation:        "analyze_javascript_application",
		Parameters:       params,
		NormalizedResult: analysis,
		Limitations:      analysis.Limitations,
	})
}

// applicationKey validates the request as the inventory will and derives
// the application result cache key; ok is false when the answer is not to
// be cached.
func (a *App) applicationKey(req AnalyzeApplicationRequest, art ArtifactRequest, rel, format string, limits report.Options) (key string, in artifactInput, walk *inputWalk, ok bool) {
	v := art
	if v.validate() != nil {
		return "", in, nil, false // the inventory reports the error
	}
	in, err := resolveInput(art.InputPath)
	if err != nil {
		return "", in, nil, false
	}
	params := applicationParams(req, format, limits, v)
	key, walk = a.applicationCacheKey(in, rel, format, params)
	return key, in, walk, key != ""
}

// applicationTree exposes the input container's own files (not nested
// containers, not links) as a read-only tree of validated byte ranges.
// It returns how many files it left out because their bytes are not
// available.
func (s *artifactScan) applicationTree(root *os.Root) (*treeFS, int) {
	tree := newTreeFS()
	skipped := 0
	for i, e := range s.res.Entries {
		if e.Container != 0 {
			continue
		}
		switch {
		case e.Kind == inventory.KindDirectory:
			tree.ensureDir(e.Path)
		case e.Link != nil:
			// Recorded by the inventory; never followed.
		case e.Unpacked:
			if s.obs[i].status == "unavailable" {
				skipped++
				continue
			}
			tree.addFile(e.Path, e.Size, e.Executable, s.obs[i].sha256, func() (io.ReaderAt, io.Closer, error) {
				f, err := s.openUnpacked(root, i)
				if err != nil {
					return nil, nil, err
				}
				return f, f, nil
			})
		case e.Data != nil && e.Data.Compression == "":
			d := *e.Data
			tree.addFile(e.Path, d.Length, e.Executable, s.obs[i].sha256, openRange(root, d.File, d.Offset, d.Length))
		default:
			skipped++
		}
	}
	tree.seal()
	return tree, skipped
}

func openRange(root *os.Root, file string, off, n int64) func() (io.ReaderAt, io.Closer, error) {
	return func() (io.ReaderAt, io.Closer, error) {
		f, err := regularfile.OpenIn(root, file)
		if err != nil {
			return nil, nil, err
		}
		return io.NewSectionReader(f, off, n), f, nil
	}
}
