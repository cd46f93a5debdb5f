// Package stream opens the compressed streams an inventory Range can point
// into (gzip, xz, zstd), so the artifact module that lists a member and the
// host that hashes and extracts it decode the same bytes the same way.
package stream

import (
	"bufio"
	"compress/bzip2"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"sync"

	kflate "github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"

	"rea/analysis/artifact/inventory"
)

// maxZstdWindow bounds the memory a zstd frame may ask for (the format
// allows up to 3.75 TB windows; real packages use ≤ 128 MiB).
const maxZstdWindow = 128 << 20

// IsStream reports whether compression names a decompressed-stream range,
// whose Offset and Length address the decompressed bytes.
func IsStream(compression string) bool {
	switch compression {
	case inventory.CompressionGzipStream, inventory.CompressionXzStream, inventory.CompressionZstdStream,
		inventory.CompressionLzmaStream, inventory.CompressionBzip2Stream, inventory.CompressionSevenZipFolder,
		inventory.CompressionDeflateStream, inventory.CompressionBlocksStream:
		return true
	}
	return isNSISStream(compression)
}

// Open decodes the compressed stream r names: bytes [StreamOffset,
// StreamOffset+StreamLength) of ra, or the whole file (fileSize bytes)
// when StreamLength is zero.
func Open(ra io.ReaderAt, fileSize int64, r inventory.Range) (io.ReadCloser, error) {
	return OpenWith(ra, fileSize, r, false)
}

// OpenWith is Open; fast lets zstd decode with two goroutines and its
// default buffers (the window cap still holds).
func OpenWith(ra io.ReaderAt, fileSize int64, r inventory.Range, fast bool) (io.ReadCloser, error) {
	if r.Compression == inventory.CompressionSevenZipFolder {
		return OpenFolder(ra, fileSize, r.Folder)
	}
	if r.Compression == inventory.CompressionBlocksStream {
		// A squashfs file as a stream: its blocks must lie in the file
		// and add up to its size, each cut to what it declares.
		if err := CheckBlocks(r.Blocks, fileSize, r.StreamLength); err != nil {
			return nil, fmt.Errorf("the blocks of the stream: %w", err)
		}
		return io.NopCloser(OpenBlocks(ra, r, nil)), nil
	}
	off, n := r.StreamOffset, r.StreamLength
	if n == 0 {
		off, n = 0, fileSize
	}
	if off < 0 || n < 0 || off > fileSize || n > fileSize-off {
		return nil, fmt.Errorf("the compressed stream %d+%d lies outside the file (%d bytes)", off, n, fileSize)
	}
	if r.Compression == inventory.CompressionDeflateStream {
		return openInflater(io.NewSectionReader(ra, off, n)), nil
	}
	src := bufio.NewReaderSize(io.NewSectionReader(ra, off, n), 1<<20)
	if fast && r.Compression == inventory.CompressionZstdStream {
		zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(2), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, fmt.Errorf("cannot read the zstd stream: %w", err)
		}
		return zstdCloser{zr}, nil
	}
	return Decoder(src, r.Compression)
}

// Decoder wraps src in the decompressor of compression.
func Decoder(src io.Reader, compression string) (io.ReadCloser, error) {
	if rc, ok, err := nsisDecoder(src, compression); ok {
		return rc, err
	}
	switch compression {
	case inventory.CompressionGzipStream:
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, fmt.Errorf("cannot read the gzip stream: %w", err)
		}
		return zr, nil
	case inventory.CompressionXzStream:
		cfg := xz.ReaderConfig{SingleStream: false}
		xr, err := cfg.NewReader(src)
		if err != nil {
			return nil, fmt.Errorf("cannot read the xz stream: %w", err)
		}
		return io.NopCloser(xr), nil
	case inventory.CompressionLzmaStream:
		lr, err := lzma.NewReader(src)
		if err != nil {
			return nil, fmt.Errorf("cannot read the lzma stream: %w", err)
		}
		return io.NopCloser(lr), nil
	case inventory.CompressionBzip2Stream:
		return io.NopCloser(bzip2.NewReader(src)), nil
	case inventory.CompressionDeflateStream:
		return flate.NewReader(src), nil
	case inventory.CompressionZstdStream:
		zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, fmt.Errorf("cannot read the zstd stream: %w", err)
		}
		return zstdCloser{zr}, nil
	}
	return nil, fmt.Errorf("compression %q is not a stream", compression)
}

// inflater is a pooled DEFLATE decoder and its read buffer. Only the
// host opens streams through Open: klauspost's inflater, about 1.3x
// compress/flate's speed on installers' zlib items, is not linked into
// the module. Pooled, because a non-solid installer holds hundreds of
// small streams, and a fresh decoder and megabyte of buffer for each
// kept the garbage collector stopping the decoding ones.
type inflater struct {
	br *bufio.Reader
	fr io.ReadCloser
}

var inflaters sync.Pool

func openInflater(src io.Reader) *inflation {
	if f, ok := inflaters.Get().(*inflater); ok {
		f.br.Reset(src)
		if err := f.fr.(kflate.Resetter).Reset(f.br, nil); err == nil {
			return &inflation{f: f}
		}
	}
	br := bufio.NewReaderSize(src, 256<<10)
	return &inflation{f: &inflater{br: br, fr: kflate.NewReader(br)}}
}

// inflation is one use of a pooled inflater: its Close gives the
// inflater back once, however often it is called, and reads after it
// fail rather than reach the inflater's next user.
type inflation struct{ f *inflater }

func (i *inflation) Read(p []byte) (int, error) {
	if i.f == nil {
		return 0, os.ErrClosed
	}
	return i.f.fr.Read(p)
}

// Close returns the decoder to the pool.
func (i *inflation) Close() error {
	if i.f == nil {
		return nil
	}
	err := i.f.fr.Close()
	i.f.br.Reset(nil)
	inflaters.Put(i.f)
	i.f = nil
	return err
}

type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }
