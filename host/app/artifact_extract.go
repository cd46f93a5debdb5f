package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/klauspost/compress/flate"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
	"rea/host/evidence"
	"rea/host/regularfile"
)

// MaxExtractOccurrences bounds the occurrence ids one extraction names.
const MaxExtractOccurrences = 500

// ExtractArtifactRequest selects files of an artifact to materialise.
type ExtractArtifactRequest struct {
	ArtifactRequest
	// Paths are globs over logical paths: path.Match syntax per segment,
	// plus "**" for any number of segments; a glob that matches a directory
	// selects everything under it. Entries of a nested container are named
	// "<container path>!/<path>".
	Paths []string `json:"paths,omitempty"`
	// OccurrenceIDs select occurrences from inspect_artifact (≤ 500).
	OccurrenceIDs []string `json:"occurrence_ids,omitempty"`
	// OutputDir must not exist yet; empty means a fresh temporary directory.
	OutputDir string `json:"output_dir,omitempty"`
}

// ExtractedFile is one file written.
type ExtractedFile struct {
	OccurrenceID string `json:"occurrence_id"`
	LogicalPath  string `json:"logical_path"`
	// Path is where the file was written, relative to the output directory.
	Path       string `json:"path"`
	SHA256     string `json:"sha256"`
	Size       int64  `json:"size"`
	HashStatus string `json:"hash_status"`
	Executable bool   `json:"executable"`
}

// SkippedEntry is a selected entry that was not materialised.
type SkippedEntry struct {
	OccurrenceID string `json:"occurrence_id"`
	LogicalPath  string `json:"logical_path"`
	Reason       string `json:"reason"`
}

// ArtifactExtraction is the normalized result of extract_artifact. The
// output directory is reported beside the Evidence, not in it: paths never
// enter identity.
type ArtifactExtraction struct {
	ExtractionID            string                   `json:"extraction_id"`
	ManifestID              string                   `json:"manifest_id"`
	RootArtifactID          string                   `json:"root_artifact_id"`
	IntegrityPolicy         string                   `json:"integrity_policy"`
	Files                   []ExtractedFile          `json:"files"`
	Directories             []string                 `json:"directories"`
	Skipped                 []SkippedEntry           `json:"skipped"`
	IntegrityContradictions []IntegrityContradiction `json:"integrity_contradictions"`
	Provenance              ArtifactProvenance       `json:"provenance"`
}

// ExtractArtifactResult is the Evidence record, the extraction it holds and
// where the files were written.
type ExtractArtifactResult struct {
	OutputDir  string              `json:"output_dir"`
	Evidence   evidence.Record     `json:"evidence"`
	Extraction *ArtifactExtraction `json:"-"`
}

// extractTarget is one selected entry and where it goes.
type extractTarget struct {
	entry int
	occ   ArtifactOccurrence
	out   string // slash path under the output directory
}

