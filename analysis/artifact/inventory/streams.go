package inventory

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// DefaultStreamMountPath is where the host mounts decoded streams.
const DefaultStreamMountPath = "/streams"

// StreamSizePrefix before a StreamNameOf name asks the stream mount for
// the stream's decoded size alone, as decimal text: the host decodes and
// sums the stream without keeping a copy (the lister needs no byte of a
// non-solid NSIS item that holds no archive, and the host hashes it from
// that sum). Asking for the stream's own name later decodes it again.
const StreamSizePrefix = "size."

// StreamWalkPrefix before a StreamNameOf name asks the stream mount for
// the stream's decoded bytes front to back, without a copy: the file
// reads on and seeks forward only, and the host sums every span the
// reader seeks over, so a lister that skips over a solid NSIS block's
// items leaves the host their hashes. Seeking back fails.
const StreamWalkPrefix = "walk."

// StreamWalkName is the name under which the stream mount serves the
// stream r points into front to back (StreamWalkPrefix).
func StreamWalkName(r Range) string { return StreamWalkPrefix + StreamNameOf(r) }

// StreamSizeName is the name under which the stream mount serves the
// decoded size of the stream r points into.
func StreamSizeName(r Range) string { return StreamSizePrefix + StreamNameOf(r) }

// StreamName is the flat file name under Request.StreamMount of the
// decoded bytes of the compressed stream [offset, offset+length) of file.
func StreamName(file, compression string, offset, length int64) string {
	return fmt.Sprintf("%s.%d.%d.%s", compression, offset, length, hex.EncodeToString([]byte(file)))
}

// StreamNameOf is the StreamName of the stream a range points into. A
// 7-Zip folder's name also carries its coder chain (base64url of its
// JSON), so the host can decode it without reading the archive's header,
// and two different chains over the same packed bytes are two streams;
// a blocks stream's carries its blocks (compactly, see appendBlocks).
//
// A stream read from another's decoded bytes (Range.Source) ends with
// "~" and the base64url of its source's own name, so the host decodes
// the source first and this stream from that copy.
func StreamNameOf(r Range) string {
	name := StreamName(r.File, r.Compression, r.StreamOffset, r.StreamLength)
	if r.Compression == CompressionSevenZipFolder && r.Folder != nil {
		b, _ := json.Marshal(r.Folder)
		name += "." + base64.RawURLEncoding.EncodeToString(b)
	}
	if r.Compression == CompressionBlocksStream && len(r.Blocks) > 0 {
		name += "." + blocksName(r.Blocks)
	}
	if r.Source != nil {
		name += "~" + base64.RawURLEncoding.EncodeToString([]byte(StreamNameOf(*r.Source)))
	}
	return name
}

// MaxStreamNameFolderBytes bounds the folder description a stream name
// may carry.
const MaxStreamNameFolderBytes = 16 << 10

// ParseStreamName reverses StreamName; ok is false for any other name.
func ParseStreamName(name string) (file, compression string, offset, length int64, ok bool) {
	r, ok := ParseStreamRange(name)
	return r.File, r.Compression, r.StreamOffset, r.StreamLength, ok
}

// ParseStreamRange reverses StreamNameOf: the stream's file, compression,
// StreamOffset, StreamLength and, for a 7-Zip folder, Folder.
func ParseStreamRange(name string) (Range, bool) {
	return parseStreamRange(name, 0)
}

func parseStreamRange(name string, depth int) (Range, bool) {
	var source *Range
	if head, tail, ok := strings.Cut(name, "~"); ok {
		inner, err := base64.RawURLEncoding.DecodeString(tail)
		if err != nil || depth >= MaxSourceDepth {
			return Range{}, false
		}
		src, ok := parseStreamRange(string(inner), depth+1)
		if !ok {
			return Range{}, false
		}
		name, source = head, &src
	}
	r, ok := parseOneStream(name)
	r.Source = source
	return r, ok
}

func parseOneStream(name string) (Range, bool) {
	parts := strings.SplitN(name, ".", 5)
	if len(parts) < 4 {
		return Range{}, false
	}
	off, err1 := strconv.ParseInt(parts[1], 10, 64)
	n, err2 := strconv.ParseInt(parts[2], 10, 64)
	raw, err3 := hex.DecodeString(parts[3])
	if err1 != nil || err2 != nil || err3 != nil || off < 0 || n < 0 || len(raw) == 0 {
		return Range{}, false
	}
	r := Range{File: string(raw), Compression: parts[0], StreamOffset: off, StreamLength: n}
	if r.Compression == CompressionBlocksStream {
		if len(parts) != 5 {
			return Range{}, false
		}
		blocks, ok := parseBlocksName(parts[4])
		r.Blocks = blocks
		return r, ok
	}
	if len(parts) == 5 {
		if r.Compression != CompressionSevenZipFolder || len(parts[4]) > MaxStreamNameFolderBytes*4/3+4 {
			return Range{}, false
		}
		b, err := base64.RawURLEncoding.DecodeString(parts[4])
		var f Folder
		if err != nil || json.Unmarshal(b, &f) != nil {
			return Range{}, false
		}
		r.Folder = &f
	} else if r.Compression == CompressionSevenZipFolder {
		return Range{}, false
	}
	return r, true
}

// StreamBudget is the most a compressed stream of n bytes may decode to
// under lim (defaults filled), and the limit that sets it: the
// compression ratio (with 1 MiB of slack for tiny streams), or, when
// smaller, the total-bytes limit plus room for every entry's archive
// headers (8 KiB each) — a stream that decodes past it cannot be listed
// within the limits, so nobody needs more of it.
func StreamBudget(lim Limits, n int64) (budget int64, limit string) {
	ratio := int64(lim.MaxCompressionRatio)
	budget, limit = max(n*ratio, 1<<20), "max_compression_ratio"
	if n > 0 && budget/n < ratio { // overflow
		budget = 1<<63 - 1
	}
	if total := lim.MaxTotalBytes + int64(lim.MaxEntries)*(8<<10) + 1<<20; total > 0 && total < budget {
		budget, limit = total, "max_total_bytes"
	}
	return budget, limit
}
