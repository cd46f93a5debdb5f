package electronbin

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"rea/analysis/native/nativewire"
)

// Integrity is the embedded ASAR integrity of a Windows executable.
type Integrity = nativewire.EmbeddedIntegrity

// Electron's Windows archive code (shell/common/asar/archive_win.cc) finds
// the integrity with FindResource(name "ElectronAsar", type "Integrity");
// resource names compare case-insensitively and resource compilers store
// them upper-cased.
const (
	IntegrityResourceType = "INTEGRITY"
	IntegrityResourceName = "ELECTRONASAR"
)

// maxIntegrityResource bounds the resource read (a real one is a few
// hundred bytes per archive).
const maxIntegrityResource = 1 << 20

// peLimits bound the resource directory walk.
const (
	maxSections       = 96 // the PE loader's own limit
	maxResDirEntries  = 4096
	maxResourceLevels = 3
)

// PEIntegrity reads the INTEGRITY/ELECTRONASAR resource of a PE file. It
// returns nil, nil when the file is not a PE or holds no such resource,
// and an Integrity with Error set when the resource is there but cannot
// be read the way Electron reads it.
func PEIntegrity(r io.ReaderAt, size int64) (*Integrity, error) {
	pe, err := readPE(r, size)
	if pe == nil || err != nil {
		return nil, err
	}
	off, n, found, err := pe.findResource(IntegrityResourceType, IntegrityResourceName)
	if err != nil {
		return &Integrity{Source: "PE resource " + IntegrityResourceType + "/" + IntegrityResourceName, Entries: []nativewire.DeclaredASARIntegrity{},
			Error: err.Error()}, nil
	}
	if !found {
		return nil, nil
	}
	out := &Integrity{Source: "PE resource " + IntegrityResourceType + "/" + IntegrityResourceName, Offset: off, Size: n, Entries: []nativewire.DeclaredASARIntegrity{}}
	if n > maxIntegrityResource {
		out.Error = fmt.Sprintf("the resource is %d bytes, more than the %d rea reads", n, maxIntegrityResource)
		return out, nil
	}
	data := make([]byte, n)
	if _, err := r.ReadAt(data, off); err != nil {
		out.Error = fmt.Sprintf("the resource's %d bytes at %d cannot be read: %v", n, off, err)
		return out, nil
	}
	parseIntegrityJSON(out, data)
	return out, nil
}

// parseIntegrityJSON reads the resource as Electron does: a JSON list of
// objects with string file, alg (sha256 in any case) and value; other
// elements are skipped.
func parseIntegrityJSON(out *Integrity, data []byte) {
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		out.Error = "the resource is not a JSON list: " + err.Error()
		return
	}
	for _, raw := range list {
		var el map[string]json.RawMessage
		if json.Unmarshal(raw, &el) != nil {
			out.Skipped++
			continue
		}
		str := func(k string) string {
			var s string
			if v, ok := el[k]; ok && json.Unmarshal(v, &s) == nil {
				return s
			}
			return ""
		}
		d := nativewire.DeclaredASARIntegrity{File: str("file"), Alg: str("alg"), Value: str("value")}
		if d.File == "" || !strings.EqualFold(d.Alg, "sha256") || d.Value == "" {
			out.Skipped++
			continue
		}
		out.Entries = append(out.Entries, d)
	}
}

type peSection struct{ va, vsize, raw, rawSize uint32 }

type peFile struct {
	r        io.ReaderAt
	size     int64
	sections []peSection
	resRVA   uint32
	resSize  uint32
}

// readPE reads the headers a resource lookup needs; nil for a non-PE.
func readPE(r io.ReaderAt, size int64) (*peFile, error) {
	var dos [64]byte
	if n, _ := r.ReadAt(dos[:], 0); n < len(dos) || dos[0] != 'M' || dos[1] != 'Z' {
		return nil, nil
	}
	lfanew := int64(binary.LittleEndian.Uint32(dos[60:]))
	var hdr [24]byte
	if lfanew <= 0 || lfanew > size-24 {
		return nil, nil
	}
	if n, _ := r.ReadAt(hdr[:], lfanew); n < len(hdr) || string(hdr[:4]) != "PE\x00\x00" {
		return nil, nil
	}
	nsec := int(binary.LittleEndian.Uint16(hdr[6:]))
	optSize := int64(binary.LittleEndian.Uint16(hdr[20:]))
	if nsec > maxSections {
		return nil, fmt.Errorf("the PE declares %d sections, more than the %d Windows loads", nsec, maxSections)
	}
	opt := make([]byte, optSize)
	if optSize > 0 {
		if n, _ := r.ReadAt(opt, lfanew+24); int64(n) < optSize {
			return nil, fmt.Errorf("the PE optional header is truncated")
		}
	}
	pe := &peFile{r: r, size: size}
	var dirs int64
	switch {
	case optSize >= 2 && binary.LittleEndian.Uint16(opt) == 0x10b:
		dirs = 96
	case optSize >= 2 && binary.LittleEndian.Uint16(opt) == 0x20b:
		dirs = 112
	default:
		return nil, nil // an object file or a ROM image: no resources to find
	}
	// DataDirectory[2] is the resource table (RVA, size).
	if dirs+8*3 <= optSize && binary.LittleEndian.Uint32(opt[dirs-4:]) > 2 {
		pe.resRVA = binary.LittleEndian.Uint32(opt[dirs+16:])
		pe.resSize = binary.LittleEndian.Uint32(opt[dirs+20:])
	}
	secs := make([]byte, 40*nsec)
	if n, _ := r.ReadAt(secs, lfanew+24+optSize); n < len(secs) {
		return nil, fmt.Errorf("the PE section table is truncated")
	}
	for i := range nsec {
		s := secs[40*i:]
		pe.sections = append(pe.sections, peSection{vsize: binary.LittleEndian.Uint32(s[8:]), va: binary.LittleEndian.Uint32(s[12:]),
			rawSize: binary.LittleEndian.Uint32(s[16:]), raw: binary.LittleEndian.Uint32(s[20:])})
	}
	return pe, nil
}

