package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/flate"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
	"rea/host/evidence"
	"rea/host/regularfile"
	"rea/host/sandbox"
	"rea/wasm/module"
)

// Integrity policies.
const (
	// IntegrityFail stops at the first declared-versus-observed mismatch.
	IntegrityFail = "fail"
	// IntegrityRecordAndContinue records mismatches as contradictions and
	// keeps the verified siblings.
	IntegrityRecordAndContinue = "record-and-continue"

	DefaultMaxIntegrityMismatches = 10
	MaxIntegrityMismatchesCeiling = 100

	DefaultPageLimit = 100
	MaxPageLimit     = 500
)

// ArtifactModule is the module that parses container structure.
const ArtifactModule = "artifact"

// ArtifactRequest is what inspect-artifact and extract-artifact share: the
// input, its limits and the integrity policy.
type ArtifactRequest struct {
	// InputPath is a local file (ASAR, zip, tar, tar.gz) or directory.
	InputPath string `json:"input_path"`
	// Format forces a container format; empty means auto.
	Format string `json:"format,omitempty"`
	// Limits bound what the container may declare (max_entries, …).
	inventory.Limits
	// IntegrityPolicy is "fail" (default) or "record-and-continue".
	IntegrityPolicy string `json:"integrity_policy,omitempty"`
	// MaxIntegrityMismatches bounds recorded contradictions (default 10, ≤ 100).
	MaxIntegrityMismatches int `json:"max_integrity_mismatches,omitempty"`
	// topLevelOnly leaves archives among the input's entries unexpanded
	// (inventory.Request.TopLevelOnly): set by the JavaScript analysis,
	// which reads only the input's own files; never a wire field.
	topLevelOnly bool
}

// validate fills defaults and refuses bad values with field names.
func (r *ArtifactRequest) validate() error {
	if r.InputPath == "" {
		return abi.Errorf(abi.CodeInvalidRequest, "name the artifact to inspect (input_path)").WithDetail("field", "input_path")
	}
	switch r.IntegrityPolicy {
	case "":
		r.IntegrityPolicy = IntegrityFail
	case IntegrityFail, IntegrityRecordAndContinue:
	default:
		return abi.Errorf(abi.CodeInvalidRequest, "integrity_policy %q is not one of fail, record-and-continue", r.IntegrityPolicy).
			WithDetail("field", "integrity_policy")
	}
	switch {
	case r.MaxIntegrityMismatches == 0:
		r.MaxIntegrityMismatches = DefaultMaxIntegrityMismatches
	case r.MaxIntegrityMismatches < 0 || r.MaxIntegrityMismatches > MaxIntegrityMismatchesCeiling:
		return abi.Errorf(abi.CodeInvalidRequest, "max_integrity_mismatches must be between 1 and %d, got %d",
			MaxIntegrityMismatchesCeiling, r.MaxIntegrityMismatches).WithDetail("field", "max_integrity_mismatches")
	}
	if r.Format == inventory.FormatAuto {
		r.Format = ""
	}
	switch r.Format {
	case "", inventory.FormatASAR, inventory.FormatZip, inventory.FormatTar, inventory.FormatTarGz, inventory.FormatDeb, inventory.FormatRPM, inventory.FormatAppImage, inventory.FormatSquashfs, inventory.FormatSevenZip, inventory.FormatNSIS, inventory.FormatDirectory:
	default:
		return abi.Errorf(abi.CodeInvalidRequest, "format %q is not one of auto, asar, zip, tar, tar.gz, deb, rpm, appimage, squashfs, 7z, nsis, directory", r.Format).WithDetail("field", "format")
	}
	if err := r.Limits.Validate(); err != nil {
		return err
	}
	r.Limits = r.Limits.WithDefaults()
	return nil
}

// artifactInput is a resolved input: the directory mounted at /in and the
// input's name inside it.
type artifactInput struct {
	abs      string
	mountDir string
	name     string // slash path inside the mount; "." for a directory input
	isDir    bool
	size     int64
}

func resolveInput(p string) (artifactInput, error) {
	abs, err := filepath.Abs(p)
	if err == nil {
		// The user named this path, so a link to it is theirs to follow;
		// inside the input, links are never followed.
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return artifactInput{}, abi.Errorf(abi.CodeInvalidRequest, "cannot resolve %q: %v; check the path", p, err).WithDetail("field", "input_path")
	}
	st, err := os.Stat(abs)
	if err != nil {
		return artifactInput{}, abi.Errorf(abi.CodeInvalidRequest, "cannot read %q: %v; check the path", p, err).WithDetail("field", "input_path")
	}
	if st.IsDir() {
		return artifactInput{abs: abs, mountDir: abs, name: ".", isDir: true}, nil
	}
	if !st.Mode().IsRegular() {
		return artifactInput{}, abi.Errorf(abi.CodeInvalidRequest, "%q is neither a regular file nor a directory", p).WithDetail("field", "input_path")
	}
	return artifactInput{abs: abs, mountDir: filepath.Dir(abs), name: filepath.Base(abs), size: st.Size()}, nil
}

