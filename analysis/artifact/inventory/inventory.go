// Package inventory is the wire contract of the artifact module's
// `inventory` operation: what the host asks for and the structure the module
// answers with. The module only parses structure and validates byte ranges;
// the host hashes the bytes those ranges name, natively, so every field a
// host needs to find and check bytes is here.
package inventory

import (
	"fmt"
	"path"
	"strings"

	"rea/abi"
)

// Operation is the module operation that answers a Request with a Result.
const Operation = "inventory"

// Formats of a container.
const (
	FormatASAR  = "asar"
	FormatZip   = "zip"
	FormatTar   = "tar"
	FormatTarGz = "tar.gz"
	// FormatDeb is a Debian package: an ar archive whose control.tar.* and
	// data.tar.* members are listed as nested tar containers.
	FormatDeb = "deb"
	// FormatRPM is an RPM package: its cpio payload's members, addressed
	// in the decompressed payload stream.
	FormatRPM = "rpm"
	// FormatAppImage is an ELF runtime followed by a squashfs image;
	// FormatSquashfs a bare squashfs image.
	FormatAppImage = "appimage"
	FormatSquashfs = "squashfs"
	// FormatDMG is an Apple disk image (UDIF) holding an HFS+ or HFSX
	// volume: its files are listed as blocks (the image's chunks).
	FormatDMG       = "dmg"
	FormatDirectory = "directory"
	// FormatAuto lets the module decide from magic bytes and the name.
	FormatAuto = "auto"
)

// Entry kinds.
const (
	KindFile      = "file"
	KindDirectory = "directory"
	KindLink      = "link"
)

// Compression methods of an entry's data range.
const (
	// CompressionNone: the range holds the entry's bytes as they are.
	CompressionNone = ""
	// CompressionDeflate: the range holds a raw DEFLATE stream (zip method 8)
	// that inflates to exactly Size bytes.
	CompressionDeflate = "deflate"
	// CompressionGzipStream: Offset and Length address the decompressed
	// gzip stream of Range.File (tar.gz members), not the file itself.
	CompressionGzipStream = "gzip-stream"
	// CompressionXzStream and CompressionZstdStream are the same for xz and
	// zstd streams (a .deb's data.tar.xz / data.tar.zst).
	CompressionXzStream   = "xz-stream"
	CompressionZstdStream = "zstd-stream"
	// CompressionLzmaStream (legacy .lzma "alone" streams) and
	// CompressionBzip2Stream are further RPM payload compressions.
	CompressionLzmaStream  = "lzma-stream"
	CompressionBzip2Stream = "bzip2-stream"
	// CompressionDeflateStream: StreamOffset and StreamLength place a raw
	// DEFLATE stream (a deflated zip member) and Offset and Length address
	// its decoded bytes — how the members of an archive held in a deflated
	// zip member (resources/app.asar in app.zip) are placed.
	CompressionDeflateStream = "deflate-stream"
	// CompressionBlocks: the entry's bytes are the concatenation of
	// Range.Blocks, each decoded on its own (a squashfs file's data
	// blocks and the tail it keeps in a shared fragment block).
	CompressionBlocks = "blocks"
)

// Codecs of one Block.
const (
	CodecStored = ""
	CodecZlib   = "zlib"
	CodecXz     = "xz"
	CodecLzma   = "lzma"
	CodecZstd   = "zstd"
	// CodecBzip2 is a bzip2 stream (a UDIF image's UDBZ chunks).
	CodecBzip2 = "bzip2"
)

// Defaults and ceilings of the limits.
const (
	DefaultMaxEntries          = 10_000
	DefaultMaxTotalBytes       = 1 << 30
	DefaultMaxEntryBytes       = 256 << 20
	DefaultMaxCompressionRatio = 1_000
	DefaultMaxDepth            = 20
	DefaultMaxPathBytes        = 4_096
	// DefaultMaxHeaderBytes bounds an ASAR JSON header, which must be held
	// in memory to be parsed.
	DefaultMaxHeaderBytes = 64 << 20
)