// ExtractArtifact materialises the selected regular files of an artifact
// into a fresh directory. It never overwrites, never writes outside that
// directory, never creates links, and writes only bytes the inventory
// hashed: a file whose bytes changed since is removed and reported.
func (a *App) ExtractArtifact(ctx context.Context, req ExtractArtifactRequest, progress func(abi.Progress)) (*ExtractArtifactResult, error) {
	if len(req.OccurrenceIDs) > MaxExtractOccurrences {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name at most %d occurrence ids per extraction, got %d", MaxExtractOccurrences, len(req.OccurrenceIDs)).
			WithDetail("field", "occurrence_ids")
	}
	for i, g := range req.Paths {
		if _, err := path.Match(g, ""); err != nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "path glob %q is malformed: %v", g, err).WithDetail("field", fmt.Sprintf("paths[%d]", i))
		}
	}
	if req.OutputDir != "" {
		if _, err := os.Lstat(req.OutputDir); err == nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "output directory %q already exists; rea never writes into an existing directory, so name a new one", req.OutputDir).
				WithDetail("field", "output_dir")
		}
	}
	s, err := a.scanArtifact(ctx, req.ArtifactRequest, progress)
	if err != nil {
		return nil, err
	}
	targets, skipped, dirs, err := s.selectTargets(req)
	if err != nil {
		return nil, err
	}
	for _, t := range targets {
		if t.occ.HashStatus == statusUnavailable {
			return nil, abi.Errorf(abi.CodeUnavailable, "%s So it cannot be extracted; restore the .asar.unpacked directory next to the archive or leave this entry out",
				s.obs[t.entry].limitation).WithDetail("logical_path", t.occ.LogicalPath)
		}
	}
	stage, err := newExtractionStage(req.OutputDir)
	if err != nil {
		return nil, err
	}
	defer stage.discard()
	outDir := stage.dir
	ex := &ArtifactExtraction{ManifestID: s.graph.manifestID, RootArtifactID: s.graph.rootID, IntegrityPolicy: s.req.IntegrityPolicy,
		Files: []ExtractedFile{}, Directories: dirs, Skipped: skipped, IntegrityContradictions: []IntegrityContradiction{},
		Provenance: ArtifactProvenance{Module: s.module.Name, ModuleSHA256: s.module.SHA256, ABIVersion: s.module.ABIVersion,
			SandboxLimits: ReportLimits(s.limits), FuelUsed: s.usage.FuelUsed}}
	if err := s.writeTargets(ctx, outDir, targets, dirs, ex, progress); err != nil {
		return nil, err
	}
	if outDir, err = stage.publish(ctx); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(ex.Files))
	for _, f := range ex.Files {
		ids = append(ids, f.OccurrenceID)
	}
	if ex.ExtractionID, err = contentID("aex_", map[string]any{"manifest_id": ex.ManifestID, "occurrence_ids": ids}); err != nil {
		return nil, err
	}
	params := req
	params.ArtifactRequest = s.req
	params.InputPath, params.OutputDir = "", ""
	rec, err := s.evidenceRecord("extract_artifact", params, ex)
	if err != nil {
		return nil, err
	}
	return &ExtractArtifactResult{OutputDir: outDir, Evidence: rec, Extraction: ex}, nil
}

// outputPath is the display and output path of an entry: nested container
// entries sit under "<container path>!/".
func (s *artifactScan) outputPath(i int) string {
	e := s.res.Entries[i]
	p := e.Path
	for c := e.Container; c > 0; c = s.res.Containers[c].Parent {
		parent := s.res.Entries[s.res.Containers[c].Entry]
		p = parent.Path + "!/" + p
	}
	return p
}

func (s *artifactScan) selectTargets(req ExtractArtifactRequest) ([]extractTarget, []SkippedEntry, []string, error) {
	wantIDs := map[string]bool{}
	for _, id := range req.OccurrenceIDs {
		wantIDs[id] = false
	}
	all := len(req.Paths) == 0 && len(req.OccurrenceIDs) == 0
	var targets []extractTarget
	skipped := []SkippedEntry{}
	dirs := []string{}
	taken := map[int]bool{}
	for i := range s.res.Entries {
		k := s.graph.occurrenceOf[i]
		if k < 0 || taken[k] {
			continue
		}
		occ := s.graph.occurrences[k]
		out := s.outputPath(i)
		_, byID := wantIDs[occ.OccurrenceID]
		if !all && !byID && !globMatch(req.Paths, out) {
			continue
		}
		if byID {
			wantIDs[occ.OccurrenceID] = true
		}
		taken[k] = true
		switch occ.EntryKind {
		case inventory.KindFile:
			targets = append(targets, extractTarget{entry: i, occ: occ, out: out})
		case inventory.KindDirectory:
			dirs = append(dirs, out)
		case inventory.KindLink:
			skipped = append(skipped, SkippedEntry{OccurrenceID: occ.OccurrenceID, LogicalPath: out,
				Reason: "link to " + occ.LinkTarget + ": links are recorded, never materialised"})
		}
	}
	for id, found := range wantIDs {
		if !found {
			return nil, nil, nil, abi.Errorf(abi.CodeInvalidRequest, "occurrence %q is not in this artifact's graph; take ids from inspect-artifact of the same artifact", id).
				WithDetail("field", "occurrence_ids")
		}
	}
	if len(targets) == 0 && len(dirs) == 0 {
		return nil, nil, nil, abi.Errorf(abi.CodeInvalidRequest, "the selection matches no file of the artifact; list its paths with inspect-artifact").
			WithDetail("field", "paths")
	}
	return targets, skipped, dirs, nil
}

