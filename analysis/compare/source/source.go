// Package source compares a reference source tree (imported with
// import_reference_source as a HistoricalSourceGraph/v1) with an analysed
// application: which reference files ship unchanged, modified, split over
// several outputs, merged into one bundle, duplicated, removed, or cannot
// be told. Matching is by exact source digest, then the original paths of
// the application's source maps (compared through their sourcesContent),
// the module paths a bundler recorded, exact path, path suffix and
// basename — a weaker tier only when the stronger ones find nothing. Pure computation;
// builds natively and inside the compare wasm module.
package source

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"rea/abi"
	"rea/jsengine/report"
)

// Format names the reference source graph shape.
const Format = "HistoricalSourceGraph/v1"

// Per-file statuses.
const (
	StatusUnchanged  = "unchanged"
	StatusModified   = "modified"
	StatusRemoved    = "removed"
	StatusSplit      = "split"
	StatusMerged     = "merged"
	StatusDuplicated = "duplicated"
	StatusUnknown    = "unknown"
)

// Matching signals, strongest first.
const (
	SignalDigest    = "exact-source-digest"
	SignalSourceMap = "source-map-original-path"
	SignalBundleKey = "bundled-module-path"
	SignalPath      = "exact-path"
	SignalSuffix    = "path-suffix"
	SignalBasename  = "basename"
)

// Signals lists the tiers in order with their weights.
var Signals = []Signal{{SignalDigest, 1.0}, {SignalSourceMap, 0.95}, {SignalBundleKey, 0.9}, {SignalPath, 0.8}, {SignalSuffix, 0.6}, {SignalBasename, 0.3}}

// Signal is one matching tier.
type Signal struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
}

// File is one reference source file.
type File struct {
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	Language string `json:"language"`
}

// Reference is the normalized result of import_reference_source.
type Reference struct {
	SchemaVersion int      `json:"schema_version"`
	Format        string   `json:"format"`
	SourceGraphID string   `json:"source_graph_id"`
	ManifestID    string   `json:"manifest_id"`
	RootSHA256    string   `json:"root_sha256"`
	Coverage      string   `json:"coverage"`
	Files         []File   `json:"files"`
	SkippedFiles  int      `json:"skipped_non_source_files"`
	Limitations   []string `json:"limitations"`
}

// SourceExtensions are the files a reference tree contributes.
var SourceExtensions = map[string]string{".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "jsx",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx"}

// LanguageOf returns a source file's language, or "" for other files.
func LanguageOf(p string) string {
	if strings.HasSuffix(p, ".d.ts") {
		return ""
	}
	return SourceExtensions[strings.ToLower(path.Ext(p))]
}

// NewReference builds a reference graph from a tree's files (every file
// with its digest); non-source files are counted and left out. The id
// commits to the files, so one tree gives one id.
func NewReference(manifestID, rootSHA256, coverage string, all []File, limitations []string) *Reference {
	r := &Reference{SchemaVersion: 1, Format: Format, ManifestID: manifestID, RootSHA256: rootSHA256, Coverage: coverage,
		Files: []File{}, Limitations: append([]string{}, limitations...)}
	for _, f := range all {
		if lang := LanguageOf(f.Path); lang != "" {
			f.Language = lang
			r.Files = append(r.Files, f)
		} else {
			r.SkippedFiles++
		}
	}
	sort.Slice(r.Files, func(i, j int) bool { return r.Files[i].Path < r.Files[j].Path })
	b, _ := json.Marshal(struct {
		F []File
		C string
	}{r.Files, r.Coverage})
	sum := sha256.Sum256(b)
	r.SourceGraphID = "hsg_" + hex.EncodeToString(sum[:16])
	return r
}

// Application is the part of an application analysis this package reads.
type Application struct {
	SchemaVersion int           `json:"schema_version"`
	Coverage      string        `json:"coverage"`
	Application   report.Result `json:"application"`
}

// Request is the compare_source_to_bundle operation's input.
type Request struct {
	Reference struct {
		EvidenceID string    `json:"evidence_id"`
		Graph      Reference `json:"graph"`
	} `json:"reference"`
	Application struct {
		EvidenceID string      `json:"evidence_id"`
		Analysis   Application `json:"analysis"`
	} `json:"application"`
	// SourceMaps are the maps the analysis lists, read by the host from
	// the analysed directory (with their digest) or why they could not be.
	SourceMaps    []MapInput `json:"source_maps"`
	MaxCandidates int        `json:"max_candidates"`
}

