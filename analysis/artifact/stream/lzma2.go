package stream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	xzembedded "github.com/therootcompany/xz"
)

// LZMA2 decoding for 7-Zip folders. XZ Embedded's decoder (the Go port
// in therootcompany/xz) decodes LZMA2 about 1.6x faster than ulikunitz/xz
// (docs/benchmarks.md, Session 9), and rea's patched copy of it
// (third_party/xz, PATCHES.md: match copies in runs, an inlined
// branchless range decoder) another 1.5x (Session 13); decoding is most
// of what a 7z inventory costs. It reads only the .xz container. A raw LZMA2 stream whose
// packed and unpacked sizes the 7z header declares is exactly the data of
// a one-block .xz stream with no check, so openLZMA2 frames it as one:
// stream header, block header naming the LZMA2 filter, the packed bytes,
// block padding, an index of that one block, stream footer. The index
// holds the declared sizes, so a stream that decodes to another size, or
// ends before or after its packed bytes, is an error, as 7-Zip has it.

// lzma2DictSize is the dictionary an LZMA2 property byte declares (7z
// and .xz encode it alike).
func lzma2DictSize(prop byte) int64 {
	if prop >= 40 {
		return 1<<32 - 1
	}
	return int64(2|prop&1) << (prop/2 + 11)
}

// lzma2DictProp is the smallest property byte whose dictionary holds
// min(declared, size) bytes: a dictionary never needs to be larger than
// the output it serves (distances cannot reach before the first byte), so
// a small folder does not allocate the 64 MiB its encoder declared.
func lzma2DictProp(declared byte, size int64) byte {
	want := min(lzma2DictSize(declared), size)
	p := byte(0)
	for p < declared && lzma2DictSize(p) < want {
		p++
	}
	return p
}

// openLZMA2 decodes the raw LZMA2 stream in r (packed bytes) that the
// archive says decodes to size bytes with dictionary property prop.
func openLZMA2(r io.Reader, packed, size int64, prop byte) (io.Reader, error) {
	if prop > 40 {
		return nil, fmt.Errorf("lzma2: dictionary property %d is out of range", prop)
	}
	if packed < 1 || size < 0 {
		return nil, fmt.Errorf("lzma2: a stream of %d packed bytes for %d bytes", packed, size)
	}
	dp := lzma2DictProp(prop, size)
	head, tail := xzFrame(packed, size, dp)
	framed := io.MultiReader(bytes.NewReader(head), &fullReader{r: r, left: packed}, bytes.NewReader(tail))
	xr, err := xzembedded.NewReader(framed, uint32(min(lzma2DictSize(dp), 1<<32-1)))
	if err != nil {
		return nil, fmt.Errorf("lzma2: %w", err)
	}
	xr.Multistream(false)
	return &guardedReader{r: xr}, nil
}

// xzFrame is the .xz stream around one LZMA2 block of packed bytes that
// decode to size bytes: everything before the block's data and everything
// after it.
func xzFrame(packed, size int64, dictProp byte) (head, tail []byte) {
	flags := []byte{0, 0} // check: none (7-Zip has its own CRCs)
	head = append([]byte{0xfd, '7', 'z', 'X', 'Z', 0}, flags...)
	head = binary.LittleEndian.AppendUint32(head, crc32.ChecksumIEEE(flags))
	// Block header: size, flags (one filter, no optional sizes), the LZMA2
	// filter (id 0x21, one property byte), padding, CRC-32.
	block := []byte{0, 0, 0x21, 1, dictProp}
	for len(block)%4 != 0 {
		block = append(block, 0)
	}
	block[0] = byte(len(block) / 4)
	block = binary.LittleEndian.AppendUint32(block, crc32.ChecksumIEEE(block))
	head = append(head, block...)

	tail = make([]byte, (4-packed%4)%4) // block padding
	index := []byte{0}                  // index indicator
	index = binary.AppendUvarint(index, 1)
	index = binary.AppendUvarint(index, uint64(int64(len(block))+packed)) // unpadded size
	index = binary.AppendUvarint(index, uint64(size))
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = binary.LittleEndian.AppendUint32(index, crc32.ChecksumIEEE(index))
	tail = append(tail, index...)
	footer := binary.LittleEndian.AppendUint32(nil, uint32(len(index)/4-1)) // backward size
	footer = append(footer, flags...)
	tail = binary.LittleEndian.AppendUint32(tail, crc32.ChecksumIEEE(footer))
	tail = append(tail, footer...)
	return head, append(tail, 'Y', 'Z')
}

// fullReader yields left bytes of r; an earlier end is
// io.ErrUnexpectedEOF, so a short packed stream is not completed by the
// frame's trailer bytes.
type fullReader struct {
	r    io.Reader
	left int64
}

func (f *fullReader) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= int64(n)
	if err == io.EOF {
		if f.left > 0 {
			return n, io.ErrUnexpectedEOF
		}
		err = nil
	}
	return n, err
}

// errLZMA2Panic: the decoder panicked on hostile input. XZ Embedded is
// bounds-checked C ported to Go; a panic there is a decoder bug that
// hostile bytes reached, reported as corrupt data rather than taking the
// host down.
var errLZMA2Panic = errors.New("lzma2: the decoder failed on corrupt data")

// guardedReader turns a decoder panic into an error and keeps returning
// it.
type guardedReader struct {
	r   io.Reader
	err error
}

func (g *guardedReader) Read(p []byte) (n int, err error) {
	if g.err != nil {
		return 0, g.err
	}
	defer func() {
		if v := recover(); v != nil {
			n, err = 0, fmt.Errorf("%w (%v)", errLZMA2Panic, v)
			g.err = err
		}
	}()
	n, err = g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("lzma2: %w", err)
		g.err = err
	}
	return n, err
}