func (s *artifactScan) writeTargets(ctx context.Context, outDir string, targets []extractTarget, dirs []string, ex *ArtifactExtraction, progress func(abi.Progress)) error {
	out, err := os.OpenRoot(outDir)
	if err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot open output directory %q: %v", outDir, err)
	}
	defer out.Close()
	src, err := os.OpenRoot(s.input.mountDir)
	if err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot reopen %q: %v", s.input.mountDir, err)
	}
	defer src.Close()
	defer s.closeSourceStage()
	for _, d := range dirs {
		if err := out.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot create %q in %s: %v", d, outDir, err)
		}
	}
	// Read each file front to back: a tar.gz stream is then decompressed
	// once, not once per member.
	slices.SortStableFunc(targets, func(a, b extractTarget) int {
		da, db := s.res.Entries[a.entry].Data, s.res.Entries[b.entry].Data
		switch {
		case da == nil || db == nil:
			return 0
		case da.File != db.File:
			return cmpString(da.File, db.File)
		}
		return cmp64(da.Offset, db.Offset)
	})
	cur := &streamCursor{open: s.openSource}
	defer cur.close()
	defer cur.closeBlocks()
	for n, t := range targets {
		if err := ctx.Err(); err != nil {
			return abi.Errorf(abi.CodeCancelled, "extraction was cancelled after %d of %d files; nothing was published (the staged files were removed)", n, len(targets))
		}
		sum, size, err := s.writeOne(src, out, t, cur)
		if err != nil {
			return err
		}
		obs := s.obs[t.entry]
		if sum != obs.sha256 {
			return abi.Errorf(abi.CodeArtifactIntegrity, "%q changed between inventory and extraction (SHA-256 %s, then %s); nothing was published",
				t.occ.LogicalPath, obs.sha256, sum).
				WithDetail("logical_path", t.occ.LogicalPath).WithDetail("declared_sha256", obs.sha256).WithDetail("observed_sha256", sum)
		}
		ex.Files = append(ex.Files, ExtractedFile{OccurrenceID: t.occ.OccurrenceID, LogicalPath: t.occ.LogicalPath, Path: t.out,
			SHA256: sum, Size: size, HashStatus: t.occ.HashStatus, Executable: t.occ.Executable})
		if t.occ.HashStatus == statusMismatched {
			for _, c := range s.graph.contradictions {
				if c.OccurrenceID == t.occ.OccurrenceID {
					ex.IntegrityContradictions = append(ex.IntegrityContradictions, c)
				}
			}
		}
		if progress != nil {
			progress(abi.Progress{Phase: "extract", Done: int64(n + 1), Total: int64(len(targets))})
		}
	}
	slices.SortFunc(ex.Files, func(a, b ExtractedFile) int { return cmpString(a.Path, b.Path) })
	return nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// writeOne copies one entry's bytes into a new file under out (O_EXCL: an
