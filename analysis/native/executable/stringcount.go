package executable

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
)

// An overview needs only how many strings there are. Counting them the way
// scanASCII and scanUTF16 list them costs three byte-at-a-time passes over
// every data section (tens of MB in a large binary, and ten times the
// native cost in wasm), so the counter below reads each section once, in
// chunks, and classifies 64 bytes at a time into bit masks: one bit per
// byte for "printable" and one for "zero". ASCII strings are runs of
// printable bits; UTF-16LE strings are runs of "printable byte followed by
// a zero byte" at even and at odd offsets. Runs of at least m <= 64 bits
// are counted without visiting them (runBits: a zero bit after m ones ends
// one), longer minimums run by run (runCounter). Each step loops over a
// whole chunk inside one call: in wasm a call per 64-byte block cost more
// than the block. TestStringCountEqualsTheScan holds the counts to the
// scans' on random data, TestCountOnlyAgreesWithTheFullLists on binaries.

// countChunk is how much of a section the counter reads at once (plus one
// byte to see whether the next block starts with a zero); a multiple of
// 128, so blocks stay aligned to the section start (UTF-16 parity is
// relative to it) and pair up into 64-bit words of 32 units.
const countChunk = 1 << 20

// runCounter counts maximal runs of one bits at least min long in a bit
// stream fed LSB first, a word at a time.
type runCounter struct {
	min   int
	run   int // length of the run still open at the end of the last word
	count int
}

// feed takes the w low bits of x (bits at and above w must be zero).
func (r *runCounter) feed(x uint64, w int) {
	if r.run == 0 && x == 0 {
		return
	}
	pos := 0
	for pos < w {
		y := x >> uint(pos)
		if r.run == 0 {
			if y == 0 {
				return
			}
			tz := bits.TrailingZeros64(y)
			pos += tz
			y >>= uint(tz)
		}
		ones := bits.TrailingZeros64(^y)
		if pos+ones >= w {
			r.run += w - pos
			return
		}
		r.run += ones
		pos += ones
		if r.run >= r.min {
			r.count++
		}
		r.run = 0
	}
}

// stringCounter counts the ASCII and UTF-16LE strings of one section a
// block at a time (for minimum lengths above 64).
type stringCounter struct {
	ascii, even, odd runCounter
	// The UTF-16 mask of a block needs the first byte of the next one, so
	// each block is finished when the next arrives.
	pending      bool
	prevP, prevZ uint64
}

func newStringCounter(minLen int) *stringCounter {
	return &stringCounter{ascii: runCounter{min: minLen}, even: runCounter{min: minLen}, odd: runCounter{min: minLen}}
}

const (
	lanes7f = 0x7f7f7f7f7f7f7f7f
	// gather moves the top bit of each byte of (m >> 7) into the top byte.
	gather = 0x0102040810204080
)

// laneBits packs the top bit of each byte of m (others clear) into 8 bits.
func laneBits(m uint64) uint64 { return ((m >> 7) * gather) >> 56 }

// zeroLanes marks (top bit) every byte of w that is zero, exactly.
func zeroLanes(w uint64) uint64 { return ^(((w & lanes7f) + lanes7f) | w) & highs }

// printableLanes marks every byte of w in the printable class: 0x20..0x7e,
// tab, newline and carriage return.
func printableLanes(w uint64) uint64 {
	low := w & lanes7f
	graphic := (low + ones*(0x80-0x20)) &^ (low + ones) &^ w & highs // 0x20 <= b <= 0x7e
	tabNL := (low + ones*(0x80-0x09)) &^ (low + ones*(0x80-0x0b)) &^ w & highs
	return graphic | tabNL | zeroLanes(w^ones*0x0d)
}

// masks classifies 64 bytes: bit i of p says b[i] is printable, of z that
// it is zero.
func masks(b []byte) (p, z uint64) {
	_ = b[63]
	for k := 0; k < 8; k++ {
		w := binary.LittleEndian.Uint64(b[8*k:])
		p |= laneBits(printableLanes(w)) << (8 * k)
		z |= laneBits(zeroLanes(w)) << (8 * k)
	}
	return p, z
}

