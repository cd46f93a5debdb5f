package container

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"strings"
	"unicode/utf16"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// 7-Zip property ids (7zFormat.txt).
const (
	szEnd             = 0x00
	szHeader          = 0x01
	szArchiveProps    = 0x02
	szAdditional      = 0x03
	szMainStreams     = 0x04
	szFilesInfo       = 0x05
	szPackInfo        = 0x06
	szUnpackInfo      = 0x07
	szSubStreams      = 0x08
	szSize            = 0x09
	szCRC             = 0x0a
	szFolder          = 0x0b
	szCodersUnpack    = 0x0c
	szNumUnpackStream = 0x0d
	szEmptyStream     = 0x0e
	szEmptyFile       = 0x0f
	szAnti            = 0x10
	szName            = 0x11
	szWinAttributes   = 0x15
	szEncodedHeader   = 0x17
	szDummy           = 0x19
)

// sevenZipSignatureSize is the fixed start of every 7z file: signature,
// version, start-header CRC, next-header offset, size and CRC.
const sevenZipSignatureSize = 32

// maxEncodedHeaderRounds bounds how many times a header may be itself
// encoded (7-Zip encodes it once).
const maxEncodedHeaderRounds = 4

// maxSevenZipLinkBytes bounds a symbolic link's target.
const maxSevenZipLinkBytes = 4096

// listSevenZip lists a 7-Zip archive held in bytes [base, base+size) of ra
// (a 7z file, or one embedded in an installer). Every member is addressed
// in the decoded output of its folder; the folder's packed streams and
// coder chain travel with the range so the host decodes it, once per
// folder, front to back.
func listSevenZip(s *scope, ra io.ReaderAt, base, size int64, file string) error {
	var sh [sevenZipSignatureSize]byte
	if n, _ := ra.ReadAt(sh[:], base); n < len(sh) || string(sh[:6]) != sevenZipMagic {
		return malformedf("the 7-Zip signature header is missing or truncated")
	}
	if sh[6] != 0 {
		return malformedf("the 7-Zip archive has format version %d.%d; rea reads version 0.x", sh[6], sh[7])
	}
	if crc32.ChecksumIEEE(sh[12:32]) != binary.LittleEndian.Uint32(sh[8:]) {
		return malformedf("the 7-Zip start header fails its CRC")
	}
	nextOff := binary.LittleEndian.Uint64(sh[12:])
	nextSize := binary.LittleEndian.Uint64(sh[20:])
	nextCRC := binary.LittleEndian.Uint32(sh[28:])
	if nextSize == 0 {
		return nil // an empty archive
	}
	avail := uint64(size - sevenZipSignatureSize)
	if nextOff > avail || nextSize > avail-nextOff {
		return malformedf("the 7-Zip header (%d bytes at %d) lies past the end of the archive (%d bytes); the file is truncated", nextSize, sevenZipSignatureSize+nextOff, size)
	}
	if int64(nextSize) > s.b.lim.MaxHeaderBytes {
		return limitError("max_header_bytes", s.b.lim.MaxHeaderBytes, int64(nextSize), "the 7-Zip header is "+fmt.Sprint(nextSize)+" bytes")
	}
	hdr := make([]byte, nextSize)
	if _, err := ra.ReadAt(hdr, base+sevenZipSignatureSize+int64(nextOff)); err != nil {
		return malformedf("cannot read the 7-Zip header: %v", err)
	}
	if crc32.ChecksumIEEE(hdr) != nextCRC {
		return malformedf("the 7-Zip header fails its CRC; the archive is corrupt or truncated")
	}
	z := &szArchive{s: s, ra: ra, base: base, size: size, file: file}
	for round := 0; ; round++ {
		r := &szBuf{b: hdr}
		id, err := r.byte()
		if err != nil {
			return err
		}
		switch id {
		case szHeader:
			return z.header(r)
		case szEncodedHeader:
			if round == maxEncodedHeaderRounds {
				return malformedf("the 7-Zip header is encoded more than %d times", maxEncodedHeaderRounds)
			}
			if hdr, err = z.decodeHeader(r); err != nil {
				return err
			}
		default:
			return malformedf("the 7-Zip header starts with property 0x%02x, not a header", id)
		}
	}
}

// szArchive is one 7-Zip archive being listed.
type szArchive struct {
	s    *scope
	ra   io.ReaderAt
	base int64
	size int64
	file string
}

