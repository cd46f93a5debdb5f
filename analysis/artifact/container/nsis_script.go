package container

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// The parts of an NSIS install script's header (exehead/fileform.h) that
// name the files a data block holds: the entries (instructions) and the
// string table. makensis compiles `SetOutPath X` to EW_CREATEDIR with
// offsets[1] = 1, `File name` to EW_EXTRACTFILE whose offsets[1] is the
// name (relative to the output directory unless it starts with a
// variable that makes it absolute) and offsets[2] the item's offset in
// the data block, and `File /r` saves and restores the output directory
// through $_OUTDIR (EW_ASSIGNVAR). Opcodes are numbered as in NSIS 3's
// default build (exehead/fileform.h): the ones up to EW_ASSIGNVAR depend
// only on options every build enables; a build that numbers them
// otherwise yields names that do not resolve or point at no item, which
// fall back to data/item-N.
const (
	nsisEntrySize     = 4 + 6*4
	nsisOpCreateDir   = 11
	nsisOpExtractFile = 20
	nsisOpAssignVar   = 25
	// nsisOpWriteUninstaller (WriteUninstaller: name, data offset, icon
	// size) is 62 in NSIS 3's default build; its data items (the
	// uninstaller's icon and its compressed header) are named by no File.
	nsisOpWriteUninstaller = 62
	nsisBlocks             = 8
	nsisBlockEntries       = 2
	nsisBlockStrings       = 3
	nsisBlockLangTable     = 4
	// Variables (build.cpp m_UserVarNames): $INSTDIR, $OUTDIR, $EXEDIR,
	// $TEMP, $PLUGINSDIR, $_OUTDIR.
	nsisVarInstDir    = 21
	nsisVarOutDir     = 22
	nsisVarExeDir     = 23
	nsisVarTemp       = 25
	nsisVarPluginsDir = 26
	nsisVarOutDirSave = 31
	// String codes of NSIS 3 (NS_LANG_CODE … NS_SKIP_CODE), Unicode
	// and ANSI.
	nsisCodeLang  = 1
	nsisCodeShell = 2
	nsisCodeVar   = 3
	nsisCodeSkip  = 4
	// String codes of NSIS 2 (ANSI only): NS_SKIP_CODE 252 … NS_LANG_CODE
	// 255 (7-Zip's NsisIn.cpp, NS_CODE_*).
	nsis2CodeSkip  = 252
	nsis2CodeVar   = 253
	nsis2CodeShell = 254
	nsis2CodeLang  = 255
	// nsisMaxString bounds one decoded string (NSIS_MAX_STRLEN is 1024).
	nsisMaxString = 4096
)

// nsisScript is what the header says about the data items.
type nsisScript struct {
	// names: data-block offset → the paths File instructions extract the
	// item to, in script order.
	names map[int64][]string
	// uninstaller: offsets of uninstaller data (no File names them).
	uninstaller map[int64]bool
	// resolved and unresolved count File instructions whose name rea
	// could and could not resolve.
	resolved, unresolved int
	// undecodable counts File instructions of an ANSI installer whose
	// name (or output directory) holds a byte rea cannot decode soundly
	// (one Windows-1252 leaves undefined, or a code byte of unknown
	// NSIS version).
	undecodable int
	// reason says why the header could not be read at all.
	reason string
}

func (sc *nsisScript) namesAt(rel int64) []string { return sc.names[rel] }
func (sc *nsisScript) named(rel int64) bool       { return len(sc.names[rel]) > 0 }

// nsisPart is one piece of a decoded string: literal text, a variable,
// or something only known at run time (a language string, a shell
// folder).
type nsisPart struct {
	lit      string
	variable int // -1 for a literal
	opaque   bool
}