// Limits bound what a container may declare. A container over a limit fails
// with resource_constraint naming the limit; it never yields a partial
// result that looks complete. Zero fields take the defaults.
type Limits struct {
	MaxEntries          int   `json:"max_entries,omitempty"`
	MaxTotalBytes       int64 `json:"max_total_bytes,omitempty"`
	MaxEntryBytes       int64 `json:"max_entry_bytes,omitempty"`
	MaxCompressionRatio int   `json:"max_compression_ratio,omitempty"`
	MaxDepth            int   `json:"max_depth,omitempty"`
	MaxPathBytes        int   `json:"max_path_bytes,omitempty"`
	MaxHeaderBytes      int64 `json:"max_header_bytes,omitempty"`
}

// WithDefaults fills zero fields with the defaults.
func (l Limits) WithDefaults() Limits {
	if l.MaxEntries == 0 {
		l.MaxEntries = DefaultMaxEntries
	}
	if l.MaxTotalBytes == 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if l.MaxEntryBytes == 0 {
		l.MaxEntryBytes = DefaultMaxEntryBytes
	}
	if l.MaxCompressionRatio == 0 {
		l.MaxCompressionRatio = DefaultMaxCompressionRatio
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxPathBytes == 0 {
		l.MaxPathBytes = DefaultMaxPathBytes
	}
	if l.MaxHeaderBytes == 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return l
}

// Validate refuses negative limits with an invalid_request naming the field.
func (l Limits) Validate() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"max_entries", int64(l.MaxEntries)},
		{"max_total_bytes", l.MaxTotalBytes},
		{"max_entry_bytes", l.MaxEntryBytes},
		{"max_compression_ratio", int64(l.MaxCompressionRatio)},
		{"max_depth", int64(l.MaxDepth)},
		{"max_path_bytes", int64(l.MaxPathBytes)},
		{"max_header_bytes", l.MaxHeaderBytes},
	} {
		if f.v < 0 {
			return abi.Errorf(abi.CodeInvalidRequest, "limits.%s must be positive (or omitted for the default), got %d", f.name, f.v).
				WithDetail("field", "limits."+f.name)
		}
	}
	return nil
}

// Request asks the module to inventory one input found under MountPath.
type Request struct {
	// MountPath is where the host mounted the input's parent directory
	// (or the input directory itself); "/in" unless a test says otherwise.
	MountPath string `json:"mount_path,omitempty"`
	// Input is the input's slash path relative to the mount; "." when the
	// mount is the input directory.
	Input string `json:"input"`
	// Format is one of the Format* constants; empty means auto.
	Format string `json:"format,omitempty"`
	Limits Limits `json:"limits,omitzero"`
	// StreamMount, when set, is where the host mounted the decoded copies
	// of the compressed streams the input holds (StreamName names each):
	// the host decodes a stream once, natively, and both the module
	// (listing, nested archives) and the host (hashing) read that copy.
	StreamMount string `json:"stream_mount,omitempty"`
	// TopLevelOnly leaves archives among the input's entries unexpanded
	// (container.Options.TopLevelOnly): the JavaScript analysis reads only
	// the input's own files.
	TopLevelOnly bool `json:"top_level_only,omitempty"`
	// HostChecksums says the host verifies, in the pass in which it
	// hashes a file, the checksums containers declare over that file
	// (Container.Checksum): the module then declares them instead of
	// reading the whole file for them in the sandbox (an NSIS
	// installer's CRC-32 cost as much as the rest of its inventory).
	HostChecksums bool `json:"host_checksums,omitempty"`
}

// DefaultMountPath is where the host mounts the input.
const DefaultMountPath = "/in"

// Result is the structure of the input: its containers and their entries.
type Result struct {
	// Format of the input itself.
	Format string `json:"format"`
	// Containers[0] is the input; nested containers (archives found in a
	// directory input and expanded) follow.
	Containers []Container `json:"containers"`
	// Entries of every container, in container order then path order.
	Entries []Entry `json:"entries"`
	// TotalBytes sums the declared sizes of all file entries.
	TotalBytes int64 `json:"total_bytes"`
	// Limits are the limits the module applied, defaults filled in.
	Limits Limits `json:"limits"`
	// Limitations say what the module listed without being able to
	// read it fully (an NSIS item whose name the script computes at run
	// time); the host reports them and the coverage is then partial.
	Limitations []string `json:"limitations,omitempty"`
}