// entryObservation is what the host saw of one entry's bytes.
type entryObservation struct {
	sha256           string
	status           string // verified, mismatched, unavailable, "" (not a file)
	badBlock         int
	badBlockObserved string
	head             [4]byte
	headN            int
	limitation       string
}

// artifactScan is one inventory: the module's structure plus the host's
// observations, before paging.
type artifactScan struct {
	req     ArtifactRequest
	input   artifactInput
	res     *inventory.Result
	obs     []entryObservation
	module  module.Identity
	usage   sandbox.Usage
	limits  sandbox.Limits
	digest  string // sha256 of the input file, or of a directory's listing
	graph   *artifactGraph
	partial bool
	// stage holds the streams decoded for the module, which hashing
	// reads instead of decoding them again.
	stage *stream.Stage
	// sourceStage holds the streams an extraction decoded to read the
	// members of archives held in them (openSource).
	sourceStage *stream.Stage

	// progress reports hashing as bytes read, at most every 100 ms.
	progress   func(abi.Progress)
	hashed     int64
	toHash     int64
	lastReport time.Time
}

func (s *artifactScan) onRead(n int64) {
	s.hashed += n
	if s.progress == nil || time.Since(s.lastReport) < 100*time.Millisecond {
		return
	}
	s.lastReport = time.Now()
	s.progress(abi.Progress{Phase: "hash", Done: s.hashed, Total: s.toHash, Message: "bytes hashed"})
}

// scanArtifact runs the artifact module over the input, hashes every byte
// range natively and applies the integrity policy.
func (a *App) scanArtifact(ctx context.Context, req ArtifactRequest, progress func(abi.Progress)) (*artifactScan, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	in, err := resolveInput(req.InputPath)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(in.mountDir)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot open %q: %v", in.mountDir, err).WithDetail("field", "input_path")
	}
	defer root.Close()
	// Compressed streams (a .deb's data.tar.*, an RPM payload, a tar.gz)
	// are decoded once, natively, into a staging directory the module
	// lists from and the host hashes from.
	stageDir, err := os.MkdirTemp("", "rea-streams-")
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "cannot make a staging directory for decoded streams: %v", err)
	}
	defer os.RemoveAll(stageDir)
	stage := &stream.Stage{Ctx: ctx, Dir: stageDir, Limits: req.Limits,
		OpenInput: func(name string) (*os.File, error) { return regularfile.OpenIn(root, name) }}
	out, err := a.Runner.Run(ctx, sandbox.Call{
		Module:    ArtifactModule,
		Operation: inventory.Operation,
		Params: inventory.Request{Input: in.name, Format: req.Format, Limits: req.Limits, StreamMount: inventory.DefaultStreamMountPath,
			TopLevelOnly: req.topLevelOnly, HostChecksums: true},
		Mounts: []sandbox.Mount{{GuestPath: inventory.DefaultMountPath, FS: sandbox.DirFS(root)},
			{GuestPath: inventory.DefaultStreamMountPath, FS: stage}},
		Limits:   a.Config.Limits,
		Progress: progress,
	})
	if err != nil {
		var ae *abi.Error
		if errors.As(err, &ae) && ae.Code == abi.CodeArtifactIntegrity {
			// A corrupt container says so (an NSIS installer whose
			// CRC-32 fails), whatever its streams did to the stage.
			return nil, err
		}
		if serr := stage.Err(); errors.Is(serr, stream.ErrTotalBudget) {
			lim := req.Limits.WithDefaults()
			return nil, abi.Errorf(abi.CodeResourceConstraint, "%v (%d bytes of entries, %d entries); raise max_total_bytes if the artifact is trusted and the machine can afford the disk",
				serr, lim.MaxTotalBytes, lim.MaxEntries).WithDetail("limit", "max_total_bytes").WithDetail("maximum", lim.MaxTotalBytes)
		}
		if serr := stage.Err(); serr != nil && errors.As(err, &ae) && ae.Code == abi.CodeArtifactOperationFailed {
			// The module saw only that the host could not decode a
			// stream; say what the decoder said.
			out := *ae
			out.Message += fmt.Sprintf(" (decoder: %v)", serr)
			return nil, &out
		}
		return nil, err
	}
	var res inventory.Result
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return nil, abi.Errorf(abi.CodeModuleFailed, "the artifact module answered with an unreadable inventory: %v", err)
	}
	if err := checkStructure(&res); err != nil {
		return nil, err
	}
	s := &artifactScan{req: req, input: in, res: &res, obs: make([]entryObservation, len(res.Entries)),
		module: out.Module, usage: out.Usage, limits: out.Limits, stage: stage}
	s.readLinks(root)
	if err := s.hashAll(ctx, root, progress); err != nil {
		return nil, err
	}
	if err := s.applyIntegrityPolicy(); err != nil {
		return nil, err
	}
	graph, err := buildGraph(s)
	if err != nil {
		return nil, err
	}
	s.graph = graph
	s.digest = s.graph.rootDigest
	return s, nil
}