// MapInput is one source map of the application.
type MapInput struct {
	Path        string   `json:"path"`
	DeclaredBy  []string `json:"declared_by"`
	SHA256      string   `json:"sha256,omitempty"`
	Content     *string  `json:"content,omitempty"`
	Unavailable string   `json:"unavailable,omitempty"`
}

// MapReport says what was read of one source map.
type MapReport struct {
	Path       string   `json:"path"`
	SHA256     string   `json:"sha256,omitempty"`
	DeclaredBy []string `json:"declared_by"`
	Sources    int      `json:"sources"`
	Status     string   `json:"status"` // read | unavailable | unreadable
	Reason     string   `json:"reason,omitempty"`
}

// maxMapSources bounds the sources read from one map.
const maxMapSources = 20000

// DecodeRequest decodes and checks the params.
func DecodeRequest(raw []byte) (*Request, error) {
	// Only the top level is strict: the inputs are Evidence results
	// that grow independently.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var top struct {
		Reference     json.RawMessage `json:"reference"`
		Application   json.RawMessage `json:"application"`
		SourceMaps    []MapInput      `json:"source_maps"`
		MaxCandidates int             `json:"max_candidates"`
	}
	if err := dec.Decode(&top); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "params: %v", err)
	}
	var req Request
	req.MaxCandidates, req.SourceMaps = top.MaxCandidates, top.SourceMaps
	if err := json.Unmarshal(top.Reference, &req.Reference); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "reference: %v", err).WithDetail("field", "reference")
	}
	if err := json.Unmarshal(top.Application, &req.Application); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "application: %v", err).WithDetail("field", "application")
	}
	if req.Reference.Graph.Format != Format {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "reference: format %q is not %s; run import_reference_source on the source tree", req.Reference.Graph.Format, Format).
			WithDetail("field", "reference")
	}
	if req.Application.Analysis.SchemaVersion != 1 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "application: analysis schema_version %d is not supported (want 1); re-run analyze_javascript_application",
			req.Application.Analysis.SchemaVersion).WithDetail("field", "application")
	}
	if req.MaxCandidates == 0 {
		req.MaxCandidates = 20
	}
	if req.MaxCandidates < 1 || req.MaxCandidates > 1000 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "max_candidates must be between 1 and 1000").WithDetail("field", "max_candidates")
	}
	return &req, nil
}

// Target is one application unit a reference file may have become: a
// module, or a module factory a bundler keyed by its source path.
type Target struct {
	Kind   string `json:"kind"` // module | bundled-module | source-map-source
	Path   string `json:"path"` // module path, or the bundle's or generated file's path
	Key    string `json:"key,omitempty"`
	SHA256 string `json:"sha256"`
	// SourceMap is the map that names a source-map-source; SHA256 is then
	// the digest of its sourcesContent, empty when the map has none.
	SourceMap string `json:"source_map,omitempty"`
}

// output is the file a target ships in.
func (t Target) output() string { return t.Path }

// FileResult is the verdict of one reference file.
type FileResult struct {
	Path              string   `json:"path"`
	SHA256            string   `json:"sha256"`
	Status            string   `json:"status"`
	MatchedBy         string   `json:"matched_by,omitempty"`
	Weight            float64  `json:"weight,omitempty"`
	Targets           []Target `json:"targets,omitempty"`
	TargetsOmitted    int      `json:"targets_omitted,omitempty"`
	MergedWith        []string `json:"merged_with,omitempty"`
	Reason            string   `json:"reason,omitempty"`
	ContentComparable bool     `json:"content_comparable"`
}

// Result is the comparison.
type Result struct {
	SchemaVersion           int            `json:"schema_version"`
	ComparisonID            string         `json:"comparison_id"`
	ReferenceEvidenceID     string         `json:"reference_evidence_id"`
	ApplicationEvidenceID   string         `json:"application_evidence_id"`
	SourceGraphID           string         `json:"source_graph_id"`
	Signals                 []Signal       `json:"signals"`
	Summary                 map[string]int `json:"summary"`
	Files                   []FileResult   `json:"files"`
	SourceMaps              []MapReport    `json:"source_maps"`
	UnmatchedModules        []string       `json:"unmatched_application_modules"`
	UnmatchedModulesOmitted int            `json:"unmatched_application_modules_omitted"`
	ApplicationCoverage     string         `json:"application_coverage"`
	ReferenceCoverage       string         `json:"reference_coverage"`
	Limitations             []string       `json:"limitations"`
}

