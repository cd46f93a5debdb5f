package container

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// linearBlockRead is blockFile.ReadAt as it was before it searched for
// its first block (a scan of every block on every read): the reference
// the search must agree with, byte for byte and error for error.
func linearBlockRead(b *blockFile, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.EOF
	}
	n := 0
	var pos int64
	for i, blk := range b.r.Blocks {
		if n == len(p) {
			return n, nil
		}
		end := pos + blk.Size
		if end <= off+int64(n) {
			pos = end
			continue
		}
		if b.last != i {
			data, err := io.ReadAll(stream.OpenBlocks(b.ra, inventory.Range{Blocks: b.r.Blocks[i : i+1]}, &b.cache))
			if err != nil {
				return n, err
			}
			b.last, b.data = i, data
		}
		at := off + int64(n) - pos
		if at >= int64(len(b.data)) {
			return n, io.ErrUnexpectedEOF
		}
		n += copy(p[n:], b.data[at:])
		pos = end
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestBlockFileReadsAsTheScanDid: random layouts of stored, sparse,
// empty and zlib blocks (whole, and cut by Skip/Size as a shared chunk
// is), read at random offsets and lengths — before, inside, across and
// past the blocks, empty reads, negative offsets — give the bytes and
// errors the linear scan gave, and the bytes the blocks hold.
func TestBlockFileReadsAsTheScanDid(t *testing.T) {
	rnd := rand.New(rand.NewPCG(25, 9))
	for layout := range 40 {
		var file, want []byte
		var blocks []inventory.Block
		for range 1 + rnd.IntN(30) {
			size := int64(rnd.IntN(3000))
			body := make([]byte, size)
			for i := range body {
				body[i] = byte(rnd.IntN(7)) + 'a'
			}
			switch rnd.IntN(4) {
			case 0: // stored
				blocks = append(blocks, inventory.Block{Offset: int64(len(file)), Length: size, Size: size})
				file = append(file, body...)
			case 1: // sparse, or empty
				clear(body)
				blocks = append(blocks, inventory.Block{Size: size})
			case 2, 3: // zlib, whole or a cut of it
				whole := append(bytes.Clone(body), make([]byte, rnd.IntN(500))...)
				skip := int64(0)
				if rnd.IntN(2) == 0 {
					skip = int64(rnd.IntN(200))
					whole = append(make([]byte, skip), whole...)
				}
				var z bytes.Buffer
				w := zlib.NewWriter(&z)
				w.Write(whole)
				w.Close()
				blocks = append(blocks, inventory.Block{Offset: int64(len(file)), Length: int64(z.Len()), Size: size, Skip: skip, Whole: int64(len(whole)), Codec: inventory.CodecZlib})
				file = append(file, z.Bytes()...)
			}
			want = append(want, body...)
		}
		r := inventory.Range{Compression: inventory.CompressionBlocks, Blocks: blocks}
		got, ref := newBlockFile(bytes.NewReader(file), r), newBlockFile(bytes.NewReader(file), r)
		total := int64(len(want))
		for read := range 300 {
			off := rnd.Int64N(total+20) - 3
			p := make([]byte, rnd.IntN(4000))
			q := make([]byte, len(p))
			n, err := got.ReadAt(p, off)
			m, rerr := linearBlockRead(ref, q, off)
			if n != m || !errors.Is(err, rerr) || !bytes.Equal(p[:n], q[:m]) {
				t.Fatalf("layout %d read %d (%d bytes at %d): %d, %v; the scan read %d, %v", layout, read, len(p), off, n, err, m, rerr)
			}
			if off >= 0 && off < total && !bytes.Equal(p[:n], want[off:off+int64(n)]) {
				t.Fatalf("layout %d read %d (%d bytes at %d): the bytes differ from the blocks'", layout, read, len(p), off)
			}
			if off >= 0 && n != int(min(int64(len(p)), max(total-off, 0))) {
				t.Fatalf("layout %d read %d (%d bytes at %d of %d): %d bytes, %v", layout, read, len(p), off, total, n, err)
			}
		}
	}
}

// BenchmarkBlockFileReadAt reads small pieces near the end of a file of
// many blocks, as a nested archive's central directory is read, with the
// search and with the scan it replaced (linear in the blocks per read).
func BenchmarkBlockFileReadAt(b *testing.B) {
	const n = 1 << 16
	blocks := make([]inventory.Block, n)
	for i := range blocks {
		blocks[i] = inventory.Block{Size: 4096}
	}
	for _, c := range []struct {
		name string
		read func(*blockFile, []byte, int64) (int, error)
	}{{"search", (*blockFile).ReadAt}, {"scan", linearBlockRead}} {
		b.Run(c.name, func(b *testing.B) {
			f := newBlockFile(bytes.NewReader(nil), inventory.Range{Blocks: blocks})
			p := make([]byte, 64)
			for i := 0; b.Loop(); i++ {
				if _, err := c.read(f, p, int64(n-1-i%8)*4096+100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