// szStreams is a StreamsInfo: folders and, for the main streams, the
// members (substreams) each folder's output holds.
type szStreams struct {
	folders []*inventory.Folder
	// subSizes and subCRCs list every substream, folder by folder;
	// numSub[i] of them belong to folder i.
	numSub   []int
	subSizes []int64
	subCRCs  []*uint32
}

// szBuf reads a header held in memory; every read is bounds-checked.
type szBuf struct {
	b   []byte
	pos int
}

var errSZTruncated = malformedf("the 7-Zip header ends in the middle of a field")

func (r *szBuf) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errSZTruncated
	}
	r.pos++
	return r.b[r.pos-1], nil
}

func (r *szBuf) bytes(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, errSZTruncated
	}
	r.pos += n
	return r.b[r.pos-n : r.pos], nil
}

func (r *szBuf) left() int { return len(r.b) - r.pos }

// number reads 7-Zip's variable-length UINT64: the leading one bits of
// the first byte say how many bytes follow.
func (r *szBuf) number() (uint64, error) {
	first, err := r.byte()
	if err != nil {
		return 0, err
	}
	var v uint64
	mask := byte(0x80)
	for i := 0; i < 8; i++ {
		if first&mask == 0 {
			high := uint64(first & (mask - 1))
			return v | high<<(8*i), nil
		}
		b, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b) << (8 * i)
		mask >>= 1
	}
	return v, nil
}

// count reads a number used as a count of items that each take at least
// per bytes of the header, so a hostile count cannot ask for more memory
// than the header holds.
func (r *szBuf) count(what string, per int) (int, error) {
	v, err := r.number()
	if err != nil {
		return 0, err
	}
	if per < 1 {
		per = 1
	}
	if v > uint64(r.left()/per)+1 || v > 1<<24 {
		return 0, malformedf("the 7-Zip header declares %d %s in %d remaining bytes", v, what, r.left())
	}
	return int(v), nil
}

