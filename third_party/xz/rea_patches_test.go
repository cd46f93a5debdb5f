/*
 * rea: rea's patches (PATCHES.md) checked against upstream v1.0.1's code,
 * kept here as the reference: every patched function must leave the
 * same bytes, positions and probabilities as upstream's on the same
 * state. Whole streams are compared with 7z and xz in rea's
 * analysis/artifact/stream (lzma2_wrap_test.go).
 */

package xz

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

/* upstreamDictRepeat is v1.0.1's dictRepeat: one byte at a time. */
func upstreamDictRepeat(dict *dictionary, len *uint32, dist uint32) bool {
	var back uint32
	var left uint32
	if dist >= dict.full || dist >= dict.size {
		return false
	}
	left = dict.limit - dict.pos
	if left > *len {
		left = *len
	}
	*len -= left
	back = dict.pos - dist - 1
	if dist >= dict.pos {
		back += dict.end
	}
	for {
		dict.buf[dict.pos] = dict.buf[back]
		dict.pos++
		back++
		if back == dict.end {
			back = 0
		}
		left--
		if !(left > 0) {
			break
		}
	}
	if dict.full < dict.pos {
		dict.full = dict.pos
	}
	return true
}

/* upstreamRcBit and the bit trees below are v1.0.1's range decoder. */
func upstreamRcBit(rc *rcDec, prob *uint16) bool {
	var bound uint32
	var bit bool
	rcNormalize(rc)
	bound = (rc.rnge >> rcBitModelTotalBits) * uint32(*prob)
	if rc.code < bound {
		rc.rnge = bound
		*prob += (rcBitModelTotal - *prob) >> rcMoveBits
		bit = false
	} else {
		rc.rnge -= bound
		rc.code -= bound
		*prob -= *prob >> rcMoveBits
		bit = true
	}
	return bit
}

func upstreamRcBittree(rc *rcDec, probs []uint16, limit uint32) uint32 {
	var symbol uint32 = 1
	for {
		if upstreamRcBit(rc, &probs[symbol-1]) {
			symbol = symbol<<1 + 1
		} else {
			symbol <<= 1
		}
		if !(symbol < limit) {
			break
		}
	}
	return symbol
}

func upstreamRcBittreeReverse(rc *rcDec, probs []uint16, dest *uint32, limit uint32) {
	var symbol uint32 = 1
	var i uint32 = 0
	for {
		if upstreamRcBit(rc, &probs[symbol-1]) {
			symbol = symbol<<1 + 1
			*dest += 1 << i
		} else {
			symbol <<= 1
		}
		i++
		if !(i < limit) {
			break
		}
	}
}

func upstreamRcDirect(rc *rcDec, dest *uint32, limit uint32) {
	var mask uint32
	for {
		rcNormalize(rc)
		rc.rnge >>= 1
		rc.code -= rc.rnge
		mask = 0 - rc.code>>31
		rc.code += rc.rnge & mask
		*dest = *dest<<1 + mask + 1
		limit--
		if !(limit > 0) {
			break
		}
	}
}

/* upstreamLzmaLiteral is v1.0.1's lzmaLiteral on upstreamRcBit. */
func upstreamLzmaLiteral(s *xzDecLZMA2) {
	var probs []uint16
	var symbol uint32
	var matchByte uint32
	var matchBit uint32
	var offset uint32
	var i uint32
	probs = lzmaLiteralProbs(s)
	if lzmaStateIsLiteral(s.lzma.state) {
		symbol = upstreamRcBittree(&s.rc, probs[1:], 0x100)
	} else {
		symbol = 1
		matchByte = dictGet(&s.dict, s.lzma.rep0) << 1
		offset = 0x100
		for {
			matchBit = matchByte & offset
			matchByte <<= 1
			i = offset + matchBit + symbol
			if upstreamRcBit(&s.rc, &probs[i]) {
				symbol = symbol<<1 + 1
				offset &= matchBit
			} else {
				symbol <<= 1
				offset &= ^matchBit
			}
			if !(symbol < 0x100) {
				break
			}
		}
	}
	dictPut(&s.dict, byte(symbol))
	lzmaStateLiteral(&s.lzma.state)
}

/* lcg is a small deterministic generator for the cases below. */
type lcg uint64

func (g *lcg) next() uint32 {
	*g = *g*6364136223846793005 + 1442695040888963407
	return uint32(*g >> 33)
}