// readLinks reads the targets of directory links the sandbox could not
// read. os.Root.Readlink reads the link itself, never what it points to.
func (s *artifactScan) readLinks(root *os.Root) {
	for i, e := range s.res.Entries {
		if e.Link == nil || !e.Link.Unread || s.res.Containers[e.Container].Format != inventory.FormatDirectory {
			continue
		}
		target, err := root.Readlink(path.Join(s.res.Containers[e.Container].File, e.Path))
		if err != nil {
			continue
		}
		s.res.Entries[i].Link = inventory.NewLink(target, path.Dir(e.Path))
	}
}

// checkStructure refuses an inventory whose cross references do not hold:
// the module parses hostile bytes, so the host trusts none of its indexes.
func checkStructure(res *inventory.Result) error {
	bad := func(what string, args ...any) error {
		return abi.Errorf(abi.CodeModuleFailed, "the artifact module answered with an inconsistent inventory: "+what, args...)
	}
	if len(res.Containers) == 0 || res.Containers[0].Parent != -1 {
		return bad("no input container")
	}
	for i, c := range res.Containers {
		if c.Index != i || (i > 0 && (c.Parent < 0 || c.Parent >= i || c.Entry < 0 || c.Entry >= len(res.Entries))) {
			return bad("container %d has bad references", i)
		}
		if !fsValid(c.File) {
			return bad("container %d names file %q", i, c.File)
		}
		if k := c.Checksum; k != nil && (k.Algorithm != inventory.ChecksumCRC32 || k.Offset < 0 || k.Length < 0 || k.Offset > (1<<62)-k.Length) {
			return bad("container %d declares checksum %+v", i, *k)
		}
	}
	// A blocks stream (an archive in a squashfs file) names the entry
	// holding its blocks; every range gets them before it is checked.
	if err := res.ResolveSources(); err != nil {
		return bad("%v", err)
	}
	for i, e := range res.Entries {
		if e.Container < 0 || e.Container >= len(res.Containers) {
			return bad("entry %d names container %d", i, e.Container)
		}
		if e.Nested >= len(res.Containers) || e.Nested == 0 {
			return bad("entry %d names nested container %d", i, e.Nested)
		}
		if e.Data != nil && (e.Data.Offset < 0 || e.Data.Length < 0 || e.Data.Offset > (1<<62)-e.Data.Length || !fsValid(e.Data.File)) {
			return bad("entry %d has range %+v", i, *e.Data)
		}
		if e.Data != nil && e.Data.Source != nil {
			if e.Data.Sources() < 0 {
				return bad("entry %d is read from more than %d nested streams", i, inventory.MaxSourceDepth)
			}
			for src := e.Data.Source; src != nil; src = src.Source {
				if !stream.IsStream(src.Compression) || src.File != e.Data.File || src.StreamOffset < 0 || src.StreamLength < 0 {
					return bad("entry %d is read from stream %+v", i, *src)
				}
			}
		}
	}
	return nil
}

func fsValid(p string) bool {
	return p == "." || (p != "" && !strings.HasPrefix(p, "/") && path.Clean(p) == p && !strings.HasPrefix(p, "../") && p != "..")
}

// fileJobs gathers the ranges to hash in one file, or in the decoded
// copy of one stream (source: an archive held compressed in an NSIS
// item is read from its stream's copy).
type fileJobs struct {
	file    string
	source  *inventory.Range
	key     string       // sourceKey
	plain   []*digestJob // compression none
	whole   []int        // entries whose range is the whole file
	deflate []int
	blocks  []int // CompressionBlocks entries (squashfs files)
	// streams holds the members of each decompressed stream (a tar.gz, a
	// .deb's data.tar.xz), in first-seen order.
	streams     map[streamKey][]*digestJob
	streamOrder []streamKey
	// streamRange is the first member's range of each stream (a 7-Zip
	// folder's coder chain travels in it).
	streamRange map[streamKey]inventory.Range
}

// sourceKey names the bytes a range's offsets address: its file, or the
// decoded copy of its Source stream.
func sourceKey(r inventory.Range) string {
	if r.Source == nil {
		return r.File
	}
	return r.File + "\x00" + inventory.StreamNameOf(*r.Source)
}

// holds reports whether range r addresses the bytes fj reads.
func (fj *fileJobs) holds(r inventory.Range) bool { return sourceKey(r) == fj.key }

// streamKey names one compressed stream inside a file.
type streamKey struct {
	compression string
	offset      int64
	length      int64
}

func (fj *fileJobs) addStream(e inventory.Entry, job *digestJob) {
	k := streamKey{e.Data.Compression, e.Data.StreamOffset, e.Data.StreamLength}
	if fj.streams == nil {
		fj.streams = map[streamKey][]*digestJob{}
	}
	if _, ok := fj.streams[k]; !ok {
		fj.streamOrder = append(fj.streamOrder, k)
		if fj.streamRange == nil {
			fj.streamRange = map[streamKey]inventory.Range{}
		}
		fj.streamRange[k] = *e.Data
	}
	fj.streams[k] = append(fj.streams[k], job)
}