// existing file is never replaced) and returns their SHA-256.
func (s *artifactScan) writeOne(src, out *os.Root, t extractTarget, cur *streamCursor) (string, int64, error) {
	r, closeSrc, err := s.openEntry(src, t.entry, cur)
	if err != nil {
		return "", 0, err
	}
	defer closeSrc()
	rel := filepath.FromSlash(t.out)
	if dir := filepath.Dir(rel); dir != "." {
		if err := out.MkdirAll(dir, 0o755); err != nil {
			return "", 0, writeError("cannot create the directory of", t, err)
		}
	}
	f, err := out.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", 0, writeError("cannot create", t, err)
	}
	h := sha256.New()
	limit := s.res.Entries[t.entry].Size
	if s.res.Entries[t.entry].Unpacked {
		limit = 1 << 62 // a companion is written as it is; its hash was checked
		if sib, ok := s.memberCompanion(t.entry); ok && sib >= 0 {
			limit = s.res.Entries[sib].Size // a package member, read from its stream
		}
	}
	n, err := io.CopyBuffer(io.MultiWriter(f, h), io.LimitReader(r, limit), hashBuffer(limit))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, writeError("cannot write", t, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// openEntry returns a reader of an entry's bytes from the validated range.
func (s *artifactScan) openEntry(src *os.Root, i int, cur *streamCursor) (io.Reader, func(), error) {
	e := s.res.Entries[i]
	if e.Data != nil && stream.IsStream(e.Data.Compression) {
		return cur.seek(src, e)
	}
	if e.Unpacked {
		if sib, ok := s.memberCompanion(i); ok && sib >= 0 {
			// The companion is a member of the same package.
			return s.openEntry(src, sib, cur)
		}
		f, err := s.openUnpacked(src, i)
		if err != nil {
			return nil, nil, abi.Errorf(abi.CodeUnavailable, "unpacked entry %q cannot be read: %v", e.Path, err).WithDetail("logical_path", e.Path)
		}
		return f, func() { f.Close() }, nil
	}
	f, err := s.openSource(src, *e.Data)
	if err != nil {
		return nil, nil, err
	}
	closeF := func() { f.Close() }
	st, err := f.Stat()
	if err != nil {
		closeF()
		return nil, nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot stat %q: %v", e.Data.File, err)
	}
	switch e.Data.Compression {
	case inventory.CompressionNone:
		if e.Data.End() > st.Size() {
			closeF()
			return nil, nil, abi.Errorf(abi.CodeArtifactIntegrity, "%q shrank since it was inventoried", e.Data.File)
		}
		return io.NewSectionReader(f, e.Data.Offset, e.Data.Length), closeF, nil
	case inventory.CompressionDeflate:
		if e.Data.End() > st.Size() {
			closeF()
			return nil, nil, abi.Errorf(abi.CodeArtifactIntegrity, "%q shrank since it was inventoried", e.Data.File)
		}
		fr := flate.NewReader(io.NewSectionReader(f, e.Data.Offset, e.Data.Length))
		return fr, func() { fr.Close(); closeF() }, nil
	case inventory.CompressionBlocks:
		if err := stream.CheckBlocks(e.Data.Blocks, st.Size(), e.Size); err != nil {
			closeF()
			return nil, nil, abi.Errorf(abi.CodeArtifactIntegrity, "%q: %v; it changed since it was inventoried", e.Path, err)
		}
		return stream.OpenBlocks(f, *e.Data, cur.blockCache(*e.Data)), closeF, nil
	}
	closeF()
	return nil, nil, abi.Errorf(abi.CodeModuleFailed, "unknown compression %q for %q", e.Data.Compression, e.Path)
}

// streamCursor keeps one decompressed tar.gz stream open across members
// taken in offset order.
type streamCursor struct {
	// open opens the file (or decoded source stream) a range reads.
	open func(src *os.Root, r inventory.Range) (*os.File, error)
	file string // sourceKey
	key  streamKey
	f    *os.File
	zr   io.ReadCloser
	pos  int64
	// blocks keeps the last shared block decoded from blocksFile (a disk
	// image's 1 MiB chunk holds many small files, extracted in turn); one
	// cache, so one decoded block and decoder at a time, whatever the
	// number of files.
	blocks     *stream.BlockCache
	blocksFile string
}

// blockCache is the shared-block cache of the file r reads, nil for a
// range read from a decoded stream.
func (c *streamCursor) blockCache(r inventory.Range) *stream.BlockCache {
	if r.Source != nil {
		return nil
	}
	if c.blocks == nil || c.blocksFile != r.File {
		c.closeBlocks()
		c.blocks, c.blocksFile = &stream.BlockCache{}, r.File
	}
	return c.blocks
}

// closeBlocks releases the shared-block cache and its decoder.
func (c *streamCursor) closeBlocks() {
	if c.blocks != nil {
		c.blocks.Close()
	}
	c.blocks, c.blocksFile = nil, ""
}

func (c *streamCursor) close() {
	if c.f != nil {
		c.f.Close()
	}
	if c.zr != nil {
		c.zr.Close()
	}
	c.f, c.zr, c.file, c.key, c.pos = nil, nil, "", streamKey{}, 0
}

func (c *streamCursor) Read(p []byte) (int, error) {
	n, err := c.zr.Read(p)
	c.pos += int64(n)
	return n, err
}

// seek positions the stream at e's member, reopening it only when e lies
// behind the cursor or in another file.
func (c *streamCursor) seek(src *os.Root, e inventory.Entry) (io.Reader, func(), error) {
	key := streamKey{e.Data.Compression, e.Data.StreamOffset, e.Data.StreamLength}
	if c.file != sourceKey(*e.Data) || c.key != key || c.pos > e.Data.Offset {
		c.close()
		f, err := c.open(src, *e.Data)
		if err != nil {
			return nil, nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot stat %q: %v", e.Data.File, err)
		}
		zr, err := stream.Open(f, st.Size(), *e.Data)
		if err != nil {
			f.Close()
			return nil, nil, abi.Errorf(abi.CodeArtifactOperationFailed, "%q: %v", e.Data.File, err)
		}
		c.file, c.key, c.f, c.zr = sourceKey(*e.Data), key, f, zr
	}
	if _, err := io.CopyN(io.Discard, c, e.Data.Offset-c.pos); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		c.close()
		return nil, nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot reach %q in the decompressed stream: %v", e.Path, err)
	}
	return c, func() {}, nil
}