// fileOffset maps n bytes at rva to the file, or fails when they are not
// all backed by one section's raw data.
func (pe *peFile) fileOffset(rva, n uint32) (int64, error) {
	for _, s := range pe.sections {
		span := max(s.vsize, s.rawSize)
		if rva >= s.va && uint64(rva)+uint64(n) <= uint64(s.va)+uint64(span) {
			if uint64(rva-s.va)+uint64(n) > uint64(s.rawSize) {
				return 0, fmt.Errorf("bytes %#x+%d lie past the raw data of their section", rva, n)
			}
			off := int64(s.raw) + int64(rva-s.va)
			if off+int64(n) > pe.size {
				return 0, fmt.Errorf("bytes %#x+%d lie past the end of the file", rva, n)
			}
			return off, nil
		}
	}
	return 0, fmt.Errorf("RVA %#x+%d is in no section", rva, n)
}

// read reads n bytes at offset off of the resource table.
func (pe *peFile) read(off, n uint32) ([]byte, error) {
	if uint64(off)+uint64(n) > uint64(pe.resSize) {
		return nil, fmt.Errorf("a resource record at %#x runs past the resource table (%d bytes)", off, pe.resSize)
	}
	fo, err := pe.fileOffset(pe.resRVA+off, n)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := pe.r.ReadAt(b, fo); err != nil {
		return nil, err
	}
	return b, nil
}

// findResource walks type → name → first language, returning the file
// range of the resource's data.
func (pe *peFile) findResource(typ, name string) (off, n int64, found bool, err error) {
	if pe.resRVA == 0 || pe.resSize == 0 {
		return 0, 0, false, nil
	}
	dir := uint32(0)
	for level, want := range []string{typ, name, ""} {
		entry, ok, err := pe.lookup(dir, want)
		if err != nil || !ok {
			return 0, 0, false, err
		}
		isDir := entry&0x80000000 != 0
		entry &^= 0x80000000
		if level < maxResourceLevels-1 {
			if !isDir {
				return 0, 0, false, fmt.Errorf("resource level %d points at data where a directory belongs", level+1)
			}
			dir = entry
			continue
		}
		if isDir {
			return 0, 0, false, fmt.Errorf("the language level of %s/%s is a directory", typ, name)
		}
		data, err := pe.read(entry, 16)
		if err != nil {
			return 0, 0, false, err
		}
		rva, size := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:])
		fo, err := pe.fileOffset(rva, size)
		if err != nil {
			return 0, 0, false, fmt.Errorf("the %s/%s resource data: %v", typ, name, err)
		}
		return fo, int64(size), true, nil
	}
	return 0, 0, false, nil
}

// lookup finds the entry named want (case-insensitively) in the
// directory at dir, or the first entry when want is "".
func (pe *peFile) lookup(dir uint32, want string) (uint32, bool, error) {
	h, err := pe.read(dir, 16)
	if err != nil {
		return 0, false, err
	}
	count := int(binary.LittleEndian.Uint16(h[12:])) + int(binary.LittleEndian.Uint16(h[14:]))
	if count > maxResDirEntries {
		return 0, false, fmt.Errorf("a resource directory declares %d entries (at most %d read)", count, maxResDirEntries)
	}
	if count == 0 {
		return 0, false, nil
	}
	entries, err := pe.read(dir+16, uint32(8*count))
	if err != nil {
		return 0, false, err
	}
	for i := range count {
		nameField := binary.LittleEndian.Uint32(entries[8*i:])
		target := binary.LittleEndian.Uint32(entries[8*i+4:])
		if want == "" {
			return target, true, nil
		}
		if nameField&0x80000000 == 0 {
			continue // an integer ID, not a name
		}
		got, err := pe.resName(nameField &^ 0x80000000)
		if err != nil {
			return 0, false, err
		}
		if strings.EqualFold(got, want) {
			return target, true, nil
		}
	}
	return 0, false, nil
}

// resName reads an IMAGE_RESOURCE_DIR_STRING_U: a length and UTF-16 units.
func (pe *peFile) resName(off uint32) (string, error) {
	l, err := pe.read(off, 2)
	if err != nil {
		return "", err
	}
	n := uint32(binary.LittleEndian.Uint16(l))
	raw, err := pe.read(off+2, 2*n)
	if err != nil {
		return "", err
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(raw[2*i:])
	}
	return string(utf16.Decode(u)), nil
}
