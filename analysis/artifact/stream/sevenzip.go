package stream

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/ulikunitz/xz/lzma"

	"rea/analysis/artifact/inventory"
)

// 7-Zip method ids (hex, as inventory.Coder.Method spells them) that
// OpenFolder decodes.
const (
	MethodCopy    = "00"
	MethodDelta   = "03"
	MethodLZMA    = "030101"
	MethodBCJ     = "03030103"
	MethodBCJ2    = "0303011b"
	MethodDeflate = "040108"
	MethodBzip2   = "040202"
	MethodLZMA2   = "21"
	MethodAES     = "06f10701"
)

// methodNames names the 7-Zip methods rea knows of, decoded or not, for
// messages.
var methodNames = map[string]string{
	MethodCopy: "Copy", MethodDelta: "Delta", MethodLZMA: "LZMA", MethodBCJ: "BCJ (x86)", MethodBCJ2: "BCJ2",
	MethodDeflate: "Deflate", MethodBzip2: "BZip2", MethodLZMA2: "LZMA2", MethodAES: "7zAES (AES-256 + SHA-256)",
	"030401": "PPMD", "040109": "Deflate64", "03030205": "PPC", "03030401": "IA64", "03030501": "ARM",
	"03030701": "ARMT", "03030805": "SPARC", "0a": "ARM64", "0b": "RISCV", "04f71101": "Zstandard",
	"04f71102": "Brotli", "04f71104": "LZ4", "04f71105": "LZ5", "04f71106": "Lizard", "020302": "Swap2", "020304": "Swap4",
}

// MethodName names a 7-Zip method id for messages.
func MethodName(id string) string {
	if n, ok := methodNames[id]; ok {
		return n
	}
	return "method 0x" + id
}

// UnsupportedMethodError is a folder whose coder chain uses a method rea
// does not decode; Encrypted is set for 7-Zip's AES encryption.
type UnsupportedMethodError struct {
	Method    string
	Encrypted bool
}

func (e *UnsupportedMethodError) Error() string {
	if e.Encrypted {
		return "the folder is encrypted (7zAES: AES-256 with a key derived from a password)"
	}
	return fmt.Sprintf("the folder uses the 7-Zip method %s, which rea does not decode", MethodName(e.Method))
}

// maxFolderCoders bounds a folder's coder chain (7-Zip writes at most 4).
const maxFolderCoders = 8

// CheckFolder verifies that a folder is well formed — its packed streams
// lie in a file of fileSize bytes, every coder input is fed exactly once,
// one output is left over — and that rea decodes every method in it
// (*UnsupportedMethodError otherwise).
func CheckFolder(f *inventory.Folder, fileSize int64) error {
	_, err := folderPlan(f, fileSize)
	return err
}

// plan is a checked folder: for each coder input (global index), the
// packed stream or coder output feeding it, and the main coder.
type plan struct {
	firstIn []int // first global input index of each coder
	feed    []int // per global input: >= 0 coder output, -1-k packed stream k
	main    int
}