// sortJobs orders jobs by offset, empty ranges first at equal offsets.
func sortJobs(jobs []*digestJob) {
	slices.SortFunc(jobs, func(a, b *digestJob) int {
		if c := cmp64(a.offset, b.offset); c != 0 {
			return c
		}
		return cmp64(a.length, b.length)
	})
}

// hashAll streams every file once (plus one decompression pass per tar.gz)
// and records each entry's observed hash.
func (s *artifactScan) hashAll(ctx context.Context, root *os.Root, progress func(abi.Progress)) error {
	files := map[string]*fileJobs{}
	var order []string
	get := func(r inventory.Range) *fileJobs {
		k := sourceKey(r)
		fj, ok := files[k]
		if !ok {
			fj = &fileJobs{file: r.File, source: r.Source, key: k}
			files[k] = fj
			order = append(order, k)
		}
		return fj
	}
	if !s.input.isDir {
		get(inventory.Range{File: s.input.name})
	}
	companions := map[int]int{}
	for i, e := range s.res.Entries {
		if e.Kind != inventory.KindFile {
			continue
		}
		if e.Unpacked {
			if sib, ok := s.memberCompanion(i); ok {
				companions[i] = sib
				continue
			}
			s.hashUnpacked(ctx, root, i)
			continue
		}
		if e.Data == nil {
			return abi.Errorf(abi.CodeModuleFailed, "the artifact module listed file %q without a byte range", e.Path)
		}
		fj := get(*e.Data)
		job := &digestJob{entry: i, offset: e.Data.Offset, length: e.Data.Length}
		if e.Integrity.Known() {
			job.blockSize, job.declared = e.Integrity.BlockSize, e.Integrity.Blocks
		}
		switch e.Data.Compression {
		case inventory.CompressionNone:
			if e.Data.Length != e.Size {
				return abi.Errorf(abi.CodeModuleFailed, "the artifact module gave file %q a %d-byte range for %d bytes", e.Path, e.Data.Length, e.Size)
			}
			if s.res.Containers[e.Container].Format == inventory.FormatDirectory {
				// A directory member is a whole file of its own.
				fj.whole = append(fj.whole, i)
				continue
			}
			fj.plain = append(fj.plain, job)
		case inventory.CompressionDeflate:
			fj.deflate = append(fj.deflate, i)
		case inventory.CompressionBlocks:
			fj.blocks = append(fj.blocks, i)
		case inventory.CompressionGzipStream, inventory.CompressionXzStream, inventory.CompressionZstdStream,
			inventory.CompressionLzmaStream, inventory.CompressionBzip2Stream, inventory.CompressionSevenZipFolder,
			inventory.CompressionDeflateStream:
			job.length = e.Size
			if e.CRC32 != nil {
				job.crc = crc32.NewIEEE()
			}
			fj.addStream(e, job)
		default:
			if stream.IsStream(e.Data.Compression) { // NSIS's LZMA and bzip2 streams
				job.length = e.Size
				fj.addStream(e, job)
				continue
			}
			return abi.Errorf(abi.CodeModuleFailed, "the artifact module named compression %q for %q", e.Data.Compression, e.Path)
		}
	}
	s.progress = progress
	s.toHash = s.input.size // an archive input is read whole, once
	if s.input.isDir {
		for _, e := range s.res.Entries {
			if e.Data != nil && e.Data.Compression == inventory.CompressionNone {
				s.toHash += e.Data.Length
			}
		}
	}
	for _, f := range order {
		if err := s.hashFile(ctx, root, files[f]); err != nil {
			return err
		}
	}
	for i, sib := range companions {
		s.observeCompanion(i, sib)
	}
	return nil
}

// memberCompanion finds the .asar.unpacked companion of an unpacked entry
// of an ASAR that is itself a member of a package (an app.asar in a
// .deb): the companion is the package's member <archive>.unpacked/<path>
// beside it, hashed with the package's other members. sib is -1 when the
// package holds no such file.
func (s *artifactScan) memberCompanion(i int) (sib int, ok bool) {
	c := s.res.Containers[s.res.Entries[i].Container]
	if c.Parent < 0 || s.res.Containers[c.Parent].Format == inventory.FormatDirectory {
		return 0, false
	}
	want := s.res.Entries[c.Entry].Path + ".unpacked/" + s.res.Entries[i].Path
	for j, e := range s.res.Entries {
		if e.Container == c.Parent && e.Path == want && e.Kind == inventory.KindFile {
			return j, true
		}
	}
	return -1, true
}

