package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"rea/abi"
	"rea/analysis/compare/exports/exportswire"
	"rea/host/evidence"
	"rea/host/regularfile"
)

// maxExportSourceBytes bounds the module source read for a shape.
const maxExportSourceBytes = 8 << 20

// ExportSelector names one export of one module of an analysis.
type ExportSelector struct {
	ModulePath string `json:"module_path"`
	ExportName string `json:"export_name"`
}

// CompareExportShapesRequest selects the export on each side.
type CompareExportShapesRequest struct {
	Left   ExportSelector     `json:"left"`
	Right  ExportSelector     `json:"right"`
	Limits exportswire.Limits `json:"limits"`
}

// exportSide builds one side: the analysis's modules, the selector and
// the module's source, read from the analysed directory only when its
// bytes still match the digest the analysis recorded.
func exportSide(rec evidence.Record, sel ExportSelector, field string) (exportswire.Side, error) {
	if _, err := applicationSource(rec, field); err != nil {
		return exportswire.Side{}, err
	}
	var a struct {
		Application struct {
			Modules []exportswire.Module `json:"modules"`
		} `json:"application"`
	}
	if err := json.Unmarshal(rec.NormalizedResult, &a); err != nil {
		return exportswire.Side{}, abi.Errorf(abi.CodeEvidenceIntegrity, "%s: the analysis in %s does not decode: %v", field, rec.EvidenceID, err).WithDetail("field", field)
	}
	side := exportswire.Side{EvidenceID: rec.EvidenceID, Modules: a.Application.Modules, ModulePath: sel.ModulePath, ExportName: sel.ExportName}
	if side.Modules == nil {
		side.Modules = []exportswire.Module{}
	}
	var digest string
	for _, m := range side.Modules {
		if m.Path == sel.ModulePath {
			digest = m.SHA256
		}
	}
	if digest == "" {
		return side, nil // the module reports the missing selector with candidates
	}
	src, why := readModuleSource(rec, sel.ModulePath, digest)
	if why != "" {
		side.SourceUnavailable = why
	} else {
		side.Source = &src
	}
	return side, nil
}

// readModuleSource reads a module of an analysed directory, refusing bytes
// that no longer match the analysis.
func readModuleSource(rec evidence.Record, modulePath, digest string) (string, string) {
	if rec.Subject == nil || rec.Subject.LocalPath == "" {
		return "", "the analysis names no local input to read the module from; re-run analyze_javascript_application on this machine"
	}
	st, err := os.Stat(rec.Subject.LocalPath)
	if err != nil {
		return "", "the analysed input is no longer readable here; re-run analyze_javascript_application"
	}
	if !st.IsDir() {
		return "", "the analysed input is an archive; extract it (extract_artifact), analyse the directory and compare that analysis"
	}
	root, err := os.OpenRoot(rec.Subject.LocalPath)
	if err != nil {
		return "", "the analysed directory cannot be opened"
	}
	defer root.Close()
	f, err := regularfile.OpenIn(root, filepath.FromSlash(modulePath))
	if err != nil {
		return "", "the module is no longer in the analysed directory"
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxExportSourceBytes+1))
	if err != nil || len(b) > maxExportSourceBytes {
		return "", "the module cannot be read whole (larger than 8 MiB or unreadable)"
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != digest {
		return "", "the module's bytes changed since the analysis (digest differs); re-run analyze_javascript_application"
	}
	return string(b), ""
}

// CompareJavaScriptExportShapes abstracts one export per side into a
// bounded, execution-free value lattice and reports the differences at
// JSON Pointer paths. A missing or duplicate selector, an unreadable
// module or an unmodelled value makes the comparison unknown, with
// candidates and a controlled-replay recommendation. The result is
// derived Evidence linking both analyses; its subject is the right one.
func (a *App) CompareJavaScriptExportShapes(ctx context.Context, left, right evidence.Record, req CompareExportShapesRequest, progress func(abi.Progress)) (evidence.Record, error) {
	l, err := exportSide(left, req.Left, "left")
	if err != nil {
		return evidence.Record{}, err
	}
	r, err := exportSide(right, req.Right, "right")
	if err != nil {
		return evidence.Record{}, err
	}
	params := exportswire.Request{Left: l, Right: r, Limits: req.Limits}
	if err := params.Validate(); err != nil {
		return evidence.Record{}, err
	}
	req.Limits = params.Limits
	result, limitations, version, err := a.runDerived(ctx, "compare_javascript_export_shapes", params, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "compare_javascript_export_shapes was cancelled; nothing was recorded")
	}
	return evidence.New(evidence.Draft{
		Subject:   subjectOf(right),
		Provider:  evidence.Provider{ID: "rea.export-shape-comparison", Name: "rea JavaScript export shape comparison", Version: version},
		Operation: "compare_javascript_export_shapes",
		Parameters: map[string]any{
			"left":   map[string]any{"application": evidence.ReferenceTo(left.EvidenceID), "module_path": req.Left.ModulePath, "export_name": req.Left.ExportName},
			"right":  map[string]any{"application": evidence.ReferenceTo(right.EvidenceID), "module_path": req.Right.ModulePath, "export_name": req.Right.ExportName},
			"limits": req.Limits,
		},
		NormalizedResult: result,
		Confidence:       evidence.ConfidenceDerived,
		Limitations:      limitations,
		EvidenceLinks:    linksOf([]evidence.Record{left, right}),
	})
}