func folderPlan(f *inventory.Folder, fileSize int64) (*plan, error) {
	if f == nil {
		return nil, errors.New("the range names no 7-Zip folder")
	}
	n := len(f.Coders)
	if n == 0 || n > maxFolderCoders {
		return nil, fmt.Errorf("a folder has %d coders (1 to %d expected)", n, maxFolderCoders)
	}
	if len(f.Sizes) != n {
		return nil, fmt.Errorf("a folder declares %d output sizes for %d coders", len(f.Sizes), n)
	}
	p := &plan{firstIn: make([]int, n)}
	total := 0
	for i, c := range f.Coders {
		if c.Inputs < 1 || c.Inputs > 4 {
			return nil, fmt.Errorf("coder %d declares %d inputs", i, c.Inputs)
		}
		p.firstIn[i] = total
		total += c.Inputs
		if f.Sizes[i] < 0 {
			return nil, fmt.Errorf("coder %d declares a negative size", i)
		}
		if err := checkMethod(c); err != nil {
			return nil, err
		}
	}
	p.feed = make([]int, total)
	for i := range p.feed {
		p.feed[i] = -1 << 30
	}
	consumed := make([]bool, n)
	for _, b := range f.Bonds {
		if b.In < 0 || b.In >= total || b.Out < 0 || b.Out >= n || p.feed[b.In] != -1<<30 || consumed[b.Out] {
			return nil, fmt.Errorf("a folder bond %+v is out of range or repeated", b)
		}
		p.feed[b.In] = b.Out
		consumed[b.Out] = true
	}
	if len(f.PackedInputs) != len(f.Packed) {
		return nil, fmt.Errorf("a folder names %d packed inputs for %d packed streams", len(f.PackedInputs), len(f.Packed))
	}
	for k, in := range f.PackedInputs {
		if in < 0 || in >= total || p.feed[in] != -1<<30 {
			return nil, fmt.Errorf("packed stream %d feeds input %d, which is out of range or already fed", k, in)
		}
		p.feed[in] = -1 - k
		ps := f.Packed[k]
		if ps.Offset < 0 || ps.Length < 0 || ps.Offset > fileSize || ps.Length > fileSize-ps.Offset {
			return nil, fmt.Errorf("packed stream %d (%d bytes at %d) lies outside the file (%d bytes)", k, ps.Length, ps.Offset, fileSize)
		}
	}
	for in, v := range p.feed {
		if v == -1<<30 {
			return nil, fmt.Errorf("coder input %d is fed by nothing", in)
		}
	}
	p.main = -1
	for i := range consumed {
		if !consumed[i] {
			if p.main >= 0 {
				return nil, errors.New("a folder has more than one unbound output")
			}
			p.main = i
		}
	}
	if p.main < 0 {
		return nil, errors.New("a folder has no unbound output")
	}
	// Every coder must be reachable from the main one exactly once (no
	// cycles): walk from main.
	seen := make([]bool, n)
	var walk func(c, depth int) error
	walk = func(c, depth int) error {
		if seen[c] || depth > n {
			return errors.New("a folder's coders form a cycle")
		}
		seen[c] = true
		for j := 0; j < f.Coders[c].Inputs; j++ {
			if v := p.feed[p.firstIn[c]+j]; v >= 0 {
				if err := walk(v, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(p.main, 0); err != nil {
		return nil, err
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("coder %d feeds nothing the folder outputs", i)
		}
	}
	return p, nil
}

func checkMethod(c inventory.Coder) error {
	props, err := hex.DecodeString(c.Props)
	if err != nil {
		return fmt.Errorf("coder properties %q are not hex", c.Props)
	}
	want := 1
	switch c.Method {
	case MethodCopy, MethodBCJ, MethodDeflate, MethodBzip2:
	case MethodDelta:
		if len(props) != 1 {
			return errors.New("a Delta coder needs one property byte")
		}
	case MethodLZMA:
		if len(props) != 5 || props[0] >= 9*5*5 {
			return fmt.Errorf("an LZMA coder has properties %q", c.Props)
		}
	case MethodLZMA2:
		if len(props) != 1 || props[0] > 40 {
			return fmt.Errorf("an LZMA2 coder has properties %q", c.Props)
		}
	case MethodBCJ2:
		want = 4
	case MethodAES:
		return &UnsupportedMethodError{Method: c.Method, Encrypted: true}
	default:
		return &UnsupportedMethodError{Method: c.Method}
	}
	if c.Inputs != want {
		return fmt.Errorf("a %s coder declares %d inputs, not %d", MethodName(c.Method), c.Inputs, want)
	}
	return nil
}

// OpenFolder decodes a folder's output from the file ra (fileSize bytes).
// The reader yields exactly the declared output size — fewer bytes are an
// error, more are not read — and checks the declared CRC-32 at the end.
func OpenFolder(ra io.ReaderAt, fileSize int64, f *inventory.Folder) (io.ReadCloser, error) {
	p, err := folderPlan(f, fileSize)
	if err != nil {
		return nil, err
	}
	r, err := p.coder(ra, f, p.main)
	if err != nil {
		return nil, err
	}
	out := &exactReader{r: r, left: f.Sizes[p.main]}
	if f.CRC32 != nil {
		out.crc, out.want = crc32.NewIEEE(), *f.CRC32
	}
	return out, nil
}

// input opens coder input in and says how many bytes it holds.
func (p *plan) input(ra io.ReaderAt, f *inventory.Folder, in int) (io.Reader, int64, error) {
	v := p.feed[in]
	if v >= 0 {
		r, err := p.coder(ra, f, v)
		if err != nil {
			return nil, 0, err
		}
		return &exactReader{r: r, left: f.Sizes[v]}, f.Sizes[v], nil
	}
	ps := f.Packed[-1-v]
	return bufio.NewReaderSize(io.NewSectionReader(ra, ps.Offset, ps.Length), 64<<10), ps.Length, nil
}

func (p *plan) coder(ra io.ReaderAt, f *inventory.Folder, i int) (io.Reader, error) {
	c := f.Coders[i]
	props, _ := hex.DecodeString(c.Props)
	size := f.Sizes[i]
	ins := make([]io.Reader, c.Inputs)
	inSize := make([]int64, c.Inputs)
	for j := range ins {
		r, n, err := p.input(ra, f, p.firstIn[i]+j)
		if err != nil {
			return nil, err
		}
		ins[j], inSize[j] = r, n
	}
	// A dictionary never needs to be larger than the output it serves.
	dict := func(declared int64) int {
		return int(max(min(declared, size), lzma.MinDictCap))
	}
	switch c.Method {
	case MethodCopy:
		return ins[0], nil
	case MethodDelta:
		return &deltaReader{r: ins[0], dist: int(props[0]) + 1}, nil
	case MethodLZMA:
		hdr := make([]byte, lzma.HeaderLen)
		hdr[0] = props[0]
		binary.LittleEndian.PutUint32(hdr[1:], uint32(dict(int64(binary.LittleEndian.Uint32(props[1:])))))
		binary.LittleEndian.PutUint64(hdr[5:], uint64(size))
		// Started on the first read: NewReader reads the range coder's
		// first bytes, and a bad one is the data's fault, reported where a
		// corrupt stream's are (Open answers for the folder's structure).
		src := io.MultiReader(bytes.NewReader(hdr), ins[0])
		return &lazyReader{open: func() (io.Reader, error) {
			lr, err := lzma.NewReader(src)
			if err != nil {
				return nil, fmt.Errorf("lzma: %w", err)
			}
			return lr, nil
		}}, nil
	case MethodLZMA2:
		return openLZMA2(ins[0], inSize[0], size, props[0])
	case MethodBCJ:
		return &bcjReader{r: ins[0]}, nil
	case MethodBCJ2:
		return newBCJ2Reader(ins), nil
	case MethodDeflate:
		return flate.NewReader(ins[0]), nil
	case MethodBzip2:
		return bzip2.NewReader(ins[0]), nil
	}
	return nil, &UnsupportedMethodError{Method: c.Method}
}

// lazyReader opens its reader on the first Read; an error opening it is
// that Read's (and every later one's).
type lazyReader struct {
	open func() (io.Reader, error)
	r    io.Reader
	err  error
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.open()
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// exactReader yields exactly left bytes of r: an early end is
// io.ErrUnexpectedEOF, and the optional CRC-32 is checked at the end.
type exactReader struct {
	r    io.Reader
	left int64
	crc  interface {
		io.Writer
		Sum32() uint32
	}
	want uint32
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.left <= 0 {
		if e.crc != nil {
			if got := e.crc.Sum32(); got != e.want {
				e.crc = nil
				return 0, fmt.Errorf("the decoded folder has CRC-32 %08x, but the archive declares %08x", got, e.want)
			}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	if e.crc != nil {
		e.crc.Write(p[:n])
	}
	if err == io.EOF {
		if e.left > 0 {
			return n, io.ErrUnexpectedEOF
		}
		err = nil
	}
	return n, err
}

func (e *exactReader) Close() error { return nil }

// deltaReader undoes 7-Zip's Delta filter: each byte is stored as its
// difference from the byte dist positions earlier.
type deltaReader struct {
	r    io.Reader
	dist int
	hist [256]byte
	pos  int
}

func (d *deltaReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	for i := 0; i < n; i++ {
		j := (d.pos - d.dist) & 255
		p[i] += d.hist[j]
		d.hist[d.pos&255] = p[i]
		d.pos++
	}
	return n, err
}

// bcjReader undoes the x86 branch converter (BCJ): CALL/JMP targets (E8,
// E9) stored as absolute addresses are turned back into relative ones.
// The conversion follows the LZMA SDK's x86 filter state machine.
type bcjReader struct {
	r        io.Reader
	buf      []byte // converted bytes not yet returned: buf[:conv]; then raw tail
	conv     int
	ip       uint32
	prevMask uint32
	eof      bool
	err      error
}

func (b *bcjReader) Read(p []byte) (int, error) {
	for b.conv == 0 {
		if b.eof {
			if len(b.buf) == 0 {
				if b.err != nil {
					return 0, b.err
				}
				return 0, io.EOF
			}
			b.conv = len(b.buf) // the tail (< 5 bytes) passes as it is
			break
		}
		if cap(b.buf) == 0 {
			b.buf = make([]byte, 0, 64<<10)
		}
		n, err := b.r.Read(b.buf[len(b.buf):cap(b.buf)])
		b.buf = b.buf[:len(b.buf)+n]
		if err != nil {
			b.eof = true
			if err != io.EOF {
				b.err = err
			}
		}
		b.conv = b.convert(b.buf)
		if b.eof && b.conv < len(b.buf) {
			b.conv = len(b.buf)
		}
	}
	n := copy(p, b.buf[:b.conv])
	b.conv -= n
	rest := copy(b.buf, b.buf[n:])
	b.buf = b.buf[:rest]
	return n, nil
}

func test86(b byte) bool { return b == 0 || b == 0xff }

var (
	maskToAllowed   = [8]bool{true, true, true, false, true, false, false, false}
	maskToBitNumber = [8]uint32{0, 1, 2, 2, 3, 3, 3, 3}
)

// convert decodes data in place and returns how many bytes are final.
func (b *bcjReader) convert(data []byte) int {
	size := len(data)
	if size < 5 {
		return 0
	}
	ip := b.ip + 5
	prevMask := b.prevMask & 7
	pos := 0
	prevPos := -1
	for {
		for pos < size-4 && data[pos]&0xfe != 0xe8 {
			pos++
		}
		if pos >= size-4 {
			break
		}
		d := pos - prevPos
		if d > 3 {
			prevMask = 0
		} else {
			prevMask = (prevMask << uint(d-1)) & 7
			if prevMask != 0 {
				x := data[pos+4-int(maskToBitNumber[prevMask])]
				if !maskToAllowed[prevMask] || test86(x) {
					prevPos = pos
					prevMask = ((prevMask << 1) & 7) | 1
					pos++
					continue
				}
			}
		}
		prevPos = pos
		if test86(data[pos+4]) {
			src := uint32(data[pos+4])<<24 | uint32(data[pos+3])<<16 | uint32(data[pos+2])<<8 | uint32(data[pos+1])
			var dest uint32
			for {
				dest = src - (ip + uint32(pos))
				if prevMask == 0 {
					break
				}
				index := maskToBitNumber[prevMask] * 8
				x := byte(dest >> (24 - index))
				if !test86(x) {
					break
				}
				src = dest ^ (1<<(32-index) - 1)
			}
			data[pos+4] = ^byte(((dest >> 24) & 1) - 1)
			data[pos+3] = byte(dest >> 16)
			data[pos+2] = byte(dest >> 8)
			data[pos+1] = byte(dest)
			pos += 5
		} else {
			prevMask = ((prevMask << 1) & 7) | 1
			pos++
		}
	}
	d := pos - prevPos
	if d > 3 {
		b.prevMask = 0
	} else {
		b.prevMask = (prevMask << uint(d-1)) & 7
	}
	b.ip += uint32(pos)
	return pos
}

// bcj2Reader undoes BCJ2: x86 CALL and JMP targets were moved to their own
// streams (inputs 1 and 2, big-endian absolute addresses), and a range
// coder (input 3) says which E8/E9/Jcc opcodes were converted.
type bcj2Reader struct {
	main, call, jump, rc *bufio.Reader
	probs                [258]uint16
	rng, code            uint32
	started              bool
	prev                 byte
	out                  uint32 // bytes output so far
	pending              [4]byte
	npend                int
	err                  error
}

func newBCJ2Reader(ins []io.Reader) *bcj2Reader {
	br := func(r io.Reader) *bufio.Reader {
		if b, ok := r.(*bufio.Reader); ok {
			return b
		}
		return bufio.NewReaderSize(r, 64<<10)
	}
	r := &bcj2Reader{main: br(ins[0]), call: br(ins[1]), jump: br(ins[2]), rc: br(ins[3])}
	for i := range r.probs {
		r.probs[i] = 1 << 10
	}
	return r
}

func (r *bcj2Reader) rcByte() (uint32, error) {
	c, err := r.rc.ReadByte()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return uint32(c), err
}

// bit decodes one bit with probability slot i.
func (r *bcj2Reader) bit(i int) (bool, error) {
	p := uint32(r.probs[i])
	bound := (r.rng >> 11) * p
	var one bool
	if r.code < bound {
		r.rng = bound
		r.probs[i] = uint16(p + ((2048 - p) >> 5))
	} else {
		r.rng -= bound
		r.code -= bound
		r.probs[i] = uint16(p - (p >> 5))
		one = true
	}
	if r.rng < 1<<24 {
		c, err := r.rcByte()
		if err != nil {
			return false, err
		}
		r.rng <<= 8
		r.code = r.code<<8 | c
	}
	return one, nil
}

func isJ(b0, b1 byte) bool { return b1&0xfe == 0xe8 || (b0 == 0x0f && b1&0xf0 == 0x80) }

func (r *bcj2Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.started {
		r.started = true
		r.rng = 0xffffffff
		for i := 0; i < 5; i++ {
			c, err := r.rcByte()
			if err != nil {
				r.err = err
				return 0, err
			}
			r.code = r.code<<8 | c
		}
	}
	n := 0
	for n < len(p) {
		if r.npend > 0 {
			k := copy(p[n:], r.pending[4-r.npend:])
			r.npend -= k
			n += k
			continue
		}
		b, err := r.main.ReadByte()
		if err != nil {
			r.err = err
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		p[n] = b
		n++
		r.out++
		if !isJ(r.prev, b) {
			r.prev = b
			continue
		}
		slot := 257
		switch b {
		case 0xe8:
			slot = int(r.prev)
		case 0xe9:
			slot = 256
		}
		one, err := r.bit(slot)
		if err != nil {
			r.err = err
			return n, nil
		}
		if !one {
			r.prev = b
			continue
		}
		src := r.jump
		if b == 0xe8 {
			src = r.call
		}
		var a [4]byte
		if _, err := io.ReadFull(src, a[:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			r.err = err
			return n, nil
		}
		dest := binary.BigEndian.Uint32(a[:]) - (r.out + 4)
		binary.LittleEndian.PutUint32(r.pending[:], dest)
		r.npend = 4
		r.out += 4
		r.prev = byte(dest >> 24)
	}
	return n, nil
}