// parseNSISScript reads the header's entries in order, following the
// output directory as SetOutPath and $_OUTDIR set it, and names every
// EW_EXTRACTFILE's data item. This is the reading 7-Zip's NSIS handler
// also makes: instructions in file order, not the run-time control flow,
// so a name depending on a value computed at run time (a variable other
// than the output directory, a language string) is left unresolved
// rather than guessed. Names under $INSTDIR are relative to the install
// root; other roots keep their variable ($PLUGINSDIR/app-64.7z).
func parseNSISScript(hdr []byte) *nsisScript {
	sc := &nsisScript{names: map[int64][]string{}, uninstaller: map[int64]bool{}}
	ents, strs, ok := nsisLayout(hdr, 4, 8)
	if !ok {
		ents, strs, ok = nsisLayout(hdr, 4, 12) // a 64-bit build's header
	}
	if !ok {
		sc.reason = "its block table does not describe entries and strings inside it"
		return sc
	}
	p := &nsisStrings{tab: strs, unicode: len(strs) >= 2 && strs[0] == 0 && strs[1] == 0}
	if !p.unicode {
		p.codes = nsisANSICodes(strs)
	}
	vars := map[int]*string{}
	root := ""
	vars[nsisVarInstDir] = &root
	for i := 0; i+nsisEntrySize <= len(ents); i += nsisEntrySize {
		e := ents[i:]
		op := binary.LittleEndian.Uint32(e)
		arg := func(k int) int32 { return int32(binary.LittleEndian.Uint32(e[4+4*k:])) }
		switch op {
		case nsisOpCreateDir:
			if arg(1) != 0 {
				vars[nsisVarOutDir] = p.path(arg(0), vars)
			}
		case nsisOpAssignVar:
			// Only $OUTDIR and makensis's own $_OUTDIR are followed: a
			// user variable may be written by any instruction (Pop,
			// ReadRegStr, …), so a name built on one stays unresolved.
			v := int(arg(0))
			if v != nsisVarOutDir && v != nsisVarOutDirSave {
				continue
			}
			if arg(2) == 0 && arg(3) == 0 {
				vars[v] = p.path(arg(1), vars)
			} else {
				vars[v] = nil
			}
		case nsisOpWriteUninstaller:
			if arg(2) > 0 {
				sc.uninstaller[int64(uint32(arg(1)))] = true
			}
		case nsisOpExtractFile:
			p.undecodable = false
			name := p.file(arg(1), vars)
			if name == nil {
				if p.undecodable {
					sc.undecodable++
				} else {
					sc.unresolved++
				}
				continue
			}
			sc.resolved++
			off := int64(uint32(arg(2)))
			if !containsString(sc.names[off], *name) {
				sc.names[off] = append(sc.names[off], *name)
			}
		}
	}
	return sc
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// nsisLayout returns the entries and the string table of a header whose
// block table starts at off with size-byte blocks (offset, count).
func nsisLayout(hdr []byte, off, size int) (ents, strs []byte, ok bool) {
	if len(hdr) < off+nsisBlocks*size {
		return nil, nil, false
	}
	block := func(i int) (uint64, uint64) {
		b := hdr[off+i*size:]
		if size == 12 {
			return binary.LittleEndian.Uint64(b), uint64(binary.LittleEndian.Uint32(b[8:]))
		}
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[4:]))
	}
	eo, en := block(nsisBlockEntries)
	so, _ := block(nsisBlockStrings)
	lo, _ := block(nsisBlockLangTable)
	n := uint64(len(hdr))
	if eo > n || en > (n-eo)/nsisEntrySize || so >= lo || lo > n || eo+en*nsisEntrySize > so {
		return nil, nil, false
	}
	return hdr[eo : eo+en*nsisEntrySize], hdr[so:lo], true
}

// nsisStrings decodes the string table (UTF-16LE in a Unicode installer,
// bytes otherwise) with NSIS 3's codes, or NSIS 2's in an ANSI one.
type nsisStrings struct {
	tab     []byte
	unicode bool
	// codes: how an ANSI table marks variables (Unicode tables always
	// use NSIS 3's).
	codes nsisCodes
	// undecodable is set when the last string failed on a character
	// rather than on its structure.
	undecodable bool
}

// nsisCodes are the string codes of an ANSI string table.
type nsisCodes int

const (
	// nsisCodes3: NSIS 3's 1–4, bytes from 5 up are text.
	nsisCodes3 nsisCodes = iota
	// nsisCodes2: NSIS 2's 252–255, bytes below are text.
	nsisCodes2
	// nsisCodesUnknown: no string tells which; a byte that is a code in
	// one and text in the other (1–4, 252–255) cannot be decoded.
	nsisCodesUnknown
)