func norm(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return strings.TrimPrefix(p, "/")
}

// pathLike says a bundler key names a source path (webpack development
// keys do; numeric ids never do).
func pathLike(key string) bool {
	return strings.Contains(key, "/") && LanguageOf(key) != ""
}

// commonSuffix counts the trailing path segments two paths share.
func commonSuffix(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[len(as)-1-n] == bs[len(bs)-1-n] {
		n++
	}
	return n
}

// Compare classifies every reference file.
func Compare(ctx context.Context, req *Request) (*Result, error) {
	app := &req.Application.Analysis
	ref := &req.Reference.Graph
	res := &Result{SchemaVersion: 1, ReferenceEvidenceID: req.Reference.EvidenceID, ApplicationEvidenceID: req.Application.EvidenceID,
		SourceGraphID: ref.SourceGraphID, Signals: Signals, Summary: map[string]int{}, Files: []FileResult{}, UnmatchedModules: []string{}, SourceMaps: []MapReport{},
		ApplicationCoverage: app.Coverage, ReferenceCoverage: ref.Coverage, Limitations: []string{}}
	for _, s := range []string{StatusUnchanged, StatusModified, StatusRemoved, StatusSplit, StatusMerged, StatusDuplicated, StatusUnknown} {
		res.Summary[s] = 0
	}
	var modules, bundled []Target
	for _, m := range app.Application.Modules {
		modules = append(modules, Target{Kind: "module", Path: m.Path, SHA256: m.SHA256})
	}
	for _, b := range app.Application.Bundles {
		for _, bm := range b.Modules {
			if pathLike(bm.Key) {
				bundled = append(bundled, Target{Kind: "bundled-module", Path: b.Path, Key: norm(bm.Key), SHA256: bm.FactorySHA256})
			}
		}
		if b.Truncated {
			res.Limitations = append(res.Limitations, fmt.Sprintf("bundle %s was read only in part; its other modules are not matched", b.Path))
		}
	}
	mapped, reports := mapTargets(req.SourceMaps)
	res.SourceMaps = reports
	for _, r := range reports {
		if r.Status != "read" {
			res.Limitations = append(res.Limitations, fmt.Sprintf("source map %s: %s — its original paths are not matched", r.Path, r.Reason))
		}
	}
	byDigest := map[string][]Target{}
	for _, t := range modules {
		byDigest[t.SHA256] = append(byDigest[t.SHA256], t)
	}
	appComplete := app.Coverage == "complete"
	type pending struct {
		fr     *FileResult
		target Target
	}
	var unique []pending
	used := map[string]bool{}
	results := make([]FileResult, len(ref.Files))
	for i, f := range ref.Files {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, abi.Errorf(abi.CodeCancelled, "compare_source_to_bundle was cancelled")
		}
		fr := &results[i]
		*fr = FileResult{Path: f.Path, SHA256: f.SHA256}
		rp := norm(f.Path)
		if ts := byDigest[f.SHA256]; len(ts) > 0 {
			fr.MatchedBy, fr.Weight, fr.ContentComparable = SignalDigest, 1.0, true
			fr.Targets = ts
			for _, t := range ts {
				used[t.Path] = true
			}
			if len(ts) == 1 {
				fr.Status = StatusUnchanged
			} else {
				fr.Status, fr.Reason = StatusDuplicated, fmt.Sprintf("the same bytes ship as %d modules", len(ts))
			}
			continue
		}
		signal, cands := bestCandidates(rp, mapped, modules, bundled)
		fr.MatchedBy = signal
		for _, s := range Signals {
			if s.Name == signal {
				fr.Weight = s.Weight
			}
		}
		fr.Targets = cands
		switch {
		case len(cands) == 0:
			fr.MatchedBy, fr.Weight = "", 0
			if appComplete {
				fr.Status, fr.Reason = StatusRemoved, "no module has its digest or any of its path signals, and the analysis covers the whole application"
			} else {
				fr.Status, fr.Reason = StatusUnknown, "no match, but the analysis is partial: its absence is not claimed"
			}
		case len(cands) == 1:
			unique = append(unique, pending{fr, cands[0]})
			used[cands[0].Path] = true
		case signal == SignalBasename:
			fr.Status, fr.Reason = StatusUnknown, fmt.Sprintf("%d application files share only its basename; none is chosen", len(cands))
		default:
			outputs := map[string]bool{}
			for _, c := range cands {
				outputs[c.output()] = true
			}
			if len(outputs) == len(cands) {
				fr.Status, fr.Reason = StatusSplit, fmt.Sprintf("its path is recorded in %d output files", len(cands))
				for _, c := range cands {
					used[c.Path] = true
				}
			} else {
				fr.Status, fr.Reason = StatusUnknown, "several units of one output file carry its path"
			}
		}
	}
	// A unique match: several reference files ending in one output are
	// merged (into a bundle) or ambiguous (one module claimed twice).
	claims := map[string][]*FileResult{}
	for _, p := range unique {
		claims[p.target.output()] = append(claims[p.target.output()], p.fr)
	}
	for _, p := range unique {
		fr, t := p.fr, p.target
		others := claims[t.output()]
		switch {
		case len(others) > 1 && t.Kind != "module":
			fr.Status, fr.Reason = StatusMerged, fmt.Sprintf("shipped in %s with %d other reference files", t.Path, len(others)-1)
			for _, o := range others {
				if o != fr {
					fr.MergedWith = append(fr.MergedWith, o.Path)
				}
			}
			sort.Strings(fr.MergedWith)
		case len(others) > 1:
			fr.Status, fr.Reason = StatusUnknown, fmt.Sprintf("%d reference files match %s only by %s", len(others), t.Path, fr.MatchedBy)
		case t.Kind == "source-map-source" && t.SHA256 == "":
			fr.Status, fr.Reason = StatusUnknown, "named by "+t.SourceMap+" without sourcesContent; the generated code is not comparable to the source file"
		case t.Kind == "source-map-source" && t.SHA256 == fr.SHA256:
			fr.Status, fr.ContentComparable = StatusUnchanged, true
			fr.Reason = "the sourcesContent of " + t.SourceMap + " has its digest"
		case t.Kind == "source-map-source":
			fr.Status, fr.ContentComparable = StatusModified, true
			fr.Reason = "the sourcesContent of " + t.SourceMap + " differs from it"
		case t.Kind == "bundled-module":
			fr.Status, fr.Reason = StatusUnknown, "bundled into "+t.Path+" as its only reference file; a bundled factory's bytes are not comparable to the source file"
		default:
			fr.Status, fr.ContentComparable = StatusModified, true
			fr.Reason = "its digest differs from " + t.Path
		}
	}
	for i := range results {
		fr := results[i]
		if len(fr.Targets) > req.MaxCandidates {
			fr.TargetsOmitted = len(fr.Targets) - req.MaxCandidates
			fr.Targets = fr.Targets[:req.MaxCandidates]
		}
		res.Summary[fr.Status]++
		res.Files = append(res.Files, fr)
	}
	for _, t := range modules {
		if !used[t.Path] && LanguageOf(t.Path) != "" {
			if len(res.UnmatchedModules) < req.MaxCandidates*50 {
				res.UnmatchedModules = append(res.UnmatchedModules, t.Path)
			} else {
				res.UnmatchedModulesOmitted++
			}
		}
	}
	sort.Strings(res.UnmatchedModules)
	if !appComplete {
		res.Limitations = append(res.Limitations, "the application analysis is partial: no reference file is claimed removed")
	}
	if ref.Coverage != "complete" {
		res.Limitations = append(res.Limitations, "the reference tree was imported in part: files it lacks are not compared")
	}
	b, _ := json.Marshal(struct {
		R, A, G string
		S       map[string]int
		M       int
		Maps    []MapReport
	}{req.Reference.EvidenceID, req.Application.EvidenceID, ref.SourceGraphID, res.Summary, req.MaxCandidates, res.SourceMaps})
	sum := sha256.Sum256(b)
	res.ComparisonID = "scmp_" + hex.EncodeToString(sum[:])
	return res, nil
}

