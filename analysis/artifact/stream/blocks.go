package stream

import (
	"bytes"
	"compress/bzip2"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"

	"rea/analysis/artifact/inventory"
)

// DecodeBlock decodes one separately compressed block, refusing one that
// decodes to more than limit bytes.
func DecodeBlock(codec string, raw []byte, limit int64) ([]byte, error) {
	var r io.Reader
	switch codec {
	case inventory.CodecStored:
		if int64(len(raw)) > limit {
			return nil, fmt.Errorf("a stored block of %d bytes is larger than %d", len(raw), limit)
		}
		return raw, nil
	case inventory.CodecZlib:
		zr, err := newZlibReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("zlib: %w", err)
		}
		defer zr.Close()
		r = zr
	case inventory.CodecBzip2:
		r = bzip2.NewReader(bytes.NewReader(raw))
	case inventory.CodecXz:
		xr, err := xz.ReaderConfig{SingleStream: true}.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("xz: %w", err)
		}
		r = xr
	case inventory.CodecLzma:
		lr, err := lzma.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("lzma: %w", err)
		}
		r = lr
	case inventory.CodecZstd:
		// A frame's window is at least 1 KiB even when it holds fewer
		// bytes (a file's last block, a few hundred bytes): a smaller
		// memory bound refuses it. The decoded length is checked below.
		zr, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow),
			zstd.WithDecoderMaxMemory(uint64(max(limit, zstd.MinWindowSize))+1))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		defer zr.Close()
		out, err := zr.DecodeAll(raw, make([]byte, 0, min(limit, 1<<20)))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		if int64(len(out)) > limit {
			return nil, fmt.Errorf("a block decodes to more than %d bytes", limit)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("unknown block codec %q", codec)
	}
	out, err := readBlock(r, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", codec, err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("a block decodes to more than %d bytes", limit)
	}
	return out, nil
}

// readBlock reads r to its end or to limit+1 bytes, whichever is first.
// It is io.ReadAll starting from a buffer of the block's declared size
// (capped at preallocCap, so a declared size alone never allocates more
// than that; past it the buffer grows as io.ReadAll's does): a 1 MiB
// .dmg chunk is one allocation rather than io.ReadAll's dozen growing
// copies from 512 bytes, which cost about a tenth of inspecting an image.
func readBlock(r io.Reader, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit+1)
	out := make([]byte, 0, min(limit, preallocCap)+1)
	for {
		if len(out) == cap(out) {
			out = append(out, 0)[:len(out)]
		}
		n, err := r.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// preallocCap bounds readBlock's first allocation: the common block sizes
// (squashfs's up to 1 MiB, hdiutil's default 1 MiB .dmg chunk) are read
// without regrowing; a larger one (a .dmg chunk may declare 64 MiB)
// grows from there.
const preallocCap = 1 << 20

// CheckBlocks verifies that every block lies in a file of size bytes and
// that the blocks add up to want bytes.
func CheckBlocks(blocks []inventory.Block, size, want int64) error {
	var total int64
	for i, b := range blocks {
		if b.Offset < 0 || b.Length < 0 || b.Size < 0 || b.Skip < 0 || b.Offset > size || b.Length > size-b.Offset {
			return fmt.Errorf("block %d (%d bytes at %d) lies outside the file (%d bytes)", i, b.Length, b.Offset, size)
		}
		if b.Length == 0 && (b.Skip != 0 || b.Codec != "") {
			return fmt.Errorf("sparse block %d names a codec or a skip", i)
		}
		if b.Size > 1<<30 || b.Skip > 1<<30 || (b.Whole > 0 && b.Skip+b.Size > b.Whole) {
			return fmt.Errorf("block %d declares %d bytes at %d of a %d-byte block", i, b.Size, b.Skip, b.Whole)
		}
		total += b.Size
	}
	if total != want {
		return fmt.Errorf("the blocks hold %d bytes, not the %d declared", total, want)
	}
	return nil
}

// BlockReader reads the concatenated bytes of blocks from ra. It keeps
// the last decoded shared block, since consecutive small files share one
// fragment.
type BlockReader struct {
	ra     io.ReaderAt
	blocks []inventory.Block
	cur    []byte
	cache  *BlockCache
}

// BlockCache remembers the most recently decoded shared (fragment) block,
// and, for one reader at a time, the buffers and zstd decoder its blocks
// are read and decoded with: a squashfs image is thousands of 128 KiB
// blocks, and a fresh decoder and two fresh buffers for each kept the
// host's garbage collector busy for a fifth of the inventory.
type BlockCache struct {
	offset int64
	data   []byte
	raw    []byte
	out    []byte
	zstd   *zstd.Decoder
}

// Close releases the cache's zstd decoder.
func (c *BlockCache) Close() {
	if c.zstd != nil {
		c.zstd.Close()
		c.zstd = nil
	}
}

// reusableZstdBytes bounds what the cache's zstd decoder decodes one
// block to (squashfs blocks are at most 1 MiB); a block allowed more
// takes DecodeBlock's own decoder.
const reusableZstdBytes = 1 << 20

// decodeZstd decodes a zstd block into the cache's buffer, which the
// next block reuses (a shared fragment's bytes, kept, are not decoded
// here).
func (c *BlockCache) decodeZstd(raw []byte, limit int64) ([]byte, error) {
	if c.zstd == nil {
		zr, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow),
			zstd.WithDecoderMaxMemory(reusableZstdBytes+1))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		c.zstd = zr
	}
	out, err := c.zstd.DecodeAll(raw, c.out[:0])
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	c.out = out
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("a block decodes to more than %d bytes", limit)
	}
	return out, nil
}