// observeCompanion records an unpacked entry's bytes as its companion
// member's, checked against the integrity the archive declares.
func (s *artifactScan) observeCompanion(i, sib int) {
	e := s.res.Entries[i]
	c := s.res.Containers[e.Container]
	p := s.res.Entries[c.Entry].Path + ".unpacked/" + e.Path
	if sib < 0 || s.obs[sib].status == "" || s.obs[sib].status == statusUnavailable {
		s.obs[i] = entryObservation{status: statusUnavailable, badBlock: -1,
			limitation: fmt.Sprintf("Unpacked entry %q has no companion member %s in the package; its bytes were not observed.", e.Path, p)}
		return
	}
	o := s.obs[sib]
	o.limitation = ""
	o.status, o.badBlock = statusVerified, -1
	if in := e.Integrity; in.Known() && in.Hash != o.sha256 || s.res.Entries[sib].Size != e.Size {
		o.status = statusMismatched
	} else if in != nil && !in.Known() {
		o.status = statusUnverifiable
		o.limitation = unverifiableLimitation(e)
	}
	s.obs[i] = o
}

func (s *artifactScan) hashFile(ctx context.Context, root *os.Root, fj *fileJobs) error {
	var fh *os.File
	var err error
	if fj.source != nil {
		// The members of an archive held in a compressed stream: the
		// module listed them from the stream's staged copy, hashed here.
		p, ok := s.decodedCopy(*fj.source)
		if !ok {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "%q: the decoded copy of the %s stream at %d that holds an archive rea listed is gone",
				fj.file, fj.source.Compression, fj.source.StreamOffset).WithDetail("path", fj.file)
		}
		fh, err = os.Open(p)
	} else {
		fh, err = regularfile.OpenIn(root, fj.file)
	}
	if errors.Is(err, regularfile.ErrNotRegular) {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "%v; remove it from the input or inventory a copy without it", err).WithDetail("path", fj.file)
	}
	if err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot open %q: %v", fj.file, err).WithDetail("path", fj.file)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "cannot stat %q: %v", fj.file, err).WithDetail("path", fj.file)
	}
	size := st.Size()
	// Re-check every range against the file as it is now.
	if err := s.checkPlainRanges(fj, size); err != nil {
		return err
	}
	for _, i := range fj.whole {
		if s.res.Entries[i].Size != size {
			return abi.Errorf(abi.CodeArtifactOperationFailed, "%q is %d bytes now, %d when inventoried; it changed while rea read it",
				fj.file, size, s.res.Entries[i].Size).WithDetail("path", fj.file)
		}
	}
	// The bytes the module parsed are hashed again in the same pass: a file
	// that changed between parsing and hashing is not half-trusted.
	var parsed *digestJob
	var parsedWant string
	for _, c := range s.res.Containers {
		if fj.source == nil && c.File == fj.file && c.ParsedBytes > 0 {
			if c.ParsedBytes > size {
				return abi.Errorf(abi.CodeArtifactIntegrity, "%q is shorter than the header rea parsed; it changed while rea read it", fj.file).
					WithDetail("path", fj.file)
			}
			parsed, parsedWant = &digestJob{entry: -1, offset: 0, length: c.ParsedBytes}, c.ParsedSHA256
			fj.plain = append([]*digestJob{parsed}, fj.plain...)
			sortJobs(fj.plain)
		}
	}
	// The checksums containers declare over this file (an NSIS
	// installer's CRC-32) are summed in the same pass.
	checks, err := s.checksumJobs(fj, size)
	if err != nil {
		return err
	}
	for _, c := range checks {
		fj.plain = append(fj.plain, c.job)
	}
	sortJobs(fj.plain)
	if len(fj.streamOrder) == 0 && len(fj.blocks) == 0 {
		return s.hashPass(ctx, fh, size, fj, checks, parsed, parsedWant)
	}
	// The compressed streams (a solid installer's block, 7-Zip folders,
	// a package's data stream) and the files stored as blocks (a
	// squashfs image's) are decoded and hashed while the file is read for
	// its digest and plain ranges: two cores, not one after the other.
	// The file's own failure (a checksum that does not match) is the one
	// said.
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	streamsDone := make(chan error, 1)
	go func() {
		err := s.hashAllBlocks(sctx, fh, size, fj)
		if err == nil {
			err = s.hashStreams(sctx, fh, size, fj)
		}
		streamsDone <- err
	}()
	err = s.hashPass(ctx, fh, size, fj, checks, parsed, parsedWant)
	if err != nil {
		cancel()
	}
	if serr := <-streamsDone; err == nil {
		err = serr
	}
	return err
}

