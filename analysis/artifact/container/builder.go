// Package container reads the structure of untrusted containers — ASAR, zip,
// tar, tar.gz and plain directories — and lists their entries with the byte
// ranges that hold each file. It never trusts a declared number: every size,
// offset and name is checked against the file and the limits before it is
// listed, so the host can hash exactly the ranges it is given.
//
// It runs inside the artifact wasm module and natively in tests; it reads
// through an fs.FS so the same code serves a WASI mount and a test tree.
package container

import (
	"fmt"
	"io/fs"

	"rea/abi"
	"rea/analysis/artifact/artpath"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// builder accumulates the entries of every container and enforces the
// limits that span containers (entry count, total bytes).
type builder struct {
	lim inventory.Limits
	// topOnly leaves archives among the input's entries unexpanded
	// (Options.TopLevelOnly).
	topOnly  bool
	res      *inventory.Result
	progress func(abi.Progress)
	// streams serves the host's decoded copies of compressed streams
	// (inventory.StreamName); nil when the module decodes them itself.
	streams fs.FS
	// hostChecksums: the caller checks the checksums a container
	// declares over its whole file (Options.HostChecksums).
	hostChecksums bool
	// base is where, in the outer file, the container being opened
	// starts: a container held plainly in another (an archive stored in
	// a zip) is listed from a section of the file, and its ranges are
	// moved by base once it is listed.
	base int64
	// source, when set, is the stream (in the outer file's terms) whose
	// decoded bytes hold the container being opened — an archive held
	// in a compressed NSIS item — and base is then an offset in them.
	source *inventory.Range
	// section is set while a container held inside another is listed
	// (base may then be 0: an archive at the start of a decoded stream).
	section bool
}

func newBuilder(lim inventory.Limits, progress func(abi.Progress)) *builder {
	return &builder{lim: lim, res: &inventory.Result{Limits: lim}, progress: progress}
}

// scope lists the entries of one container: it owns the container's path
// collision registry.
type scope struct {
	b     *builder
	index int
	reg   *artpath.Registry
	// base, source, section: see builder.base, source and section.
	base    int64
	source  *inventory.Range
	section bool
}

func (b *builder) openContainer(c inventory.Container) (*scope, error) {
	if c.Depth > b.lim.MaxDepth {
		return nil, limitError("max_depth", int64(b.lim.MaxDepth), int64(c.Depth),
			fmt.Sprintf("container %q is nested %d levels deep", c.File, c.Depth))
	}
	c.Index = len(b.res.Containers)
	b.res.Containers = append(b.res.Containers, c)
	return &scope{b: b, index: c.Index, reg: artpath.NewRegistry(), base: b.base, source: b.source, section: b.section}, nil
}

// normalize checks a declared path against the path rules and limits.
func (s *scope) normalize(p string) (string, error) {
	return artpath.Normalize(p, artpath.Limits{MaxBytes: s.b.lim.MaxPathBytes, MaxDepth: s.b.lim.MaxDepth})
}

// add registers an entry whose Path is already normalised.
func (s *scope) add(e inventory.Entry) (int, error) {
	b := s.b
	if len(b.res.Entries) >= b.lim.MaxEntries {
		return 0, limitError("max_entries", int64(b.lim.MaxEntries), int64(len(b.res.Entries))+1,
			fmt.Sprintf("the container declares at least %d entries", len(b.res.Entries)+1))
	}
	if err := s.reg.Add(e.Path, e.Kind == inventory.KindDirectory); err != nil {
		return 0, err
	}
	if e.Kind == inventory.KindFile {
		if e.Size < 0 {
			return 0, malformedf("entry %q declares a negative size %d", e.Path, e.Size)
		}
		if e.Size > b.lim.MaxEntryBytes {
			return 0, limitError("max_entry_bytes", b.lim.MaxEntryBytes, e.Size,
				fmt.Sprintf("entry %q declares %d bytes", e.Path, e.Size))
		}
		if b.res.TotalBytes > b.lim.MaxTotalBytes-e.Size {
			return 0, limitError("max_total_bytes", b.lim.MaxTotalBytes, b.res.TotalBytes+e.Size,
				fmt.Sprintf("the entries up to %q declare %d bytes in total", e.Path, b.res.TotalBytes+e.Size))
		}
		b.res.TotalBytes += e.Size
		if e.Data != nil && !stream.IsStream(e.Data.Compression) {
			if err := checkRatio(b.lim, e); err != nil {
				return 0, err
			}
		}
	}
	e.Container = s.index
	if e.Nested == 0 { // the input itself is never nested: 0 means unset
		e.Nested = -1
	}
	b.res.Entries = append(b.res.Entries, e)
	if n := len(b.res.Entries); b.progress != nil && n%1000 == 0 {
		b.progress(abi.Progress{Phase: "inventory", Done: int64(n)})
	}
	return len(b.res.Entries) - 1, nil
}

// checkRatio refuses a compressed entry that declares more expansion than
// the compression-ratio limit allows (a zip bomb).
func checkRatio(lim inventory.Limits, e inventory.Entry) error {
	if e.Data.Compression == inventory.CompressionNone || e.Size == 0 {
		return nil
	}
	ratio := int64(lim.MaxCompressionRatio)
	if e.Data.Length == 0 || e.Size/ratio > e.Data.Length || (e.Size/ratio == e.Data.Length && e.Size%ratio != 0) {
		observed := int64(-1)
		if e.Data.Length > 0 {
			observed = e.Size / e.Data.Length
		}
		return limitError("max_compression_ratio", ratio, observed,
			fmt.Sprintf("entry %q expands %d compressed bytes to %d", e.Path, e.Data.Length, e.Size))
	}
	return nil
}

func limitError(limit string, max, observed int64, what string) *abi.Error {
	return abi.Errorf(abi.CodeResourceConstraint, "%s, which exceeds %s (%d); raise %s if the artifact is trusted and the machine can afford it",
		what, limit, max, limit).
		WithDetail("limit", limit).WithDetail("maximum", max).WithDetail("observed", observed)
}

func malformedf(format string, args ...any) *abi.Error {
	e := abi.Errorf(abi.CodeArtifactOperationFailed, format, args...)
	e.Message += "; the container is malformed, truncated or hostile, and rea will not read it"
	return e
}
