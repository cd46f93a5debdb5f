package container

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"path"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/artifact/stream"
)

// squashfs 4.0 layout (the kernel's fs/squashfs/squashfs_fs.h and
// squashfs-tools' documentation): a 96-byte little-endian superblock,
// then data and fragment blocks, then metadata tables (inodes,
// directories, fragments, ids) made of ≤ 8 KiB metadata blocks, each led
// by a 16-bit header (bit 15: stored; low 15 bits: size on disk).
const (
	squashMagic        = "hsqs"
	squashSuperSize    = 96
	squashMetaMax      = 8192
	squashNoFragment   = 0xffffffff
	squashBlockStored  = 1 << 24
	squashFlagCompOpts = 0x0400
	squashMaxBlockSize = 1 << 20
)

// Compressor ids of the superblock.
var squashCompressors = map[uint16]string{1: "gzip", 2: "lzma", 3: "lzo", 4: "xz", 5: "lz4", 6: "zstd"}

// squashCodec maps a superblock compressor to the block codec the host
// decodes, or "" when rea has no decoder for it.
func squashCodec(id uint16) string {
	switch id {
	case 1:
		return inventory.CodecZlib
	case 2:
		return inventory.CodecLzma
	case 4:
		return inventory.CodecXz
	case 6:
		return inventory.CodecZstd
	}
	return ""
}

type squashSuper struct {
	inodes, blockSize, fragments uint32
	compressor, blockLog, flags  uint16
	major, minor                 uint16
	root                         uint64
	bytesUsed                    uint64
	inodeTable, dirTable         uint64
	fragTable                    uint64
}

// squashImage reads one squashfs image that starts at base in ra.
type squashImage struct {
	s      *scope
	ra     io.ReaderAt
	base   int64
	size   int64 // bytes of ra
	file   string
	sb     squashSuper
	codec  string
	meta   map[int64]metaBlock // by absolute offset
	budget int64               // decompressed metadata bytes still allowed
	frags  map[uint32]inventory.Block
	seen   map[uint64]bool // directory inodes listed (cycle guard)
}

type metaBlock struct {
	data []byte
	next int64 // absolute offset of the following block
}

// listAppImage lists an AppImage (type 2): an ELF runtime followed by a
// squashfs image, found where the ELF ends (the end of its section header
// table, as the runtime itself computes it).
func listAppImage(s *scope, ra io.ReaderAt, size int64, file string) error {
	off, err := appImageOffset(ra, size)
	if err != nil {
		return err
	}
	return listSquashfs(s, ra, size, off, file)
}

// appImageOffset finds the squashfs image appended to an ELF runtime.
func appImageOffset(ra io.ReaderAt, size int64) (int64, error) {
	ef, err := elf.NewFile(io.NewSectionReader(ra, 0, size))
	if err != nil {
		return 0, malformedf("the AppImage runtime is not a readable ELF: %v", err)
	}
	var shoff int64
	var shnum, shentsize int64
	switch ef.Class {
	case elf.ELFCLASS64:
		var h elf.Header64
		if err := binary.Read(io.NewSectionReader(ra, 0, 64), ef.ByteOrder, &h); err != nil {
			return 0, malformedf("cannot read the ELF header: %v", err)
		}
		shoff, shnum, shentsize = int64(h.Shoff), int64(h.Shnum), int64(h.Shentsize)
	case elf.ELFCLASS32:
		var h elf.Header32
		if err := binary.Read(io.NewSectionReader(ra, 0, 52), ef.ByteOrder, &h); err != nil {
			return 0, malformedf("cannot read the ELF header: %v", err)
		}
		shoff, shnum, shentsize = int64(h.Shoff), int64(h.Shnum), int64(h.Shentsize)
	}
	end := shoff + shnum*shentsize
	if shoff <= 0 || end <= 0 || end > size-squashSuperSize {
		return 0, malformedf("the ELF runtime ends at %d, which leaves no squashfs image in the %d-byte file; this is not an AppImage of type 2", end, size)
	}
	var m [4]byte
	if _, err := ra.ReadAt(m[:], end); err != nil || string(m[:]) != squashMagic {
		return 0, malformedf("no squashfs image (magic %q) where the ELF runtime ends (offset %d); this is not an AppImage of type 2", squashMagic, end)
	}
	return end, nil
}

// listSquashfs lists the squashfs image at base: directories, files (as
// lists of compressed blocks the host decodes one by one) and links.
func listSquashfs(s *scope, ra io.ReaderAt, size, base int64, file string) error {
	img := &squashImage{s: s, ra: ra, base: base, size: size, file: file, meta: map[int64]metaBlock{},
		budget: s.b.lim.MaxHeaderBytes, frags: map[uint32]inventory.Block{}, seen: map[uint64]bool{}}
	if err := img.readSuper(); err != nil {
		return err
	}
	start := len(s.b.res.Entries)
	if err := img.walk(img.sb.root, "", 0); err != nil {
		return err
	}
	return inBlocks(ra)(s, start)
}

func (img *squashImage) readSuper() error {
	var b [squashSuperSize]byte
	if n, _ := img.ra.ReadAt(b[:], img.base); n < len(b) || string(b[:4]) != squashMagic {
		return malformedf("no squashfs superblock (magic %q) at offset %d", squashMagic, img.base)
	}
	le := binary.LittleEndian
	sb := squashSuper{inodes: le.Uint32(b[4:]), blockSize: le.Uint32(b[12:]), fragments: le.Uint32(b[16:]),
		compressor: le.Uint16(b[20:]), blockLog: le.Uint16(b[22:]), flags: le.Uint16(b[24:]),
		major: le.Uint16(b[28:]), minor: le.Uint16(b[30:]), root: le.Uint64(b[32:]), bytesUsed: le.Uint64(b[40:]),
		inodeTable: le.Uint64(b[64:]), dirTable: le.Uint64(b[72:]), fragTable: le.Uint64(b[80:])}
	if sb.major != 4 {
		return abi.Errorf(abi.CodeCapabilityUnavailable, "the squashfs image is version %d.%d; rea reads squashfs 4.0", sb.major, sb.minor).WithDetail("format", "squashfs")
	}
	if sb.blockSize < 4096 || sb.blockSize > squashMaxBlockSize || sb.blockSize&(sb.blockSize-1) != 0 || 1<<sb.blockLog != sb.blockSize {
		return malformedf("the squashfs superblock declares block size %d (log %d)", sb.blockSize, sb.blockLog)
	}
	avail := uint64(img.size - img.base)
	if sb.bytesUsed > avail || sb.inodeTable >= sb.bytesUsed || sb.dirTable >= sb.bytesUsed || sb.dirTable < sb.inodeTable {
		return malformedf("the squashfs superblock declares tables (inodes at %d, directories at %d, %d bytes used) outside the %d bytes after it", sb.inodeTable, sb.dirTable, sb.bytesUsed, avail)
	}
	img.codec = squashCodec(sb.compressor)
	if img.codec == "" {
		name := squashCompressors[sb.compressor]
		if name == "" {
			return malformedf("the squashfs superblock names compressor %d, which does not exist", sb.compressor)
		}
		return abi.Errorf(abi.CodeCapabilityUnavailable, "the squashfs image is compressed with %s; rea decodes gzip, lzma, xz and zstd images (repack with mksquashfs -comp zstd, or list it with unsquashfs -l)", name).
			WithDetail("format", "squashfs").WithDetail("compressor", name)
	}
	img.sb = sb
	return nil
}

// metadata returns the decompressed metadata block at absolute offset off.
func (img *squashImage) metadata(off int64) (metaBlock, error) {
	if mb, ok := img.meta[off]; ok {
		return mb, nil
	}
	end := img.base + int64(img.sb.bytesUsed)
	var h [2]byte
	if off < img.base || off+2 > end {
		return metaBlock{}, malformedf("a squashfs metadata block at %d lies outside the image", off)
	}
	if _, err := img.ra.ReadAt(h[:], off); err != nil {
		return metaBlock{}, malformedf("cannot read the squashfs metadata block at %d: %v", off, err)
	}
	hv := binary.LittleEndian.Uint16(h[:])
	n := int64(hv & 0x7fff)
	if n == 0 || off+2+n > end {
		return metaBlock{}, malformedf("the squashfs metadata block at %d declares %d bytes past the image", off, n)
	}
	raw := make([]byte, n)
	if _, err := img.ra.ReadAt(raw, off+2); err != nil {
		return metaBlock{}, malformedf("cannot read the squashfs metadata block at %d: %v", off, err)
	}
	data := raw
	if hv&0x8000 == 0 {
		var err error
		data, err = stream.DecodeBlock(img.codec, raw, squashMetaMax)
		if err != nil {
			return metaBlock{}, malformedf("the squashfs metadata block at %d does not decode: %v", off, err)
		}
	}
	if len(data) > squashMetaMax {
		return metaBlock{}, malformedf("the squashfs metadata block at %d holds %d bytes, more than %d", off, len(data), squashMetaMax)
	}
	img.budget -= int64(len(data))
	if img.budget < 0 {
		return metaBlock{}, limitError("max_header_bytes", img.s.b.lim.MaxHeaderBytes, img.s.b.lim.MaxHeaderBytes-img.budget,
			"the squashfs metadata (inodes and directories) decompresses")
	}
	mb := metaBlock{data: data, next: off + 2 + n}
	img.meta[off] = mb
	return mb, nil
}

// readMeta reads n bytes of the metadata table at table+block, starting
// offset bytes into that block and running on into the next blocks.
func (img *squashImage) readMeta(table uint64, block uint64, offset int, n int64) ([]byte, error) {
	if n < 0 || n > img.s.b.lim.MaxHeaderBytes {
		return nil, limitError("max_header_bytes", img.s.b.lim.MaxHeaderBytes, n, "a squashfs metadata record")
	}
	at := img.base + int64(table) + int64(block)
	out := make([]byte, 0, min(n, 1<<16))
	for int64(len(out)) < n {
		mb, err := img.metadata(at)
		if err != nil {
			return nil, err
		}
		if offset > len(mb.data) {
			return nil, malformedf("a squashfs metadata reference points at byte %d of a %d-byte block", offset, len(mb.data))
		}
		take := min(int64(len(mb.data)-offset), n-int64(len(out)))
		out = append(out, mb.data[offset:offset+int(take)]...)
		offset = 0
		at = mb.next
	}
	return out, nil
}

// metaCursor reads consecutive records from a metadata table.
type metaCursor struct {
	img    *squashImage
	table  uint64
	block  uint64
	offset int
}

func (c *metaCursor) read(n int) ([]byte, error) {
	b, err := c.img.readMeta(c.table, c.block, c.offset, int64(n))
	if err != nil {
		return nil, err
	}
	// Advance past n bytes, crossing blocks as needed.
	left := n
	for {
		mb, err := c.img.metadata(c.img.base + int64(c.table) + int64(c.block))
		if err != nil {
			return nil, err
		}
		if c.offset+left <= len(mb.data) {
			c.offset += left
			if c.offset == len(mb.data) {
				c.block = uint64(mb.next - c.img.base - int64(c.table))
				c.offset = 0
			}
			return b, nil
		}
		left -= len(mb.data) - c.offset
		c.block = uint64(mb.next - c.img.base - int64(c.table))
		c.offset = 0
	}
}

// Inode types.
const (
	sqDir, sqFile, sqSymlink                = 1, 2, 3
	sqLDir, sqLFile, sqLSymlink             = 8, 9, 10
	sqBlk, sqChr, sqFifo, sqSock            = 4, 5, 6, 7
	sqLBlk, sqLChr, sqLFifo, sqLSock uint16 = 11, 12, 13, 14
)