// OpenBlocks reads the blocks of r from ra; cache may be nil.
func OpenBlocks(ra io.ReaderAt, r inventory.Range, cache *BlockCache) *BlockReader {
	if cache == nil {
		cache = &BlockCache{offset: -1}
	}
	return &BlockReader{ra: ra, blocks: r.Blocks, cache: cache}
}

func (br *BlockReader) Read(p []byte) (int, error) {
	if err := br.fill(); err != nil {
		return 0, err
	}
	n := copy(p, br.cur)
	br.cur = br.cur[n:]
	return n, nil
}

// Next returns the unread bytes of the current block, decoding the next
// when it is used up, without copying them; they are valid until the
// next call of Next or Read. At the end, io.EOF.
func (br *BlockReader) Next() ([]byte, error) {
	if err := br.fill(); err != nil {
		return nil, err
	}
	p := br.cur
	br.cur = nil
	return p, nil
}

func (br *BlockReader) fill() error {
	for len(br.cur) == 0 {
		if len(br.blocks) == 0 {
			return io.EOF
		}
		b := br.blocks[0]
		br.blocks = br.blocks[1:]
		data, err := br.decode(b)
		if err != nil {
			return err
		}
		br.cur = data
	}
	return nil
}

func (br *BlockReader) decode(b inventory.Block) ([]byte, error) {
	if b.Length == 0 {
		return make([]byte, b.Size), nil
	}
	limit := b.Skip + b.Size
	if b.Whole > 0 {
		limit = b.Whole
		if br.cache.offset == b.Offset && br.cache.data != nil {
			return sliceBlock(br.cache.data, b)
		}
	}
	// A zstd block that is not a shared fragment (whose bytes the cache
	// keeps) is read and decoded into the cache's buffers: the reader
	// hands its bytes on before it decodes the next.
	reuse := b.Codec == inventory.CodecZstd && b.Whole == 0 && limit <= reusableZstdBytes
	var raw []byte
	if reuse {
		if int64(cap(br.cache.raw)) < b.Length {
			br.cache.raw = make([]byte, b.Length)
		}
		raw = br.cache.raw[:b.Length]
	} else {
		raw = make([]byte, b.Length)
	}
	if _, err := br.ra.ReadAt(raw, b.Offset); err != nil {
		return nil, fmt.Errorf("cannot read the block at %d: %w", b.Offset, err)
	}
	var data []byte
	var err error
	if reuse {
		data, err = br.cache.decodeZstd(raw, limit)
	} else {
		data, err = DecodeBlock(b.Codec, raw, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("the block at %d does not decode: %w", b.Offset, err)
	}
	if b.Whole > 0 {
		br.cache.offset, br.cache.data = b.Offset, data
	}
	return sliceBlock(data, b)
}

func sliceBlock(data []byte, b inventory.Block) ([]byte, error) {
	if b.Skip+b.Size > int64(len(data)) {
		return nil, fmt.Errorf("the block at %d decodes to %d bytes, fewer than the %d the entry takes from it", b.Offset, len(data), b.Skip+b.Size)
	}
	return data[b.Skip : b.Skip+b.Size], nil
}