func (g *lcg) below(n uint32) uint32 { return g.next() % n }

/*
 * TestDictRepeatIsTheByteLoop: the chunked repeat leaves the dictionary,
 * position, fill and remaining length exactly as upstream's byte loop,
 * for every kind of repeat: overlapping (distance below the length,
 * down to a run of one byte), a source that wraps around the end of
 * the circular buffer, a distance of the whole dictionary, a write
 * limit that cuts the repeat short, and invalid distances.
 */
func TestDictRepeatIsTheByteLoop(t *testing.T) {
	g := lcg(1)
	cases := 0
	wrapped := 0
	for _, size := range []uint32{1, 2, 3, 7, 16, 61, 64, 255, 4096} {
		for n := 0; n < 4000; n++ {
			buf := make([]byte, size)
			for i := range buf {
				buf[i] = byte(g.next())
			}
			pos := g.below(size)
			full := size /* the buffer has wrapped */
			if g.below(3) == 0 {
				full = pos /* it has not */
			}
			limit := pos + 1 + g.below(size-pos)
			var dist uint32
			switch g.below(4) {
			case 0:
				dist = g.below(4) /* overlapping runs */
			case 1:
				dist = size - 1 - g.below(size)%4 /* at the wrap */
				if dist >= size {
					dist = size - 1
				}
			case 2:
				dist = g.below(size + 2) /* may be invalid */
			default:
				dist = g.below(size)
			}
			length := 1 + g.below(600)
			if g.below(4) == 0 {
				length = 273 /* the longest match */
			}
			want := dictionary{buf: buf, pos: pos, full: full, limit: limit, end: size, size: size}
			got := want
			want.buf = append([]byte(nil), buf...)
			got.buf = append([]byte(nil), buf...)
			wantLen, gotLen := length, length
			wantOK := upstreamDictRepeat(&want, &wantLen, dist)
			gotOK := dictRepeat(&got, &gotLen, dist)
			if gotOK != wantOK || gotLen != wantLen || !reflect.DeepEqual(got, want) {
				t.Fatalf("size %d pos %d full %d limit %d dist %d len %d: got ok=%v len=%d pos=%d full=%d %x, want ok=%v len=%d pos=%d full=%d %x",
					size, pos, full, limit, dist, length, gotOK, gotLen, got.pos, got.full, got.buf, wantOK, wantLen, want.pos, want.full, want.buf)
			}
			if wantOK && dist >= pos {
				wrapped++
			}
			cases++
		}
	}
	if wrapped < cases/10 {
		t.Fatalf("only %d of %d repeats read across the wrap", wrapped, cases)
	}
}

/* rcPair is a range decoder state twice over: one for each side. */
func rcPair(g *lcg, in []byte) (rcDec, rcDec) {
	rc := rcDec{rnge: g.next() | 1, code: 0, in: in, inPos: 0, inLimit: len(in)}
	if g.below(2) == 0 {
		rc.rnge >>= g.below(16) /* normalization due */
	}
	if rc.rnge == 0 {
		rc.rnge = 1
	}
	rc.code = g.next() % rc.rnge /* code < range, as in a valid stream */
	return rc, rc
}

func randomProbs(g *lcg, n int) []uint16 {
	p := make([]uint16, n)
	for i := range p {
		switch g.below(4) {
		case 0:
			p[i] = uint16(g.below(rcBitModelTotal + 1)) /* any, also out of LZMA's range */
		case 1:
			p[i] = rcBitModelTotal / 2
		default:
			p[i] = uint16(31 + g.below(2017-31+1)) /* the range LZMA keeps */
		}
	}
	return p
}

func randomBytes(g *lcg, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.next())
	}
	return b
}

/*
 * TestRangeDecoderIsUpstreams: one bit for every probability, the bit
 * trees, the reverse bit trees, the direct bits and a literal with and
 * without a match byte decode the same symbols and leave the same range
 * decoder and probabilities as upstream's code.
 */