// hashPass reads fj's file once for its plain ranges, the checksums its
// containers declare and, when it is the input or a whole entry, its
// digest; then hashes its deflated members.
func (s *artifactScan) hashPass(ctx context.Context, fh *os.File, size int64, fj *fileJobs, checks []checksumCheck, parsed *digestJob, parsedWant string) error {
	var whole = sha256.New()
	needWhole := len(fj.whole) > 0 || fj.source == nil && fj.file == s.input.name && !s.input.isDir
	if !needWhole {
		whole = nil
	}
	read, err := streamRangesProgress(ctx, fh, fj.plain, whole, s.onRead)
	if err != nil {
		return err
	}
	if whole != nil && read != size {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "%q changed while rea read it (%d bytes read, %d expected)", fj.file, read, size)
	}
	for _, c := range checks {
		if err := c.verify(); err != nil {
			return err
		}
	}
	if parsed != nil && parsed.sha256 != parsedWant {
		return abi.Errorf(abi.CodeArtifactIntegrity,
			"the header of %q changed between parsing (SHA-256 %s) and hashing (%s); something is writing to the artifact, inspect a copy",
			fj.file, parsedWant, parsed.sha256).WithDetail("path", fj.file)
	}
	for _, j := range fj.plain {
		if j.entry >= 0 { // not the parsed header, not a checksum
			s.observe(j.entry, j)
		}
	}
	if whole != nil {
		sum := hex.EncodeToString(whole.Sum(nil))
		if fj.source == nil && fj.file == s.input.name && !s.input.isDir {
			s.digest = sum
		}
		for _, i := range fj.whole {
			s.obs[i] = entryObservation{sha256: sum, status: statusVerified, badBlock: -1}
			s.obs[i].headN = copy(s.obs[i].head[:], headOf(fh))
		}
	}
	for _, i := range fj.deflate {
		if err := s.hashDeflated(ctx, fh, size, i); err != nil {
			return err
		}
	}
	return nil
}

// checksumCheck is one declared checksum summed in a file's pass.
type checksumCheck struct {
	c   inventory.Container
	job *digestJob
}

// checksumJobs are the CRC-only jobs of the checksums containers declare
// over fj's file: the module declared them instead of reading the whole
// file in the sandbox (inventory.Request.HostChecksums).
func (s *artifactScan) checksumJobs(fj *fileJobs, size int64) ([]checksumCheck, error) {
	var out []checksumCheck
	for _, c := range s.res.Containers {
		k := c.Checksum
		if k == nil || fj.source != nil || c.File != fj.file {
			continue
		}
		if k.Offset+k.Length > size {
			return nil, abi.Errorf(abi.CodeArtifactOperationFailed,
				"the checksum of %q covers bytes %d–%d, past its end (%d bytes); the file changed after it was inventoried",
				fj.file, k.Offset, k.Offset+k.Length, size).WithDetail("path", fj.file)
		}
		out = append(out, checksumCheck{c: c, job: &digestJob{entry: -1, offset: k.Offset, length: k.Length, crc: crc32.NewIEEE(), crcOnly: true}})
	}
	return out, nil
}

// verify refuses the artifact when the summed bytes do not match the
// declared checksum: the container is corrupt or was modified.
func (c checksumCheck) verify() error {
	k := c.c.Checksum
	got := c.job.crc.Sum32()
	if c.job.done && got == k.Value {
		return nil
	}
	what, who := "container "+strconv.Quote(c.c.File), "the container"
	if c.c.Format == inventory.FormatNSIS {
		what, who = "NSIS installer", "the installer"
	}
	return abi.Errorf(abi.CodeArtifactIntegrity,
		"the %s declares CRC-32 %08x but its bytes %d–%d sum to %08x; %s is corrupt or was modified after it was built",
		what, k.Value, k.Offset, k.Offset+k.Length, got, who).
		WithDetail("format", c.c.Format).WithDetail("path", c.c.File).
		WithDetail("declared_crc32", fmt.Sprintf("%08x", k.Value)).WithDetail("observed_crc32", fmt.Sprintf("%08x", got))
}

// checkPlainRanges refuses plain ranges outside the file or overlapping
// one another (overlapping members are how zip bombs multiply the bytes
// to read). The members of an archive stored plainly inside another
// container (an app.asar stored in a zip) lie inside that archive's own
// range: they must, and they are checked against each other, not against
// the archive that holds them, so every nesting level reads the file at
// most once more, and max_depth bounds the levels.
func (s *artifactScan) checkPlainRanges(fj *fileJobs, size int64) error {
	sortJobs(fj.plain)
	prevEnd := map[int]int64{}
	for _, j := range fj.plain {
		group, inside := -1, true
		if e := s.res.Entries[j.entry]; e.Container > 0 {
			c := s.res.Containers[e.Container]
			if c.Parent >= 0 && s.res.Containers[c.Parent].Format != inventory.FormatDirectory {
				if a := s.res.Entries[c.Entry].Data; a != nil && a.Compression == inventory.CompressionNone && fj.holds(*a) {
					group = e.Container
					inside = j.offset >= a.Offset && j.end() <= a.End()
				}
			}
		}
		if !inside || j.end() > size || (j.length > 0 && j.offset < prevEnd[group]) {
			return abi.Errorf(abi.CodeArtifactOperationFailed,
				"range %d–%d of %q lies outside the file (%d bytes) or its archive, or overlaps another; the file changed after it was inventoried or the inventory is wrong",
				j.offset, j.end(), fj.file, size).WithDetail("path", fj.file)
		}
		if j.length > 0 {
			prevEnd[group] = j.end()
		}
	}
	return nil
}