// nsisANSICodes tells NSIS 3's codes from NSIS 2's in an ANSI string
// table the way 7-Zip's NSIS reader does (DetectNsisType): a string that
// starts with a variable ($INSTDIR\…, which SetOutPath and InstallDir
// nearly always write) starts with the variable code and two bytes with
// bit 7 set (CODE_SHORT) — 3 in NSIS 3, 253 in NSIS 2.
func nsisANSICodes(tab []byte) nsisCodes {
	saw2 := false
	for i := 0; i+3 < len(tab); i++ {
		if i > 0 && tab[i-1] != 0 {
			continue
		}
		if tab[i+1]&0x80 == 0 || tab[i+2]&0x80 == 0 {
			continue
		}
		switch tab[i] {
		case nsisCodeVar:
			return nsisCodes3
		case nsis2CodeVar:
			saw2 = true
		}
	}
	if saw2 {
		return nsisCodes2
	}
	return nsisCodesUnknown
}

// cp1252High is Windows-1252 for bytes 0x80–0x9F (0xA0–0xFF are
// Latin-1, the same code points); 0 marks the five bytes Windows-1252
// leaves undefined.
var cp1252High = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// ansiChar decodes one byte of an ANSI installer's text. The installer
// does not record the code page makensis wrote it in (the build
// machine's ANSI code page); Windows-1252, the code page of Western
// Windows installs and what Debian's makensis converts UTF-8 scripts to,
// is assumed. A byte it leaves undefined is not decoded (ok false).
func ansiChar(b byte) (rune, bool) {
	switch {
	case b < 0x80 || b >= 0xa0:
		return rune(b), true
	case cp1252High[b-0x80] != 0:
		return cp1252High[b-0x80], true
	}
	return 0, false
}

// code classifies character c of the table: a code (lang, shell, var
// or skip as NSIS 3 numbers them), text, or undecodable.
func (p *nsisStrings) code(c uint16) (code uint16, text, ok bool) {
	if p.unicode {
		return c, c > nsisCodeSkip, true
	}
	switch p.codes {
	case nsisCodes3:
		return c, c > nsisCodeSkip, true
	case nsisCodes2:
		switch c {
		case nsis2CodeSkip:
			return nsisCodeSkip, false, true
		case nsis2CodeVar:
			return nsisCodeVar, false, true
		case nsis2CodeShell:
			return nsisCodeShell, false, true
		case nsis2CodeLang:
			return nsisCodeLang, false, true
		}
		return c, true, true
	}
	if c <= nsisCodeSkip || c >= nsis2CodeSkip {
		return 0, false, false
	}
	return c, true, true
}

// parts decodes string number idx (a character index), or nil.
func (p *nsisStrings) parts(idx int32) []nsisPart {
	if idx < 0 {
		return []nsisPart{{variable: -1, opaque: true}} // a language string
	}
	w := 1
	if p.unicode {
		w = 2
	}
	pos := int(idx) * w
	if pos >= len(p.tab) || int(idx) > len(p.tab) {
		return nil
	}
	var out []nsisPart
	var lit []uint16
	flush := func() {
		if len(lit) > 0 {
			out = append(out, nsisPart{lit: string(utf16.Decode(lit)), variable: -1})
			lit = lit[:0]
		}
	}
	// text appends one character of text; an ANSI byte is decoded as
	// Windows-1252 (ansiChar), and one it leaves undefined fails the
	// string.
	text := func(c uint16) bool {
		if !p.unicode {
			r, ok := ansiChar(byte(c))
			if !ok {
				return false
			}
			c = uint16(r) // every Windows-1252 character is in the BMP
		}
		lit = append(lit, c)
		return true
	}
	next := func() (uint16, bool) {
		if pos+w > len(p.tab) {
			return 0, false
		}
		var c uint16
		if p.unicode {
			c = binary.LittleEndian.Uint16(p.tab[pos:])
		} else {
			c = uint16(p.tab[pos])
		}
		pos += w
		return c, true
	}
	for n := 0; n < nsisMaxString; n++ {
		c, ok := next()
		if !ok {
			return nil
		}
		if c == 0 {
			flush()
			return out
		}
		c, isText, ok := p.code(c)
		if !ok {
			p.undecodable = true // a code in one NSIS version, text in the other
			return nil
		}
		if isText {
			if !text(c) {
				p.undecodable = true
				return nil
			}
			continue
		}
		if c == nsisCodeSkip {
			if c, ok = next(); !ok {
				return nil
			}
			if !text(c) {
				p.undecodable = true
				return nil
			}
			continue
		}
		// A code is followed by two bytes: one character in a Unicode
		// installer, two in an ANSI one (DECODE_SHORT).
		var lo, hi byte
		if p.unicode {
			v, ok := next()
			if !ok {
				return nil
			}
			lo, hi = byte(v), byte(v>>8)
		} else {
			a, ok1 := next()
			b, ok2 := next()
			if !ok1 || !ok2 {
				return nil
			}
			lo, hi = byte(a), byte(b)
		}
		flush()
		if c == nsisCodeVar {
			out = append(out, nsisPart{variable: int(hi&0x7f)<<7 | int(lo&0x7f)})
		} else {
			out = append(out, nsisPart{variable: -1, opaque: true})
		}
	}
	return nil
}

