package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"rea/abi"
	"rea/analysis/compare/source"
	"rea/host/evidence"
	"rea/host/regularfile"
)

// ReferenceSourceOperation is the operation of imported reference trees.
const ReferenceSourceOperation = "import_reference_source"

// ImportReferenceSourceRequest names the source tree (a directory or a
// container the artifact module reads) and its scan limits.
type ImportReferenceSourceRequest struct {
	ArtifactRequest
}

// ImportReferenceSource inventories a reference source tree through the
// artifact module (the same scan as inspect_artifact, so every digest is
// the host's own hash of the bytes) and records its source files with
// their digests as a HistoricalSourceGraph/v1: the reference side of
// compare_source_to_bundle.
func (a *App) ImportReferenceSource(ctx context.Context, req ImportReferenceSourceRequest, progress func(abi.Progress)) (evidence.Record, error) {
	s, err := a.scanArtifact(ctx, req.ArtifactRequest, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	g := s.graph
	var files []source.File
	unavailable, nested := 0, 0
	for _, o := range g.occurrences {
		if o.EntryKind != "file" {
			continue
		}
		if o.ParentArtifactID != g.rootID {
			nested++
			continue
		}
		if o.ObservedSHA256 == nil {
			if source.LanguageOf(o.LogicalPath) != "" {
				unavailable++
			}
			continue
		}
		files = append(files, source.File{Path: o.LogicalPath, SHA256: *o.ObservedSHA256, Size: o.Size})
	}
	coverage := "complete"
	limitations := append([]string{}, g.limitations...)
	if s.partial || unavailable > 0 {
		coverage = "partial"
	}
	if unavailable > 0 {
		limitations = append(limitations, "some source files could not be read; they are not in the reference")
	}
	if nested > 0 {
		limitations = append(limitations, "files inside archives of the tree are not part of the reference")
	}
	params := struct {
		ManifestID  string        `json:"manifest_id"`
		RootSHA256  string        `json:"root_sha256"`
		Coverage    string        `json:"coverage"`
		Files       []source.File `json:"files"`
		Limitations []string      `json:"limitations"`
	}{g.manifestID, g.rootDigest, coverage, files, limitations}
	result, _, version, err := a.runDerived(ctx, "import_reference_source", params, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "import_reference_source was cancelled; nothing was recorded")
	}
	req.ArtifactRequest = s.req
	req.InputPath = "" // paths never enter identity; the subject digest does
	return evidence.New(evidence.Draft{
		Subject: &evidence.Subject{Name: filepath.Base(s.input.abs), Digest: evidence.Digest{SHA256: s.digest},
			Format: strings.ToLower(s.res.Format), LocalPath: s.input.abs},
		Provider:         evidence.Provider{ID: "rea.reference-source", Name: "rea reference source import", Version: version},
		Operation:        ReferenceSourceOperation,
		Parameters:       req,
		NormalizedResult: result,
		Limitations:      limitations,
	})
}

// CompareSourceRequest is compare_source_to_bundle's options.
type CompareSourceRequest struct {
	MaxCandidates int `json:"max_candidates,omitempty"`
}