// Container is one archive or directory whose entries are listed.
type Container struct {
	// Index is this container's position in Result.Containers.
	Index int `json:"index"`
	// Parent is the index of the enclosing container; -1 for the input.
	Parent int `json:"parent"`
	// Entry is the index in Result.Entries of the file entry holding this
	// container inside its parent; -1 for the input.
	Entry int `json:"entry"`
	// File is the container's own file, slash path relative to the mount;
	// for a directory container, the directory ("." for the mount root).
	File   string `json:"file"`
	Format string `json:"format"`
	// Depth is 0 for the input and grows by one per nesting.
	Depth int `json:"depth"`
	// HeaderSize is the ASAR data base (8 + header pickle size).
	HeaderSize int64 `json:"header_size,omitempty"`
	// ParsedBytes and ParsedSHA256 name the bytes [0, ParsedBytes) of File
	// that the module parsed (an ASAR's prefix and JSON header), so the
	// host can check they did not change before it hashed the rest.
	ParsedBytes  int64  `json:"parsed_bytes,omitempty"`
	ParsedSHA256 string `json:"parsed_sha256,omitempty"`
	// Checksum, when set, is a checksum the container declares over a
	// range of File that the module left to the host to verify
	// (Request.HostChecksums): the host refuses the artifact when the
	// bytes it hashes do not sum to it.
	Checksum *Checksum `json:"checksum,omitempty"`
}

// ChecksumCRC32 is the IEEE CRC-32 (an NSIS installer's).
const ChecksumCRC32 = "crc32"

// Checksum is a checksum a container declares over bytes
// [Offset, Offset+Length) of its own file.
type Checksum struct {
	Algorithm string `json:"algorithm"`
	Offset    int64  `json:"offset"`
	Length    int64  `json:"length"`
	// Value is the declared checksum.
	Value uint32 `json:"value"`
}

// Entry is one member of a container.
type Entry struct {
	// Container is the index of the container that declares the entry.
	Container int `json:"container"`
	// Path is the entry's normalised logical path inside its container.
	Path string `json:"path"`
	Kind string `json:"kind"`
	// Size is the declared (uncompressed) size of a file.
	Size int64 `json:"size"`
	// Data locates the bytes of a file; nil for directories, links and
	// unpacked ASAR entries (whose bytes live in the companion directory).
	Data       *Range     `json:"data,omitempty"`
	Executable bool       `json:"executable,omitempty"`
	Unpacked   bool       `json:"unpacked,omitempty"`
	Link       *Link      `json:"link,omitempty"`
	Integrity  *Integrity `json:"integrity,omitempty"`
	// CRC32 is the checksum a zip declares for the uncompressed bytes.
	CRC32 *uint32 `json:"crc32,omitempty"`
	// Nested is the index of the container this file holds once expanded,
	// or -1 when it was not expanded.
	Nested int `json:"nested"`
}

// Range is where an entry's bytes are.
type Range struct {
	// File is the slash path, relative to the mount, of the file holding
	// the bytes.
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	// Compression says how to turn the range into the entry's bytes.
	Compression string `json:"compression,omitempty"`
	// StreamOffset and StreamLength place a compressed stream inside File
	// (a .deb member); zero length means the stream is the whole file.
	StreamOffset int64 `json:"stream_offset,omitempty"`
	StreamLength int64 `json:"stream_length,omitempty"`
	// Blocks hold the bytes of a CompressionBlocks entry, in order.
	Blocks []Block `json:"blocks,omitempty"`
	// Folder decodes a CompressionSevenZipFolder entry's stream.
	Folder *Folder `json:"folder,omitempty"`
	// Source, when set, is the compressed stream (Compression a stream,
	// Offset and Length unused) whose decoded bytes this range addresses
	// in place of File's own: Offset, StreamOffset, a folder's packed
	// streams are offsets into that decoded copy. It places the members
	// of an archive held compressed in another container (a zip or 7z in
	// a compressed NSIS item); Source may itself have a Source, one per
	// level of such nesting.
	Source *Range `json:"source,omitempty"`
	// BlocksOf, on a CompressionBlocksStream Source only, is the index of
	// the entry (a squashfs file) whose blocks the stream decodes; see
	// CompressionBlocksStream.
	BlocksOf *int `json:"blocks_of,omitempty"`
}