func TestRangeDecoderIsUpstreams(t *testing.T) {
	g := lcg(2)
	for p := 0; p <= rcBitModelTotal; p++ {
		for n := 0; n < 200; n++ {
			a, b := rcPair(&g, randomBytes(&g, 4))
			pa, pb := uint16(p), uint16(p)
			if x, y := upstreamRcBit(&a, &pa), rcBit(&b, &pb); x != y || !reflect.DeepEqual(a, b) || pa != pb {
				t.Fatalf("prob %d: bit %v/%v, rc %+v/%+v, prob %d/%d", p, x, y, a, b, pa, pb)
			}
		}
	}
	pool := randomProbs(&g, 1<<16)
	for n := 0; n < 20000; n++ {
		in := randomBytes(&g, 64)
		a, b := rcPair(&g, in)
		switch n % 4 {
		case 0:
			limit := uint32(1) << (1 + g.below(8))
			pa := randomProbs(&g, int(limit))
			pb := append([]uint16(nil), pa...)
			x, y := upstreamRcBittree(&a, pa, limit), rcBittree(&b, pb, limit)
			if x != y || !reflect.DeepEqual(a, b) || !reflect.DeepEqual(pa, pb) {
				t.Fatalf("bittree %d: %d/%d, rc %+v/%+v", limit, x, y, a, b)
			}
		case 1:
			limit := 1 + g.below(6)
			pa := randomProbs(&g, 1<<limit)
			pb := append([]uint16(nil), pa...)
			da := g.next() >> 8
			db := da
			upstreamRcBittreeReverse(&a, pa, &da, limit)
			rcBittreeReverse(&b, pb, &db, limit)
			if da != db || !reflect.DeepEqual(a, b) || !reflect.DeepEqual(pa, pb) {
				t.Fatalf("reverse bittree %d: %d/%d, rc %+v/%+v", limit, da, db, a, b)
			}
		case 2:
			limit := 1 + g.below(26)
			da := g.below(4)
			db := da
			upstreamRcDirect(&a, &da, limit)
			rcDirect(&b, &db, limit)
			if da != db || !reflect.DeepEqual(a, b) {
				t.Fatalf("direct %d: %d/%d, rc %+v/%+v", limit, da, db, a, b)
			}
		default:
			sa := new(xzDecLZMA2)
			sa.rc = a
			sa.lzma.lc = g.below(5)
			sa.lzma.literalPosMask = 1<<g.below(5-sa.lzma.lc) - 1
			sa.lzma.state = lzmaState(g.below(states)) /* literal and match states */
			for i := range sa.lzma.literal {
				off := g.below(uint32(len(pool) - literalCoderSize))
				copy(sa.lzma.literal[i][:], pool[off:])
			}
			size := 1 + g.below(300)
			sa.dict = dictionary{buf: randomBytes(&g, int(size)), end: size, size: size}
			sa.dict.pos = g.below(size)
			sa.dict.full = size
			if g.below(4) == 0 {
				sa.dict.full = sa.dict.pos
			}
			sa.dict.limit = size
			if sa.dict.full > 0 {
				sa.lzma.rep0 = g.below(sa.dict.full) /* a distance dictRepeat took */
			}
			sb := new(xzDecLZMA2)
			*sb = *sa
			sb.dict.buf = append([]byte(nil), sa.dict.buf...)
			sb.rc = b
			upstreamLzmaLiteral(sa)
			lzmaLiteral(sb)
			if !reflect.DeepEqual(sa, sb) {
				t.Fatalf("literal (state %d): rc %+v/%+v, dict pos %d/%d", sa.lzma.state, sa.rc, sb.rc, sa.dict.pos, sb.dict.pos)
			}
		}
	}
}

/*
 * TestRangeDecoderBitIsInlined: rcDecBit is the decoder's inner loop; if
 * a Go release's inliner stops inlining it, the decoder loses much of
 * the patch's speed without any test failing. Make it cheaper again
 * (go build -gcflags=-m=2 prints its cost; the budget is 80).
 */
func TestRangeDecoderBitIsInlined(t *testing.T) {
	out, err := exec.Command("go", "build", "-gcflags=-m", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "can inline rcDecBit") {
		t.Fatalf("Go no longer inlines rcDecBit:\n%s", out)
	}
}

/*
 * TestDictAllocIsZeroedAndSized: the dictionary buffer, with or without
 * the huge-page advice, is n zero bytes.
 */
func TestDictAllocIsZeroedAndSized(t *testing.T) {
	for _, n := range []int{1, 4096, hugeDictMin - 1, hugeDictMin, hugeDictMin + 12345, 3 << 22} {
		b := dictAlloc(n)
		if len(b) != n {
			t.Fatalf("dictAlloc(%d): %d bytes", n, len(b))
		}
		for i, c := range b {
			if c != 0 {
				t.Fatalf("dictAlloc(%d): byte %d is %#x", n, i, c)
			}
		}
	}
}