// CompareSourceToBundle matches every file of an imported reference tree
// against an analysed application and classifies it unchanged, modified,
// removed, split, merged, duplicated or unknown. The result is derived
// Evidence linking both inputs; its subject is the application.
func (a *App) CompareSourceToBundle(ctx context.Context, reference, application evidence.Record, req CompareSourceRequest, progress func(abi.Progress)) (evidence.Record, error) {
	if reference.Operation != ReferenceSourceOperation {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest,
			"reference must be import_reference_source Evidence; %s is %s Evidence — run import_reference_source on the source tree and pass its evidence_id",
			reference.EvidenceID, reference.Operation).WithDetail("field", "reference").WithDetail("evidence_id", reference.EvidenceID)
	}
	app, err := applicationSource(application, "application")
	if err != nil {
		return evidence.Record{}, err
	}
	if req.MaxCandidates == 0 {
		req.MaxCandidates = 20
	}
	if req.MaxCandidates < 1 || req.MaxCandidates > 1000 {
		return evidence.Record{}, abi.Errorf(abi.CodeInvalidRequest, "max_candidates must be between 1 and 1000").WithDetail("field", "max_candidates")
	}
	maps, err := readSourceMaps(application)
	if err != nil {
		return evidence.Record{}, err
	}
	params := struct {
		Reference struct {
			EvidenceID string          `json:"evidence_id"`
			Graph      json.RawMessage `json:"graph"`
		} `json:"reference"`
		Application   json.RawMessage   `json:"application"`
		SourceMaps    []source.MapInput `json:"source_maps"`
		MaxCandidates int               `json:"max_candidates"`
	}{Application: app, SourceMaps: maps, MaxCandidates: req.MaxCandidates}
	params.Reference.EvidenceID = reference.EvidenceID
	params.Reference.Graph = withoutProvenance(reference.NormalizedResult)
	result, limitations, version, err := a.runDerived(ctx, "compare_source_to_bundle", params, progress)
	if err != nil {
		return evidence.Record{}, err
	}
	if ctx.Err() != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeCancelled, "compare_source_to_bundle was cancelled; nothing was recorded")
	}
	return evidence.New(evidence.Draft{
		Subject:   subjectOf(application),
		Provider:  evidence.Provider{ID: "rea.source-comparison", Name: "rea source to bundle comparison", Version: version},
		Operation: "compare_source_to_bundle",
		Parameters: map[string]any{
			"reference":      evidence.ReferenceTo(reference.EvidenceID),
			"application":    evidence.ReferenceTo(application.EvidenceID),
			"max_candidates": req.MaxCandidates,
		},
		NormalizedResult: result,
		Confidence:       evidence.ConfidenceDerived,
		Limitations:      limitations,
		EvidenceLinks:    linksOf([]evidence.Record{reference, application}),
	})
}

// withoutProvenance drops the provenance member a derived result carries,
// so a module's strict decoder reads only the graph.
func withoutProvenance(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw
	}
	delete(m, "provenance")
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// Bounds of the source maps read for compare_source_to_bundle.
const (
	maxSourceMaps     = 1000
	maxSourceMapBytes = 16 << 20
)

// readSourceMaps reads the source maps the analysis lists from the
// analysed directory, each with its digest (the result records it: the
// analysis lists maps but never reads them). A map that cannot be read is
// passed with the reason, and its original paths are simply not matched.
func readSourceMaps(rec evidence.Record) ([]source.MapInput, error) {
	var a struct {
		Application struct {
			SourceMaps []struct {
				Path       string   `json:"path"`
				Present    bool     `json:"present"`
				DeclaredBy []string `json:"declared_by"`
			} `json:"source_maps"`
		} `json:"application"`
	}
	if err := json.Unmarshal(rec.NormalizedResult, &a); err != nil {
		return nil, abi.Errorf(abi.CodeEvidenceIntegrity, "application: the analysis in %s does not decode: %v", rec.EvidenceID, err).WithDetail("field", "application")
	}
	out := []source.MapInput{}
	var root *os.Root
	why := ""
	switch st, err := os.Stat(localPathOf(rec)); {
	case localPathOf(rec) == "" || err != nil:
		why = "the analysed input is not readable here; re-run analyze_javascript_application on this machine"
	case !st.IsDir():
		why = "the analysed input is an archive; extract it (extract_artifact) and analyse the directory"
	default:
		if root, err = os.OpenRoot(localPathOf(rec)); err != nil {
			why = "the analysed directory cannot be opened"
		} else {
			defer root.Close()
		}
	}
	for i, m := range a.Application.SourceMaps {
		in := source.MapInput{Path: m.Path, DeclaredBy: m.DeclaredBy}
		switch {
		case i >= maxSourceMaps:
			in.Unavailable = fmt.Sprintf("more than %d source maps", maxSourceMaps)
		case !m.Present:
			in.Unavailable = "declared by a module but not in the application"
		case root == nil:
			in.Unavailable = why
		default:
			b, err := readBounded(root, m.Path, maxSourceMapBytes)
			if err != "" {
				in.Unavailable = err
				break
			}
			sum := sha256.Sum256(b)
			text := string(b)
			in.SHA256, in.Content = hex.EncodeToString(sum[:]), &text
		}
		out = append(out, in)
	}
	return out, nil
}

func localPathOf(rec evidence.Record) string {
	if rec.Subject == nil {
		return ""
	}
	return rec.Subject.LocalPath
}

// readBounded reads a file below root, refusing more than limit bytes.
func readBounded(root *os.Root, name string, limit int64) ([]byte, string) {
	f, err := regularfile.OpenIn(root, filepath.FromSlash(name))
	if err != nil {
		return nil, "not in the analysed directory"
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, "unreadable"
	}
	if int64(len(b)) > limit {
		return nil, fmt.Sprintf("larger than %d bytes", limit)
	}
	return b, ""
}