// evenBits packs bits 0, 2, 4, … of x into the low 32 bits.
func evenBits(x uint64) uint64 {
	x &= 0x5555555555555555
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0f0f0f0f0f0f0f0f
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// block takes the masks of the next 64 bytes.
func (c *stringCounter) block(p, z uint64) {
	if c.pending {
		c.finish(c.prevP, c.prevZ, z&1, 64)
	}
	c.prevP, c.prevZ, c.pending = p, z, true
}

// finish counts a block of n bytes whose successor starts with a zero
// byte when nextZero is 1.
func (c *stringCounter) finish(p, z, nextZero uint64, n int) {
	c.ascii.feed(p, n)
	u := p & (z>>1 | nextZero<<63)
	if n < 64 {
		u &= 1<<uint(n-1) - 1 // the last byte has no successor: no unit starts there
	}
	c.even.feed(evenBits(u), (n+1)/2)
	c.odd.feed(evenBits(u>>1), n/2)
}

// tail takes the last 0 < n < 64 bytes of the section and closes it.
func (c *stringCounter) tail(b []byte) int {
	var buf [64]byte
	n := copy(buf[:], b)
	p, z := masks(buf[:])
	keep := uint64(1)<<uint(n) - 1
	c.block(p&keep, z&keep)
	return c.close(n)
}

// close ends the section after a block of n bytes (0 when it ended on a
// block boundary) and returns how many strings it holds. An ASCII run
// reaching the end counts; a UTF-16 run reaching the end does not, as in
// scanUTF16, which closes a run only at a unit it visits.
func (c *stringCounter) close(n int) int {
	if c.pending {
		if n == 0 {
			n = 64
		}
		c.finish(c.prevP, c.prevZ, 0, n)
		c.pending = false
	}
	if c.ascii.run >= c.ascii.min {
		c.ascii.count++
	}
	c.ascii.run, c.even.run, c.odd.run = 0, 0, 0
	return c.ascii.count + c.even.count + c.odd.count
}

// countStrings counts the strings of size bytes at off of r, reading
// them through buf (a multiple of 128 bytes, plus one).
func countStrings(r io.ReaderAt, off, size int64, minLen int, buf []byte) (int, error) {
	if minLen > 64 {
		return countStringsByRuns(r, off, size, minLen, buf[:len(buf)&^127])
	}
	chunkSize := int64((len(buf) - 1) &^ 127)
	blocks := int(chunkSize / 64)
	// Per chunk: the masks of its blocks, then each stream's words. Every
	// step is a loop over a whole chunk inside one call, since a call per
	// 64-byte block cost more than the block's work in wasm.
	ps, zs := make([]uint64, blocks+1), make([]uint64, blocks+1)
	even, odd := make([]uint64, blocks/2+1), make([]uint64, blocks/2+1)
	ascii, evenRuns, oddRuns := runBits{m: minLen}, runBits{m: minLen}, runBits{m: minLen}
	for done := int64(0); done < size; {
		n := min(size-done, chunkSize)
		look := min(size-done, chunkSize+1) // one byte more: is the next block's first byte zero?
		if got, err := r.ReadAt(buf[:look], off+done); int64(got) < look {
			return 0, fmt.Errorf("read %d of %d bytes at offset %d: %v", got, look, off+done, err)
		}
		chunk := buf[:n]
		full := int(n) / 64
		nb := full
		for k := 0; k < full; k++ {
			ps[k], zs[k] = masks(chunk[64*k : 64*k+64])
		}
		tail := int(n) % 64
		if tail > 0 { // the section's last bytes: pad with bytes that are neither printable nor zero
			var pad [64]byte
			copy(pad[:], chunk[64*full:])
			p, z := masks(pad[:])
			keep := uint64(1)<<uint(tail) - 1
			ps[full], zs[full] = p&keep, z&keep
			nb++
		}
		nextZero := uint64(0)
		if look > n && buf[n] == 0 {
			nextZero = 1
		}
		zs[nb] = nextZero // the first byte after the chunk
		// UTF-16LE units: a printable byte followed by a zero byte, at even
		// and at odd offsets; 32 of each per block, two blocks per word.
		for k := 0; k < nb; k++ {
			u := ps[k] & (zs[k]>>1 | (zs[k+1]&1)<<63)
			if k == nb-1 && tail > 0 {
				u &= uint64(1)<<uint(tail-1) - 1 // the last byte has no successor
			}
			if k%2 == 0 {
				even[k/2], odd[k/2] = evenBits(u), evenBits(u>>1)
			} else {
				even[k/2] |= evenBits(u) << 32
				odd[k/2] |= evenBits(u>>1) << 32
			}
		}
		ascii.words(ps[:nb])
		done += n
		if done < size {
			evenRuns.words(even[:nb/2])
			oddRuns.words(odd[:nb/2])
			continue
		}
		// The end: an ASCII run reaching it counts (a zero word closes it);
		// a UTF-16 run reaching it does not, as in scanUTF16, which closes
		// a run only at a unit it visits.
		ascii.words([]uint64{0})
		last := (nb - 1) / 2 // the word holding the last block
		evenRuns.words(even[:last])
		oddRuns.words(odd[:last])
		covered := int(n) - 128*last // bytes of data the last word covers
		evenRuns.last(even[last], (covered+1)/2)
		oddRuns.last(odd[last], covered/2)
	}
	return ascii.count + evenRuns.count + oddRuns.count, nil
}

// runBits counts maximal runs of at least m (<= 64) one bits in a stream
// fed a 64-bit word at a time, LSB first, without looking at runs one by
// one: a zero bit preceded by m ones ends a counted run.
type runBits struct {
	m int
	// h is the previous word, hb its "m ones end here" bits.
	h, hb uint64
	count int
}

// ends marks the zero bits of x preceded by at least m one bits.
func (r *runBits) ends(x uint64) (ends, b uint64) {
	// b: bit j is set when bits j-m+1..j are all ones. Doubling the window
	// takes log2(m) steps; bits of the previous word shift in from h (whose
	// own history is unknown, which costs only its low bits).
	b, bh := x, r.h
	for k := 1; k < r.m; {
		s := min(k, r.m-k)
		b &= b<<uint(s) | bh>>uint(64-s)
		bh &= bh << uint(s)
		k += s
	}
	return ^x & (b<<1 | r.hb>>63), b
}

// words feeds whole words.
func (r *runBits) words(ws []uint64) {
	for _, x := range ws {
		e, b := r.ends(x)
		r.count += bits.OnesCount64(e)
		r.h, r.hb = x, b
	}
}

// last feeds a final word of which only the low valid bits are data, and
// counts only runs that end inside them.
func (r *runBits) last(x uint64, valid int) {
	e, _ := r.ends(x)
	if valid < 64 {
		e &= uint64(1)<<uint(valid) - 1
	}
	r.count += bits.OnesCount64(e)
}

// countStringsByRuns is countStrings for minimum lengths above 64, a
// block at a time.
func countStringsByRuns(r io.ReaderAt, off, size int64, minLen int, buf []byte) (int, error) {
	c := newStringCounter(minLen)
	for done := int64(0); done < size; {
		n := min(size-done, int64(len(buf)))
		if got, err := r.ReadAt(buf[:n], off+done); int64(got) < n {
			return 0, fmt.Errorf("read %d of %d bytes at offset %d: %v", got, n, off+done, err)
		}
		chunk := buf[:n]
		full := len(chunk) &^ 63
		for i := 0; i < full; i += 64 {
			c.block(masks(chunk[i : i+64]))
		}
		done += n
		if full < len(chunk) { // only a section's last chunk is cut short
			return c.tail(chunk[full:]), nil
		}
	}
	return c.close(0), nil
}