// walk lists the directory whose inode is ref, its entries named under
// prefix.
func (img *squashImage) walk(ref uint64, prefix string, depth int) error {
	if depth > img.s.b.lim.MaxDepth {
		return limitError("max_depth", int64(img.s.b.lim.MaxDepth), int64(depth), fmt.Sprintf("squashfs directory %q is nested %d levels deep", prefix, depth))
	}
	if img.seen[ref] {
		return malformedf("squashfs directory %q is reached twice (a directory cycle)", prefix).WithDetail("path", prefix)
	}
	img.seen[ref] = true
	c := &metaCursor{img: img, table: img.sb.inodeTable, block: ref >> 16, offset: int(ref & 0xffff)}
	h, err := c.read(16)
	if err != nil {
		return err
	}
	typ := binary.LittleEndian.Uint16(h)
	var start uint32
	var offset int
	var size int64
	le := binary.LittleEndian
	switch typ {
	case sqDir:
		b, err := c.read(16)
		if err != nil {
			return err
		}
		start, size, offset = le.Uint32(b), int64(le.Uint16(b[8:])), int(le.Uint16(b[10:]))
	case sqLDir:
		b, err := c.read(24)
		if err != nil {
			return err
		}
		size, start, offset = int64(le.Uint32(b[4:])), le.Uint32(b[8:]), int(le.Uint16(b[18:]))
	default:
		return malformedf("squashfs inode of %q has type %d where a directory is expected", prefix, typ)
	}
	// The size counts 3 bytes for "." and "..", which are not stored.
	size -= 3
	if size <= 0 {
		return nil
	}
	listing, err := img.readMeta(img.sb.dirTable, uint64(start), offset, size)
	if err != nil {
		return err
	}
	for p := 0; p < len(listing); {
		if len(listing)-p < 12 {
			return malformedf("the squashfs listing of %q ends inside a header", prefix)
		}
		count := int(le.Uint32(listing[p:])) + 1
		inodeBlock := le.Uint32(listing[p+4:])
		p += 12
		if count > 256 {
			return malformedf("a squashfs directory header of %q declares %d entries (at most 256)", prefix, count)
		}
		for range count {
			if len(listing)-p < 8 {
				return malformedf("the squashfs listing of %q ends inside an entry", prefix)
			}
			ioff := le.Uint16(listing[p:])
			nameLen := int(le.Uint16(listing[p+6:])) + 1
			p += 8
			if len(listing)-p < nameLen {
				return malformedf("a squashfs entry name in %q runs past the listing", prefix)
			}
			name := string(listing[p : p+nameLen])
			p += nameLen
			if name == "." || name == ".." || bytes.ContainsAny([]byte(name), "/\x00") {
				return malformedf("squashfs directory %q holds an entry named %q", prefix, name).WithDetail("path", prefix)
			}
			child := path.Join(prefix, name)
			if err := img.entry(uint64(inodeBlock)<<16|uint64(ioff), child, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// entry lists the inode ref under the logical path p.
func (img *squashImage) entry(ref uint64, p string, depth int) error {
	norm, err := img.s.normalize(p)
	if err != nil {
		return err
	}
	c := &metaCursor{img: img, table: img.sb.inodeTable, block: ref >> 16, offset: int(ref & 0xffff)}
	h, err := c.read(16)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	typ, perm := le.Uint16(h), le.Uint16(h[2:])
	switch typ {
	case sqDir, sqLDir:
		if _, err := img.s.add(inventory.Entry{Path: norm, Kind: inventory.KindDirectory}); err != nil {
			return err
		}
		return img.walk(ref, norm, depth+1)
	case sqSymlink, sqLSymlink:
		b, err := c.read(8)
		if err != nil {
			return err
		}
		n := int64(le.Uint32(b[4:]))
		if n > int64(img.s.b.lim.MaxPathBytes) {
			return limitError("max_path_bytes", int64(img.s.b.lim.MaxPathBytes), n, fmt.Sprintf("the target of squashfs link %q is %d bytes", norm, n))
		}
		t, err := c.read(int(n))
		if err != nil {
			return err
		}
		_, err = img.s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: inventory.NewLink(string(t), path.Dir(norm))})
		return err
	case sqFile, sqLFile:
		var start, fsize int64
		var frag, fragOff uint32
		if typ == sqFile {
			b, err := c.read(16)
			if err != nil {
				return err
			}
			start, frag, fragOff, fsize = int64(le.Uint32(b)), le.Uint32(b[4:]), le.Uint32(b[8:]), int64(le.Uint32(b[12:]))
		} else {
			b, err := c.read(40)
			if err != nil {
				return err
			}
			start, fsize, frag, fragOff = int64(le.Uint64(b)), int64(le.Uint64(b[8:])), le.Uint32(b[28:]), le.Uint32(b[32:])
			if start < 0 || fsize < 0 {
				return malformedf("squashfs file %q declares an impossible size or start", norm).WithDetail("path", norm)
			}
		}
		e, err := img.fileEntry(c, norm, start, fsize, frag, fragOff)
		if err != nil {
			return err
		}
		e.Executable = perm&0o111 != 0
		_, err = img.s.add(e)
		return err
	case sqBlk, sqChr, sqFifo, sqSock, sqLBlk, sqLChr, sqLFifo, sqLSock:
		return malformedf("squashfs entry %q is a device, FIFO or socket (inode type %d); rea only inventories files, directories and links", norm, typ).WithDetail("path", norm)
	}
	return malformedf("squashfs entry %q has unknown inode type %d", norm, typ).WithDetail("path", norm)
}

// fileEntry turns a file inode into an entry whose range is the list of
// its blocks (and its tail in a fragment).
func (img *squashImage) fileEntry(c *metaCursor, norm string, start, fsize int64, frag, fragOff uint32) (inventory.Entry, error) {
	lim := img.s.b.lim
	if fsize > lim.MaxEntryBytes {
		return inventory.Entry{}, limitError("max_entry_bytes", lim.MaxEntryBytes, fsize, fmt.Sprintf("entry %q declares %d bytes", norm, fsize))
	}
	bs := int64(img.sb.blockSize)
	nblocks := fsize / bs
	tail := fsize % bs
	if frag == squashNoFragment && tail > 0 {
		nblocks++
		tail = 0
	}
	sizes, err := c.read(int(nblocks * 4))
	if err != nil {
		return inventory.Entry{}, err
	}
	end := img.base + int64(img.sb.bytesUsed)
	at := img.base + start
	var blocks []inventory.Block
	var onDisk, packed int64
	left := fsize
	for i := range nblocks {
		v := binary.LittleEndian.Uint32(sizes[i*4:])
		n := int64(v &^ squashBlockStored)
		want := min(bs, left)
		left -= want
		b := inventory.Block{Offset: at, Length: n, Size: want}
		switch {
		case n == 0: // a sparse block: zeros, nothing on disk
		case v&squashBlockStored != 0:
			if n != want {
				return inventory.Entry{}, malformedf("stored block %d of squashfs file %q holds %d bytes for %d", i, norm, n, want).WithDetail("path", norm)
			}
		default:
			b.Codec = img.codec
			packed += want
		}
		if n > bs || at < img.base || at+n > end {
			return inventory.Entry{}, malformedf("block %d of squashfs file %q (%d bytes at %d) lies outside the image", i, norm, n, at).WithDetail("path", norm)
		}
		at += n
		onDisk += n
		blocks = append(blocks, b)
	}
	if tail > 0 {
		fb, err := img.fragment(frag)
		if err != nil {
			return inventory.Entry{}, err
		}
		if int64(fragOff)+tail > bs {
			return inventory.Entry{}, malformedf("the tail of squashfs file %q (%d bytes at %d) runs past its fragment block", norm, tail, fragOff).WithDetail("path", norm)
		}
		fb.Skip, fb.Size = int64(fragOff), tail
		if fb.Codec != "" {
			packed += tail
		}
		onDisk += fb.Length
		blocks = append(blocks, fb)
	}
	// Compressed blocks may expand at most max_compression_ratio times
	// (a sparse block is bounded by max_entry_bytes alone).
	if ratio := int64(lim.MaxCompressionRatio); packed > 0 && (onDisk == 0 || packed/ratio > onDisk) {
		return inventory.Entry{}, limitError("max_compression_ratio", ratio, packed/max(onDisk, 1),
			fmt.Sprintf("entry %q expands %d compressed bytes to %d", norm, onDisk, packed))
	}
	return inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: fsize,
		Data: &inventory.Range{File: img.file, Offset: img.base, Length: int64(img.sb.bytesUsed), Compression: inventory.CompressionBlocks, Blocks: blocks}}, nil
}

// fragment returns the fragment block with index i, read from the
// fragment table (an array of pointers to metadata blocks of 16-byte
// entries, 512 per block).
func (img *squashImage) fragment(i uint32) (inventory.Block, error) {
	if b, ok := img.frags[i]; ok {
		return b, nil
	}
	if i >= img.sb.fragments {
		return inventory.Block{}, malformedf("a squashfs file names fragment %d of %d", i, img.sb.fragments)
	}
	var ptr [8]byte
	at := img.base + int64(img.sb.fragTable) + int64(i/512)*8
	if at < img.base || at+8 > img.base+int64(img.sb.bytesUsed) {
		return inventory.Block{}, malformedf("the squashfs fragment table lies outside the image")
	}
	if _, err := img.ra.ReadAt(ptr[:], at); err != nil {
		return inventory.Block{}, malformedf("cannot read the squashfs fragment table: %v", err)
	}
	blk := int64(binary.LittleEndian.Uint64(ptr[:]))
	if blk < 0 {
		return inventory.Block{}, malformedf("a squashfs fragment pointer lies before the image")
	}
	rec, err := img.readMeta(0, uint64(blk), int(i%512)*16, 16)
	if err != nil {
		return inventory.Block{}, err
	}
	start := int64(binary.LittleEndian.Uint64(rec))
	v := binary.LittleEndian.Uint32(rec[8:])
	n := int64(v &^ squashBlockStored)
	if start < 0 || n == 0 || n > int64(img.sb.blockSize) || start+n > int64(img.sb.bytesUsed) {
		return inventory.Block{}, malformedf("squashfs fragment %d (%d bytes at %d) lies outside the image", i, n, start)
	}
	b := inventory.Block{Offset: img.base + start, Length: n, Whole: int64(img.sb.blockSize)}
	if v&squashBlockStored == 0 {
		b.Codec = img.codec
	}
	img.frags[i] = b
	return b, nil
}

// sniffSquashfs recognises a bare squashfs image.
func sniffSquashfs(h []byte) bool {
	return len(h) >= squashSuperSize && string(h[:4]) == squashMagic && binary.LittleEndian.Uint16(h[28:]) == 4
}

// sniffAppImage recognises a type 2 AppImage: an ELF with "AI\x02" in
// its identification padding (the AppImage specification's magic).
func sniffAppImage(h []byte) bool {
	return len(h) >= 11 && string(h[:4]) == "\x7fELF" && string(h[8:11]) == "AI\x02"
}