func (r *szBuf) u32() (uint32, error) {
	b, err := r.bytes(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (r *szBuf) bits(n int) ([]bool, error) {
	b, err := r.bytes((n + 7) / 8)
	if err != nil {
		return nil, err
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = b[i/8]&(0x80>>(i%8)) != 0
	}
	return out, nil
}

// digests reads n optional CRC-32s.
func (r *szBuf) digests(n int) ([]*uint32, error) {
	all, err := r.byte()
	if err != nil {
		return nil, err
	}
	defined := make([]bool, n)
	if all != 0 {
		for i := range defined {
			defined[i] = true
		}
	} else if defined, err = r.bits(n); err != nil {
		return nil, err
	}
	out := make([]*uint32, n)
	for i, d := range defined {
		if d {
			v, err := r.u32()
			if err != nil {
				return nil, err
			}
			out[i] = &v
		}
	}
	return out, nil
}

func (r *szBuf) expect(id byte, what string) error {
	b, err := r.byte()
	if err != nil {
		return err
	}
	if b != id {
		return malformedf("the 7-Zip header has property 0x%02x where %s (0x%02x) belongs", b, what, id)
	}
	return nil
}

// decodeHeader decodes an encoded header: a StreamsInfo whose first folder
// holds the real header.
func (z *szArchive) decodeHeader(r *szBuf) ([]byte, error) {
	st, err := z.streams(r, false)
	if err != nil {
		return nil, err
	}
	if len(st.folders) == 0 {
		return nil, malformedf("the encoded 7-Zip header has no folder")
	}
	f := st.folders[0]
	out := f.Sizes[mainCoder(f)]
	if out > z.s.b.lim.MaxHeaderBytes {
		return nil, limitError("max_header_bytes", z.s.b.lim.MaxHeaderBytes, out, "the decoded 7-Zip header is "+fmt.Sprint(out)+" bytes")
	}
	if err := z.checkFolder(f, "the encoded header"); err != nil {
		return nil, err
	}
	rc, err := stream.OpenFolder(z.ra, z.base+z.size, f)
	if err != nil {
		return nil, malformedf("cannot decode the 7-Zip header: %v", err)
	}
	hdr, err := io.ReadAll(rc)
	if err != nil {
		return nil, malformedf("cannot decode the 7-Zip header: %v", err)
	}
	return hdr, nil
}

// mainCoder is the coder whose output no bond consumes.
func mainCoder(f *inventory.Folder) int {
	used := make([]bool, len(f.Coders))
	for _, b := range f.Bonds {
		if b.Out >= 0 && b.Out < len(used) {
			used[b.Out] = true
		}
	}
	for i, u := range used {
		if !u {
			return i
		}
	}
	return 0
}

// checkFolder refuses a folder that is malformed, encrypted, uses a method
// rea does not decode, or expands past the compression-ratio limit.
func (z *szArchive) checkFolder(f *inventory.Folder, what string) error {
	if err := stream.CheckFolder(f, z.base+z.size); err != nil {
		var um *stream.UnsupportedMethodError
		if errors.As(err, &um) {
			if um.Encrypted {
				return abi.Errorf(abi.CodeCapabilityUnavailable,
					"%q is an encrypted 7-Zip archive (%s uses 7zAES: AES-256, key derived from a password); rea does not decrypt archives — extract it with `7z x -p` where the password is known, and analyse the folder", z.file, what).
					WithDetail("format", "7z").WithDetail("encryption", "7zAES")
			}
			return abi.Errorf(abi.CodeCapabilityUnavailable,
				"%q: %s uses the 7-Zip method %s, which rea does not decode (it decodes Copy, LZMA, LZMA2, Deflate, BZip2, BCJ, BCJ2 and Delta); extract it with `7z x` and analyse the folder", z.file, what, stream.MethodName(um.Method)).
				WithDetail("format", "7z").WithDetail("method", stream.MethodName(um.Method))
		}
		return malformedf("%s: %v", what, err)
	}
	var packed int64
	for _, p := range f.Packed {
		packed += p.Length
	}
	out := f.Sizes[mainCoder(f)]
	ratio := int64(z.s.b.lim.MaxCompressionRatio)
	if out > 1<<20 && (packed == 0 || out/ratio > packed) {
		observed := int64(-1)
		if packed > 0 {
			observed = out / packed
		}
		return limitError("max_compression_ratio", ratio, observed,
			fmt.Sprintf("%s expands %d packed bytes to %d", what, packed, out))
	}
	return nil
}

// streams reads a StreamsInfo; sub says whether substreams may follow.
func (z *szArchive) streams(r *szBuf, sub bool) (*szStreams, error) {
	st := &szStreams{}
	var packPos uint64
	var packSizes []int64
	for {
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		switch id {
		case szEnd:
			if len(st.numSub) == 0 {
				st.numSub = make([]int, len(st.folders))
				for i, f := range st.folders {
					st.numSub[i] = 1
					st.subSizes = append(st.subSizes, f.Sizes[mainCoder(f)])
					st.subCRCs = append(st.subCRCs, f.CRC32)
				}
			}
			return st, z.place(st, packPos, packSizes)
		case szPackInfo:
			if packPos, err = r.number(); err != nil {
				return nil, err
			}
			n, err := r.count("packed streams", 1)
			if err != nil {
				return nil, err
			}
			for {
				id, err := r.byte()
				if err != nil {
					return nil, err
				}
				if id == szEnd {
					break
				}
				switch id {
				case szSize:
					packSizes = make([]int64, n)
					for i := range packSizes {
						v, err := r.number()
						if err != nil {
							return nil, err
						}
						if v > uint64(z.size) {
							return nil, malformedf("a 7-Zip packed stream declares %d bytes in a %d-byte archive", v, z.size)
						}
						packSizes[i] = int64(v)
					}
				case szCRC:
					if _, err := r.digests(n); err != nil {
						return nil, err
					}
				default:
					return nil, malformedf("the 7-Zip pack info has property 0x%02x", id)
				}
			}
			if len(packSizes) != n {
				return nil, malformedf("the 7-Zip pack info lists no sizes")
			}
		case szUnpackInfo:
			if err := z.unpackInfo(r, st); err != nil {
				return nil, err
			}
		case szSubStreams:
			if !sub {
				return nil, malformedf("an encoded 7-Zip header declares substreams")
			}
			if err := z.subStreams(r, st); err != nil {
				return nil, err
			}
		default:
			return nil, malformedf("the 7-Zip streams info has property 0x%02x", id)
		}
	}
}

func (z *szArchive) unpackInfo(r *szBuf, st *szStreams) error {
	if err := r.expect(szFolder, "the folder list"); err != nil {
		return err
	}
	n, err := r.count("folders", 2)
	if err != nil {
		return err
	}
	if ext, err := r.byte(); err != nil || ext != 0 {
		if err == nil {
			err = malformedf("the 7-Zip folder list is external; rea reads only inline folder lists")
		}
		return err
	}
	st.folders = make([]*inventory.Folder, n)
	for i := range st.folders {
		if st.folders[i], err = readFolder(r); err != nil {
			return err
		}
	}
	if err := r.expect(szCodersUnpack, "the coders' unpack sizes"); err != nil {
		return err
	}
	for _, f := range st.folders {
		for i := range f.Sizes {
			v, err := r.number()
			if err != nil {
				return err
			}
			if v > 1<<50 {
				return malformedf("a 7-Zip coder declares %d output bytes", v)
			}
			f.Sizes[i] = int64(v)
		}
	}
	for {
		id, err := r.byte()
		if err != nil {
			return err
		}
		switch id {
		case szEnd:
			return nil
		case szCRC:
			crcs, err := r.digests(n)
			if err != nil {
				return err
			}
			for i, c := range crcs {
				st.folders[i].CRC32 = c
			}
		default:
			return malformedf("the 7-Zip unpack info has property 0x%02x", id)
		}
	}
}

// readFolder reads one folder's coders and bonds; packed stream locations
// are filled in by place.
func readFolder(r *szBuf) (*inventory.Folder, error) {
	nc, err := r.count("coders", 2)
	if err != nil {
		return nil, err
	}
	if nc == 0 || nc > 8 {
		return nil, malformedf("a 7-Zip folder declares %d coders", nc)
	}
	f := &inventory.Folder{Coders: make([]inventory.Coder, nc), Sizes: make([]int64, nc)}
	totalIn := 0
	for i := range f.Coders {
		flags, err := r.byte()
		if err != nil {
			return nil, err
		}
		if flags&0x80 != 0 {
			return nil, malformedf("a 7-Zip coder declares alternative methods, which the format reserves")
		}
		id, err := r.bytes(int(flags & 0x0f))
		if err != nil {
			return nil, err
		}
		in, out := uint64(1), uint64(1)
		if flags&0x10 != 0 {
			if in, err = r.number(); err != nil {
				return nil, err
			}
			if out, err = r.number(); err != nil {
				return nil, err
			}
		}
		if in < 1 || in > 4 || out != 1 {
			return nil, malformedf("a 7-Zip coder (%s) declares %d inputs and %d outputs; rea reads coders with 1 to 4 inputs and one output", stream.MethodName(hex.EncodeToString(id)), in, out)
		}
		c := inventory.Coder{Method: hex.EncodeToString(id), Inputs: int(in)}
		if flags&0x20 != 0 {
			n, err := r.count("property bytes", 1)
			if err != nil {
				return nil, err
			}
			props, err := r.bytes(n)
			if err != nil {
				return nil, err
			}
			c.Props = hex.EncodeToString(props)
		}
		f.Coders[i] = c
		totalIn += int(in)
	}
	bound := make([]bool, totalIn)
	for range nc - 1 {
		in, err := r.number()
		if err != nil {
			return nil, err
		}
		out, err := r.number()
		if err != nil {
			return nil, err
		}
		if in >= uint64(totalIn) || out >= uint64(nc) {
			return nil, malformedf("a 7-Zip folder bonds input %d to output %d of %d coders", in, out, nc)
		}
		bound[in] = true
		f.Bonds = append(f.Bonds, inventory.Bond{In: int(in), Out: int(out)})
	}
	npacked := totalIn - (nc - 1)
	if npacked < 1 {
		return nil, malformedf("a 7-Zip folder has no packed stream")
	}
	if npacked == 1 {
		for i, b := range bound {
			if !b {
				f.PackedInputs = []int{i}
				break
			}
		}
		if len(f.PackedInputs) == 0 {
			return nil, malformedf("every input of a 7-Zip folder is bonded")
		}
	} else {
		for range npacked {
			v, err := r.number()
			if err != nil {
				return nil, err
			}
			if v >= uint64(totalIn) {
				return nil, malformedf("a 7-Zip folder names packed input %d of %d", v, totalIn)
			}
			f.PackedInputs = append(f.PackedInputs, int(v))
		}
	}
	return f, nil
}

func (z *szArchive) subStreams(r *szBuf, st *szStreams) error {
	st.numSub = make([]int, len(st.folders))
	for i := range st.numSub {
		st.numSub[i] = 1
	}
	id, err := r.byte()
	if err != nil {
		return err
	}
	if id == szNumUnpackStream {
		for i := range st.numSub {
			n, err := r.count("substreams", 0)
			if err != nil {
				return err
			}
			if n > z.s.b.lim.MaxEntries {
				return limitError("max_entries", int64(z.s.b.lim.MaxEntries), int64(n), fmt.Sprintf("a 7-Zip folder declares %d members", n))
			}
			st.numSub[i] = n
		}
		if id, err = r.byte(); err != nil {
			return err
		}
	}
	withSize := id == szSize
	for i, f := range st.folders {
		n := st.numSub[i]
		if n == 0 {
			continue
		}
		total := f.Sizes[mainCoder(f)]
		var sum int64
		for j := 0; j < n-1; j++ {
			if !withSize {
				return malformedf("a 7-Zip folder holds %d members but declares no sizes", n)
			}
			v, err := r.number()
			if err != nil {
				return err
			}
			if v > uint64(total-sum) {
				return malformedf("the members of a 7-Zip folder declare more bytes than its %d-byte output", total)
			}
			sum += int64(v)
			st.subSizes = append(st.subSizes, int64(v))
		}
		st.subSizes = append(st.subSizes, total-sum)
	}
	if withSize {
		if id, err = r.byte(); err != nil {
			return err
		}
	}
	// CRCs: a folder with one member and a folder CRC already has it.
	st.subCRCs = make([]*uint32, len(st.subSizes))
	var unknown []int
	k := 0
	for i, f := range st.folders {
		for j := 0; j < st.numSub[i]; j++ {
			if st.numSub[i] == 1 && f.CRC32 != nil {
				st.subCRCs[k] = f.CRC32
			} else {
				unknown = append(unknown, k)
			}
			k++
		}
	}
	for id != szEnd {
		switch id {
		case szCRC:
			crcs, err := r.digests(len(unknown))
			if err != nil {
				return err
			}
			for i, c := range crcs {
				st.subCRCs[unknown[i]] = c
			}
		default:
			return malformedf("the 7-Zip substreams info has property 0x%02x", id)
		}
		if id, err = r.byte(); err != nil {
			return err
		}
	}
	return nil
}

// place fills in where each folder's packed streams lie in the file.
func (z *szArchive) place(st *szStreams, packPos uint64, sizes []int64) error {
	if packPos > uint64(z.size) {
		return malformedf("the 7-Zip packed streams start at %d, past the end of the archive", packPos)
	}
	off := z.base + sevenZipSignatureSize + int64(packPos)
	k := 0
	for _, f := range st.folders {
		for range f.PackedInputs {
			if k >= len(sizes) {
				return malformedf("the 7-Zip folders need more packed streams than the %d declared", len(sizes))
			}
			if sizes[k] > z.base+z.size-off {
				return malformedf("a 7-Zip packed stream (%d bytes at %d) lies past the end of the archive", sizes[k], off)
			}
			f.Packed = append(f.Packed, inventory.PackedStream{Offset: off, Length: sizes[k]})
			off += sizes[k]
			k++
		}
	}
	return nil
}

// header reads the archive header: the main streams and the files.
func (z *szArchive) header(r *szBuf) error {
	var st *szStreams
	for {
		id, err := r.byte()
		if err != nil {
			return err
		}
		switch id {
		case szEnd:
			if st == nil {
				st = &szStreams{}
			}
			return malformedf("the 7-Zip header lists no files")
		case szArchiveProps:
			if err := skipProperties(r); err != nil {
				return err
			}
		case szAdditional:
			if _, err := z.streams(r, true); err != nil {
				return err
			}
		case szMainStreams:
			if st, err = z.streams(r, true); err != nil {
				return err
			}
		case szFilesInfo:
			if st == nil {
				st = &szStreams{}
			}
			return z.files(r, st)
		default:
			return malformedf("the 7-Zip header has property 0x%02x", id)
		}
	}
}

func skipProperties(r *szBuf) error {
	for {
		t, err := r.number()
		if err != nil {
			return err
		}
		if t == 0 {
			return nil
		}
		n, err := r.count("property bytes", 1)
		if err != nil {
			return err
		}
		if _, err := r.bytes(n); err != nil {
			return err
		}
	}
}

// szFile is one file record of the files info.
type szFile struct {
	name        string
	emptyStream bool
	emptyFile   bool
	anti        bool
	attr        uint32
	hasAttr     bool
}

func (z *szArchive) files(r *szBuf, st *szStreams) error {
	n, err := r.count("files", 1)
	if err != nil {
		return err
	}
	if n > z.s.b.lim.MaxEntries {
		return limitError("max_entries", int64(z.s.b.lim.MaxEntries), int64(n), fmt.Sprintf("the 7-Zip archive declares %d entries", n))
	}
	files := make([]szFile, n)
	var numEmpty int
	var named bool
	for {
		t, err := r.number()
		if err != nil {
			return err
		}
		if t == szEnd {
			break
		}
		size, err := r.count("property bytes", 1)
		if err != nil {
			return err
		}
		data, err := r.bytes(size)
		if err != nil {
			return err
		}
		p := &szBuf{b: data}
		switch t {
		case szEmptyStream:
			v, err := p.bits(n)
			if err != nil {
				return err
			}
			numEmpty = 0
			for i, b := range v {
				files[i].emptyStream = b
				if b {
					numEmpty++
				}
			}
		case szEmptyFile, szAnti:
			v, err := p.bits(numEmpty)
			if err != nil {
				return err
			}
			k := 0
			for i := range files {
				if files[i].emptyStream {
					if t == szEmptyFile {
						files[i].emptyFile = v[k]
					} else {
						files[i].anti = v[k]
					}
					k++
				}
			}
		case szName:
			if ext, err := p.byte(); err != nil || ext != 0 {
				return malformedf("the 7-Zip file names are external or missing")
			}
			if p.left()%2 != 0 {
				return malformedf("the 7-Zip file names are not UTF-16")
			}
			units := make([]uint16, 0, 64)
			k := 0
			for p.left() > 0 && k < n {
				b, _ := p.bytes(2)
				u := binary.LittleEndian.Uint16(b)
				if u == 0 {
					files[k].name = string(utf16.Decode(units))
					units = units[:0]
					k++
					continue
				}
				units = append(units, u)
			}
			if k != n {
				return malformedf("the 7-Zip header names %d of its %d files", k, n)
			}
			named = true
		case szWinAttributes:
			all, err := p.byte()
			if err != nil {
				return err
			}
			defined := make([]bool, n)
			if all != 0 {
				for i := range defined {
					defined[i] = true
				}
			} else if defined, err = p.bits(n); err != nil {
				return err
			}
			if ext, err := p.byte(); err != nil || ext != 0 {
				return malformedf("the 7-Zip attributes are external or missing")
			}
			for i, d := range defined {
				if d {
					v, err := p.u32()
					if err != nil {
						return err
					}
					files[i].attr, files[i].hasAttr = v, true
				}
			}
		default:
			// Times, comments, start positions, padding: not needed.
		}
	}
	if !named && n > 0 {
		return malformedf("the 7-Zip header names none of its files")
	}
	return z.addFiles(files, st)
}

// Windows and Unix attribute bits as 7-Zip stores them: the Unix mode sits
// in the high 16 bits when bit 15 (FILE_ATTRIBUTE_UNIX_EXTENSION) is set.
const (
	szAttrDirectory = 0x10
	szAttrUnixExt   = 0x8000
	unixTypeMask    = 0o170000
	unixTypeLink    = 0o120000
	unixTypeDir     = 0o040000
	unixTypeFile    = 0o100000
)

func (z *szArchive) addFiles(files []szFile, st *szStreams) error {
	s := z.s
	type link struct {
		entry, folder int
		offset, size  int64
	}
	var links []link
	start := len(s.b.res.Entries)
	sub, folder := 0, 0
	var inFolder int
	var folderOff int64
	for i := range st.folders {
		if err := z.checkFolder(st.folders[i], fmt.Sprintf("folder %d", i)); err != nil {
			return err
		}
	}
	for _, f := range files {
		name, isDir := archiveName(strings.ReplaceAll(f.name, `\`, "/"))
		if name == "" {
			return malformedf("a 7-Zip member has an empty name")
		}
		norm, err := s.normalize(name)
		if err != nil {
			return err
		}
		if f.anti {
			return malformedf("7-Zip member %q is an anti-item (a deletion in an update archive); rea does not read update archives", norm).WithDetail("path", norm)
		}
		mode := uint32(0)
		if f.hasAttr && f.attr&szAttrUnixExt != 0 {
			mode = f.attr >> 16
		}
		dirAttr := f.hasAttr && f.attr&szAttrDirectory != 0
		switch t := mode & unixTypeMask; {
		case t != 0 && t != unixTypeLink && t != unixTypeDir && t != unixTypeFile:
			return malformedf("7-Zip member %q is a device, FIFO or socket (mode %o); rea only inventories files, directories and links", norm, mode).WithDetail("path", norm)
		case f.emptyStream && !f.emptyFile || (f.emptyStream && (dirAttr || t == unixTypeDir)):
			if _, err := s.add(inventory.Entry{Path: norm, Kind: inventory.KindDirectory}); err != nil {
				return err
			}
			continue
		case isDir || dirAttr || t == unixTypeDir:
			return malformedf("7-Zip member %q is a directory with data", norm).WithDetail("path", norm)
		}
		e := inventory.Entry{Path: norm, Kind: inventory.KindFile, Executable: mode&0o111 != 0}
		if f.emptyStream {
			e.Data = &inventory.Range{File: z.file}
		} else {
			for folder < len(st.folders) && inFolder >= st.numSub[folder] {
				folder, inFolder, folderOff = folder+1, 0, 0
			}
			if folder >= len(st.folders) || sub >= len(st.subSizes) {
				return malformedf("7-Zip member %q has no stream: the archive lists more files with data than streams", norm).WithDetail("path", norm)
			}
			fo := st.folders[folder]
			e.Size = st.subSizes[sub]
			e.CRC32 = st.subCRCs[sub]
			first, last := fo.Packed[0], fo.Packed[len(fo.Packed)-1]
			e.Data = &inventory.Range{File: z.file, Offset: folderOff, Length: e.Size, Compression: inventory.CompressionSevenZipFolder,
				StreamOffset: first.Offset, StreamLength: last.Offset + last.Length - first.Offset, Folder: fo}
			if mode&unixTypeMask == unixTypeLink {
				links = append(links, link{entry: -1, folder: folder, offset: folderOff, size: e.Size})
			}
			folderOff += e.Size
			inFolder++
			sub++
		}
		if mode&unixTypeMask == unixTypeLink {
			if e.Size > maxSevenZipLinkBytes {
				return malformedf("7-Zip link %q declares a %d-byte target", norm, e.Size).WithDetail("path", norm)
			}
			idx, err := s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: inventory.NewLink("", path.Dir(norm))})
			if err != nil {
				return err
			}
			if f.emptyStream {
				links = append(links, link{entry: idx, folder: -1})
			} else {
				links[len(links)-1].entry = idx
			}
			continue
		}
		if _, err := s.add(e); err != nil {
			return err
		}
	}
	if sub != len(st.subSizes) {
		return malformedf("the 7-Zip archive holds %d streams but only %d files with data", len(st.subSizes), sub)
	}
	// Link targets are the links' data: decode each folder holding links
	// once, front to back.
	for i := 0; i < len(links); {
		l := links[i]
		if l.folder < 0 {
			s.b.res.Entries[l.entry].Link = inventory.NewLink("", path.Dir(s.b.res.Entries[l.entry].Path))
			i++
			continue
		}
		rc, err := stream.OpenFolder(z.ra, z.base+z.size, st.folders[l.folder])
		if err != nil {
			return malformedf("cannot decode the folder holding link %q: %v", s.b.res.Entries[l.entry].Path, err)
		}
		var pos int64
		for ; i < len(links) && links[i].folder == l.folder; i++ {
			k := links[i]
			if _, err := io.CopyN(io.Discard, rc, k.offset-pos); err != nil {
				return malformedf("cannot decode the folder holding link %q: %v", s.b.res.Entries[k.entry].Path, err)
			}
			target := make([]byte, k.size)
			if _, err := io.ReadFull(rc, target); err != nil {
				return malformedf("cannot decode the target of link %q: %v", s.b.res.Entries[k.entry].Path, err)
			}
			pos = k.offset + k.size
			e := &s.b.res.Entries[k.entry]
			e.Link = inventory.NewLink(string(target), path.Dir(e.Path))
		}
		rc.Close()
	}
	if err := expandFolderASARs(s, start, z.base+z.size); err != nil {
		return err
	}
	// Any other archive in a folder (a zip, a .deb, an AppImage) is
	// listed from the folder's decoded copy, its ranges read from it.
	return expandStreamArchives(s, start, z.base+z.size)
}

// sniffSevenZip recognises a 7-Zip archive by its signature.
func sniffSevenZip(h []byte) bool { return len(h) >= 6 && string(h[:6]) == sevenZipMagic }