// openSource opens the bytes r's offsets address: the input's file, or,
// for the members of an archive held in a compressed stream (an NSIS
// item), that stream's decoded copy. The copy is decoded once per
// extraction into a stage of its own (the inventory's is gone), within
// the same stream budget, and removed when the extraction ends; what is
// read from it is checked against the inventory's hashes as always.
func (s *artifactScan) openSource(src *os.Root, r inventory.Range) (*os.File, error) {
	if r.Source == nil {
		f, err := regularfile.OpenIn(src, r.File)
		if err != nil {
			return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot reopen %q: %v", r.File, err)
		}
		return f, nil
	}
	if s.sourceStage == nil {
		dir, err := os.MkdirTemp("", "rea-extract-streams-")
		if err != nil {
			return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot make a directory for decoded streams: %v", err)
		}
		s.sourceStage = &stream.Stage{Dir: dir, Limits: s.req.Limits,
			OpenInput: func(name string) (*os.File, error) { return regularfile.OpenIn(src, name) }}
	}
	st := s.sourceStage
	f, err := st.Open(inventory.StreamNameOf(*r.Source))
	if err == nil {
		f.Close()
	}
	p, ok := st.Decoded(*r.Source)
	if err != nil || !ok {
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot decode the %s stream at %d of %q that holds the archive: %v",
			r.Source.Compression, r.Source.StreamOffset, r.File, causeOf(errors.Join(err, st.Err()), "it decodes past its budget"))
	}
	fh, err := os.Open(p)
	if err != nil {
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "cannot reopen a decoded stream of %q: %v", r.File, err)
	}
	return fh, nil
}

// closeSourceStage removes the streams openSource decoded.
func (s *artifactScan) closeSourceStage() {
	if s.sourceStage != nil {
		os.RemoveAll(s.sourceStage.Dir)
		s.sourceStage = nil
	}
}