// path resolves a directory string: a variable rea follows, then
// literal text; nil when any part is known only at run time or the
// path is absolute on its own.
func (p *nsisStrings) path(idx int32, vars map[int]*string) *string {
	parts := p.parts(idx)
	if len(parts) == 0 || parts[0].opaque {
		return nil
	}
	base := ""
	rest := parts
	if parts[0].variable >= 0 {
		switch v := parts[0].variable; v {
		case nsisVarTemp:
			base = "$TEMP"
		case nsisVarPluginsDir:
			base = "$PLUGINSDIR"
		case nsisVarExeDir:
			base = "$EXEDIR"
		default:
			known := vars[v]
			if known == nil {
				return nil
			}
			base = *known
		}
		rest = parts[1:]
	} else if isWindowsAbsolute(parts[0].lit) {
		return nil
	}
	for _, q := range rest {
		if q.variable >= 0 || q.opaque {
			return nil
		}
	}
	out := joinNSIS(base, literal(rest))
	return &out
}

// file resolves an EW_EXTRACTFILE name: relative to $OUTDIR, unless it
// starts with a variable (then it is a path of its own).
func (p *nsisStrings) file(idx int32, vars map[int]*string) *string {
	parts := p.parts(idx)
	if len(parts) == 0 {
		return nil
	}
	if parts[0].variable >= 0 || parts[0].opaque {
		name := p.path(idx, vars)
		if name == nil || joinNSIS("", literal(parts[1:])) == "" {
			// Unresolved, or a variable with nothing after it: the
			// directory it holds, not a file in it (as $OUTDIR alone
			// below).
			return nil
		}
		return name
	}
	if isWindowsAbsolute(parts[0].lit) {
		return nil
	}
	out := vars[nsisVarOutDir]
	if out == nil {
		return nil
	}
	for _, q := range parts {
		if q.variable >= 0 || q.opaque {
			return nil
		}
	}
	name := joinNSIS(*out, literal(parts))
	if name == *out {
		return nil
	}
	return &name
}

// literal is the text of parts, of which only the literal ones count.
func literal(parts []nsisPart) string {
	var b strings.Builder
	for _, q := range parts {
		b.WriteString(q.lit)
	}
	return b.String()
}

// isWindowsAbsolute: a drive (C:…) or a UNC/rooted path (\…).
func isWindowsAbsolute(s string) bool {
	return strings.HasPrefix(s, `\`) || strings.HasPrefix(s, "/") || (len(s) >= 2 && s[1] == ':')
}

// joinNSIS joins a base and a Windows path into a slash path, dropping
// empty and "." segments; ".." is kept for the normaliser to refuse.
func joinNSIS(base, rel string) string {
	var segs []string
	for _, s := range strings.Split(base+"/"+strings.ReplaceAll(rel, `\`, "/"), "/") {
		if s != "" && s != "." {
			segs = append(segs, s)
		}
	}
	return strings.Join(segs, "/")
}