// MaxSourceDepth bounds the chain of Source streams of one range.
const MaxSourceDepth = 32

// Sources is the number of Source links of r, or -1 when the chain is
// longer than MaxSourceDepth.
func (r Range) Sources() int {
	n := 0
	for s := r.Source; s != nil; s = s.Source {
		if n++; n > MaxSourceDepth {
			return -1
		}
	}
	return n
}

// WithSource is r read from the decoded bytes of stream src instead of
// its file: src becomes the Source of the end of r's Source chain (r's
// own offsets are untouched; a range already read from a stream is
// moved with the stream that holds it).
func (r Range) WithSource(src Range) Range {
	if r.Source == nil {
		src.Offset, src.Length = 0, 0
		r.Source = &src
		return r
	}
	inner := r.Source.WithSource(src)
	r.Source = &inner
	return r
}

// Block is one separately compressed piece of an entry: Length bytes at
// Offset of Range.File decode (with Codec) to a block of which the bytes
// [Skip, Skip+Size) belong to the entry. Length 0 is a sparse block of
// Size zero bytes. Whole, when set, is the most the block may decode to
// (a shared fragment block); otherwise Skip+Size is.
type Block struct {
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	Size   int64  `json:"size"`
	Skip   int64  `json:"skip,omitempty"`
	Whole  int64  `json:"whole,omitempty"`
	Codec  string `json:"codec,omitempty"`
}

// End is the first byte after the range.
func (r Range) End() int64 { return r.Offset + r.Length }

// Link is a symbolic link. It is recorded, never followed.
type Link struct {
	// Target as declared by the container.
	Target string `json:"target"`
	// Absolute is set for a target that names an absolute location.
	Absolute bool `json:"absolute,omitempty"`
	// Escapes is set for a relative target that resolves outside the
	// container root.
	Escapes bool `json:"escapes,omitempty"`
	// Hard is set for a tar hard link, whose target is a path from the
	// container root.
	Hard bool `json:"hard,omitempty"`
	// Unread is set when the sandbox could not read a directory link's
	// target (WASI mounts may not offer readlink); the host reads it.
	Unread bool `json:"unread,omitempty"`
}

// NewLink records a link target and flags targets that are absolute or
// climb out of the container. dir is the directory a relative target starts
// from ("" for the container root, as in ASAR).
func NewLink(target, dir string) *Link {
	l := &Link{Target: target}
	t := strings.ReplaceAll(target, `\`, "/")
	if strings.HasPrefix(t, "/") || (len(t) >= 2 && t[1] == ':') {
		l.Absolute = true
		return l
	}
	resolved := path.Join(dir, t)
	if resolved == ".." || strings.HasPrefix(resolved, "../") {
		l.Escapes = true
	}
	return l
}

// Integrity is what a container declares about a file's bytes.
type Integrity struct {
	Algorithm string `json:"algorithm"`
	// Hash is the lowercase hex SHA-256 of the whole file.
	Hash      string   `json:"hash"`
	BlockSize int64    `json:"block_size"`
	Blocks    []string `json:"blocks"`
}

// AlgorithmSHA256 is the one integrity algorithm ASAR headers use and rea
// can verify.
const AlgorithmSHA256 = "SHA256"

// Known reports whether the integrity can be verified: its algorithm is
// SHA256. Another is recorded as declared and verified by nobody.
func (in *Integrity) Known() bool { return in != nil && in.Algorithm == AlgorithmSHA256 }

// String names an entry for messages.
func (e Entry) String() string { return fmt.Sprintf("%s %q", e.Kind, e.Path) }