// bestCandidates returns the first path tier that has candidates, with
// them sorted. Path suffix keeps only the longest shared suffix (at least
// two segments); basename is one segment.
func bestCandidates(rp string, mapped, modules, bundled []Target) (string, []Target) {
	var out []Target
	for _, t := range mapped {
		if t.Key == rp || commonSuffix(t.Key, rp) >= 2 {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return SignalSourceMap, sortTargets(out)
	}
	for _, t := range bundled {
		if t.Key == rp || strings.HasSuffix(rp, "/"+t.Key) || (strings.Contains(rp, "/") && strings.HasSuffix(t.Key, "/"+rp)) {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return SignalBundleKey, sortTargets(out)
	}
	for _, t := range modules {
		if norm(t.Path) == rp {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return SignalPath, sortTargets(out)
	}
	best := 1
	for _, t := range modules {
		n := commonSuffix(norm(t.Path), rp)
		switch {
		case n > best:
			best, out = n, []Target{t}
		case n == best && n >= 2:
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return SignalSuffix, sortTargets(out)
	}
	base := path.Base(rp)
	for _, t := range modules {
		if path.Base(norm(t.Path)) == base {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return SignalBasename, sortTargets(out)
	}
	return "", nil
}

func sortTargets(ts []Target) []Target {
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Path != ts[j].Path {
			return ts[i].Path < ts[j].Path
		}
		return ts[i].Key < ts[j].Key
	})
	return ts
}

// mapTargets reads the original source paths of every source map: each
// source becomes a target in every generated file that declares the map,
// with the digest of its sourcesContent when the map carries it.
func mapTargets(maps []MapInput) ([]Target, []MapReport) {
	var out []Target
	reports := []MapReport{}
	for _, m := range maps {
		r := MapReport{Path: m.Path, SHA256: m.SHA256, DeclaredBy: append([]string{}, m.DeclaredBy...), Status: "read"}
		if m.Content == nil {
			r.Status, r.Reason = "unavailable", m.Unavailable
			if r.Reason == "" {
				r.Reason = "not read"
			}
			reports = append(reports, r)
			continue
		}
		var doc struct {
			SourceRoot     string    `json:"sourceRoot"`
			Sources        []*string `json:"sources"`
			SourcesContent []*string `json:"sourcesContent"`
		}
		if err := json.Unmarshal([]byte(*m.Content), &doc); err != nil {
			r.Status, r.Reason = "unreadable", "not a JSON source map: "+err.Error()
			reports = append(reports, r)
			continue
		}
		if len(doc.Sources) > maxMapSources {
			r.Status, r.Reason = "unreadable", fmt.Sprintf("more than %d sources", maxMapSources)
			reports = append(reports, r)
			continue
		}
		for i, src := range doc.Sources {
			if src == nil || *src == "" {
				continue
			}
			key := originalPath(m.Path, doc.SourceRoot, *src)
			if key == "" {
				continue
			}
			r.Sources++
			digest := ""
			if i < len(doc.SourcesContent) && doc.SourcesContent[i] != nil {
				sum := sha256.Sum256([]byte(*doc.SourcesContent[i]))
				digest = hex.EncodeToString(sum[:])
			}
			for _, gen := range m.DeclaredBy {
				out = append(out, Target{Kind: "source-map-source", Path: gen, Key: key, SHA256: digest, SourceMap: m.Path})
			}
		}
		reports = append(reports, r)
	}
	return out, reports
}

// originalPath resolves a map's source entry to a path: scheme URLs such
// as webpack://namespace/./src/a.js lose scheme and namespace; relative
// entries resolve against the map's directory and sourceRoot.
func originalPath(mapPath, root, src string) string {
	if i := strings.Index(src, "://"); i >= 0 {
		rest := src[i+3:]
		if j := strings.Index(rest, "/"); j >= 0 {
			rest = rest[j+1:]
		} else {
			return ""
		}
		p := path.Clean("/" + norm(rest))
		return strings.TrimPrefix(p, "/")
	}
	p := path.Clean(path.Join(path.Dir(mapPath), root, src))
	for strings.HasPrefix(p, "../") {
		p = p[3:]
	}
	if p == "." || p == ".." {
		return ""
	}
	return strings.TrimPrefix(p, "/")
}