// checkCRC compares a 7-Zip member's (or a staged zip member's) decoded
// bytes with the CRC-32 the archive declares for them.
func (s *artifactScan) checkCRC(j *digestJob) error {
	e := s.res.Entries[j.entry]
	if j.crc == nil || e.CRC32 == nil || j.crc.Sum32() == *e.CRC32 {
		return nil
	}
	return abi.Errorf(abi.CodeArtifactIntegrity,
		"%s member %q decodes to bytes with CRC-32 %08x, but the archive declares %08x; the archive is corrupt or was tampered with",
		crcArchive(e), e.Path, j.crc.Sum32(), *e.CRC32).WithDetail("logical_path", e.Path)
}

func crcArchive(e inventory.Entry) string {
	if e.Data != nil && e.Data.Compression == inventory.CompressionSevenZipFolder {
		return "7-Zip"
	}
	return "zip"
}

func headOf(f *os.File) []byte {
	var b [4]byte
	n, _ := f.ReadAt(b[:], 0)
	return b[:n]
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

const (
	statusVerified    = "verified"
	statusMismatched  = "mismatched"
	statusUnavailable = "unavailable"
	// statusUnverifiable: the container declares a hash in an algorithm
	// rea cannot check (anything but SHA256), so nothing was verified.
	statusUnverifiable = "unverifiable"
)

func unverifiableLimitation(e inventory.Entry) string {
	return fmt.Sprintf("%q declares its integrity with algorithm %q, which rea cannot verify (ASAR integrity is SHA256); its bytes were hashed but not verified.", e.Path, e.Integrity.Algorithm)
}

// observe records a finished job against its entry's declared integrity.
func (s *artifactScan) observe(i int, j *digestJob) {
	o := entryObservation{sha256: j.sha256, status: statusVerified, badBlock: j.badBlock, badBlockObserved: j.badBlockObserved, head: j.head, headN: j.headN}
	if in := s.res.Entries[i].Integrity; in.Known() && (in.Hash != j.sha256 || j.badBlock >= 0) {
		o.status = statusMismatched
	} else if in != nil && !in.Known() {
		o.status, o.badBlock = statusUnverifiable, -1
		o.limitation = unverifiableLimitation(s.res.Entries[i])
	}
	s.obs[i] = o
}

// hashDeflated inflates one zip member from its validated range and checks
// the size and CRC-32 the zip declares.
func (s *artifactScan) hashDeflated(ctx context.Context, fh *os.File, size int64, i int) error {
	e := s.res.Entries[i]
	if e.Data.End() > size {
		return abi.Errorf(abi.CodeArtifactOperationFailed, "range of %q lies outside %q; the file changed after it was inventoried", e.Path, e.Data.File)
	}
	fr := flate.NewReader(io.NewSectionReader(fh, e.Data.Offset, e.Data.Length))
	defer fr.Close()
	crc := crc32.NewIEEE()
	job := &digestJob{offset: 0, length: e.Size}
	// One byte more than declared reveals a member that inflates past its size.
	n, err := streamRanges(ctx, io.TeeReader(io.LimitReader(fr, e.Size+1), crc), []*digestJob{job}, sha256.New())
	if err != nil {
		return err
	}
	if n != e.Size || (e.CRC32 != nil && crc.Sum32() != *e.CRC32) {
		return abi.Errorf(abi.CodeArtifactIntegrity,
			"zip member %q inflates to %d bytes with CRC-32 %08x, but the zip declares %d bytes; the archive is corrupt or was tampered with",
			e.Path, n, crc.Sum32(), e.Size).WithDetail("logical_path", e.Path)
	}
	s.observe(i, job)
	return nil
}

// unpackedPath is where an unpacked ASAR entry's bytes live, relative to
// the mount: next to the archive, in <archive>.unpacked/.
func (s *artifactScan) unpackedPath(i int) string {
	e := s.res.Entries[i]
	return s.res.Containers[e.Container].File + ".unpacked/" + e.Path
}

// hashUnpacked hashes an unpacked companion file, or records it as
// unavailable when it is missing.
func (s *artifactScan) hashUnpacked(ctx context.Context, root *os.Root, i int) {
	e := s.res.Entries[i]
	p := s.unpackedPath(i)
	fh, err := s.openUnpacked(root, i)
	if err != nil {
		s.obs[i] = entryObservation{status: statusUnavailable, badBlock: -1, limitation: s.unpackedLimitation(i, err)}
		return
	}
	defer fh.Close()
	job := &digestJob{offset: 0, length: e.Size}
	if e.Integrity.Known() {
		job.blockSize, job.declared = e.Integrity.BlockSize, e.Integrity.Blocks
	}
	whole := sha256.New()
	// Hash the companion as it is, whatever its size: a re-signed binary
	// is usually longer than declared.
	st, err := fh.Stat()
	if err == nil && st.Size() != e.Size {
		job.length = st.Size()
	}
	if _, err := streamRanges(ctx, fh, []*digestJob{job}, whole); err != nil || !job.done {
		s.obs[i] = entryObservation{status: statusUnavailable, badBlock: -1,
			limitation: fmt.Sprintf("Unpacked entry %q could not be read at %s; its bytes were not observed.", e.Path, p)}
		return
	}
	s.observe(i, job)
	if st != nil && st.Size() != e.Size {
		s.obs[i].status = statusMismatched
	}
}

// applyIntegrityPolicy fails closed on the first mismatch, or, with
// record-and-continue, keeps up to max_integrity_mismatches of them.
func (s *artifactScan) applyIntegrityPolicy() error {
	var n int
	for i, o := range s.obs {
		if o.status == statusUnverifiable {
			if s.req.IntegrityPolicy == IntegrityFail {
				e := s.res.Entries[i]
				return abi.Errorf(abi.CodeArtifactIntegrity, "%s Under the default integrity policy an unverifiable declaration fails closed; rerun with --integrity-policy record-and-continue (MCP: integrity_policy) to record it and continue", unverifiableLimitation(e)).
					WithDetail("logical_path", e.Path).WithDetail("algorithm", e.Integrity.Algorithm)
			}
			s.partial = true
			continue
		}
		if o.status != statusMismatched {
			continue
		}
		n++
		e := s.res.Entries[i]
		if s.req.IntegrityPolicy == IntegrityFail {
			return s.integrityError(i)
		}
		if n > s.req.MaxIntegrityMismatches {
			return abi.Errorf(abi.CodeResourceConstraint,
				"more than %d entries contradict their declared integrity (the last one seen is %q); raise max_integrity_mismatches (up to %d) or treat the artifact as tampered",
				s.req.MaxIntegrityMismatches, e.Path, MaxIntegrityMismatchesCeiling).
				WithDetail("limit", "max_integrity_mismatches").WithDetail("maximum", s.req.MaxIntegrityMismatches)
		}
		s.partial = true
	}
	return nil
}

func (s *artifactScan) integrityError(i int) *abi.Error {
	e := s.res.Entries[i]
	o := s.obs[i]
	declared := ""
	if e.Integrity != nil {
		declared = e.Integrity.Hash
	}
	err := abi.Errorf(abi.CodeArtifactIntegrity, "%q declares SHA-256 %s but its bytes hash to %s", e.Path, declared, o.sha256).
		WithDetail("logical_path", e.Path).WithDetail("declared_sha256", declared).WithDetail("observed_sha256", o.sha256).
		WithDetail("unpacked", e.Unpacked)
	if o.badBlock >= 0 {
		err = err.WithDetail("first_mismatched_block", o.badBlock).WithDetail("observed_block_sha256", o.badBlockObserved)
		err.Message += fmt.Sprintf(" (first mismatching %d-byte block: %d)", e.Integrity.BlockSize, o.badBlock)
	}
	if e.Unpacked {
		err.Message += "; this is an .asar.unpacked companion, and packaging tools commonly re-sign or strip such native binaries after writing the archive header, so this is the likely cause. Electron does not check unpacked companions at runtime. If that explains it, rerun with --integrity-policy record-and-continue (MCP: integrity_policy) to record the contradiction and continue"
	} else {
		err.Message += "; the artifact was modified after it was packed. Treat it as tampered, or rerun with --integrity-policy record-and-continue (MCP: integrity_policy) to record the contradiction and inspect the rest"
	}
	return err
}

// newArtifactEvidence wraps a graph page as an Evidence record.
func (s *artifactScan) evidenceRecord(operation string, params any, result any) (evidence.Record, error) {
	version := s.module.SHA256
	format := s.res.Format
	switch format {
	case inventory.FormatZip:
		// Zip-based packages keep their own subject format.
		switch ext := strings.ToLower(filepath.Ext(s.input.abs)); ext {
		case ".ipa", ".apk", ".msix", ".appx":
			format = ext[1:]
		}
	case inventory.FormatASAR, inventory.FormatDirectory:
	default:
		format = "file"
	}
	var limitations []string
	limitations = append(limitations, s.graph.limitations...)
	return evidence.New(evidence.Draft{
		Subject: &evidence.Subject{Name: filepath.Base(s.input.abs), Digest: evidence.Digest{SHA256: s.digest},
			Format: format, LocalPath: s.input.abs},
		Provider:         evidence.Provider{ID: "rea.artifact", Name: "rea artifact inventory", Version: &version},
		Operation:        operation,
		Parameters:       params,
		NormalizedResult: result,
		Limitations:      limitations,
	})
}

// decodedCopy is the staged decoded copy of a stream of file, if the
// module's run staged one whole.
func (s *artifactScan) decodedCopy(r inventory.Range) (string, bool) {
	if s.stage == nil {
		return "", false
	}
	return s.stage.Decoded(r)
}
