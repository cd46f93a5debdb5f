package container

// The ASAR header parser as it was before the byte scanner (session 7):
// encoding/json's Decoder, token by token. Kept as the oracle the
// differential fuzz target compares the scanner with.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"rea/analysis/artifact/artpath"
	"rea/analysis/artifact/inventory"
)

func oracleParseASAR(s *scope, r io.ReaderAt, size int64, file string) (int64, error) {
	header, base, err := readASARHeader(r, size, s.b.lim.MaxHeaderBytes)
	if err != nil {
		return 0, err
	}
	c := &s.b.res.Containers[s.index]
	c.HeaderSize = base
	var prefix [asarPrefixSize]byte
	r.ReadAt(prefix[:], 0) // read successfully by readASARHeader
	h := sha256.New()
	h.Write(prefix[:])
	h.Write(header)
	c.ParsedBytes, c.ParsedSHA256 = asarPrefixSize+int64(len(header)), hex.EncodeToString(h.Sum(nil))
	dec := json.NewDecoder(bytes.NewReader(header))
	dec.UseNumber()
	p := &oracleASARParser{s: s, dec: dec, file: file, base: base, size: size}
	if err := p.node(""); err != nil {
		return 0, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return 0, malformedf("ASAR JSON header has content after the root object")
	}
	if err := checkOverlaps(p.spans); err != nil {
		return 0, err
	}
	return base, nil
}

type oracleASARParser struct {
	s     *scope
	dec   *json.Decoder
	file  string
	base  int64
	size  int64
	spans []span
}

func (p *oracleASARParser) token() (json.Token, error) {
	t, err := p.dec.Token()
	if err != nil {
		return nil, malformedf("ASAR JSON header is not valid JSON: %v", err)
	}
	return t, nil
}

func (p *oracleASARParser) expectDelim(d json.Delim, what string) error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if got, ok := t.(json.Delim); !ok || got != d {
		return malformedf("%s is not a JSON object", what)
	}
	return nil
}

// node parses one node object at a normalised path ("" for the root).
func (p *oracleASARParser) node(at string) error {
	if err := p.expectDelim('{', describe(at)); err != nil {
		return err
	}
	var n asarNode
	seen := map[string]bool{}
	for p.dec.More() {
		t, err := p.token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		if seen[key] {
			return malformedf("%s declares %q twice", describe(at), key)
		}
		seen[key] = true
		switch key {
		case "files":
			if n.hasSize || n.hasLink || n.hasOffset {
				return malformedf("%s is both a directory and a file or link", describe(at))
			}
			n.isDir = true
			if at != "" {
				if _, err := p.s.add(inventory.Entry{Path: at, Kind: inventory.KindDirectory}); err != nil {
					return err
				}
			}
			if err := p.files(at); err != nil {
				return err
			}
		case "size":
			n.size, err = p.size64(at)
			n.hasSize = true
		case "offset":
			n.offset, err = p.offset(at)
			n.hasOffset = true
		case "unpacked":
			n.unpacked, err = p.boolean(at, key)
		case "executable":
			n.executable, err = p.boolean(at, key)
		case "link":
			n.link, err = p.str(at, key)
			n.hasLink = true
		case "integrity":
			n.integrity, err = p.integrity(at)
		default:
			var skip json.RawMessage
			if err := p.dec.Decode(&skip); err != nil {
				return malformedf("ASAR JSON header is not valid JSON: %v", err)
			}
		}
		if err != nil {
			return err
		}
		if n.isDir && (n.hasSize || n.hasLink || n.hasOffset) {
			return malformedf("%s is both a directory and a file or link", describe(at))
		}
	}
	if err := p.expectDelim('}', describe(at)); err != nil {
		return err
	}
	if at == "" {
		if !n.isDir {
			return malformedf("the ASAR root has no \"files\" object")
		}
		return nil
	}
	switch {
	case n.isDir:
		return nil
	case n.hasLink:
		if n.hasSize {
			return malformedf("%s is both a link and a file", describe(at))
		}
		_, err := p.s.add(inventory.Entry{Path: at, Kind: inventory.KindLink, Link: inventory.NewLink(n.link, "")})
		return err
	case !n.hasSize:
		return malformedf("%s has neither \"files\", \"link\" nor \"size\"", describe(at))
	}
	e := inventory.Entry{Path: at, Kind: inventory.KindFile, Size: n.size, Executable: n.executable, Unpacked: n.unpacked, Integrity: n.integrity}
	if e.Integrity != nil && e.Integrity.Known() {
		if err := checkBlocks(at, e.Size, e.Integrity); err != nil {
			return err
		}
	}
	if !n.unpacked {
		if !n.hasOffset {
			return malformedf("%s is packed but declares no offset", describe(at))
		}
		avail := p.size - p.base
		if n.offset > avail || n.size > avail-n.offset {
			return malformedf("%s declares bytes %d–%d past the end of the archive data (%d bytes)",
				describe(at), n.offset, n.offset+n.size, avail).WithDetail("path", at)
		}
		e.Data = &inventory.Range{File: p.file, Offset: p.base + n.offset, Length: n.size}
		if n.size > 0 {
			p.spans = append(p.spans, span{start: e.Data.Offset, end: e.Data.End(), path: at})
		}
	}
	_, err := p.s.add(e)
	return err
}

// files parses a directory's "files" object.
func (p *oracleASARParser) files(dir string) error {
	if err := p.expectDelim('{', fmt.Sprintf("the \"files\" of %s", describe(dir))); err != nil {
		return err
	}
	names := map[string]bool{}
	for p.dec.More() {
		t, err := p.token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		if names[name] {
			return malformedf("%s declares member %q twice", describe(dir), name)
		}
		names[name] = true
		if err := artpath.ValidSegment(name); err != nil {
			return err
		}
		child := name
		if dir != "" {
			child = dir + "/" + name
		}
		norm, err := p.s.normalize(child)
		if err != nil {
			return err
		}
		if err := p.node(norm); err != nil {
			return err
		}
	}
	_, err := p.token() // the closing brace; More() said there is no member
	return err
}

func (p *oracleASARParser) size64(at string) (int64, error) {
	t, err := p.token()
	if err != nil {
		return 0, err
	}
	num, ok := t.(json.Number)
	if !ok {
		return 0, malformedf("%s declares a non-numeric size %v", describe(at), t).WithDetail("path", at)
	}
	v, ok := parseDecimal(string(num))
	if !ok || v > maxSafeInteger {
		return 0, malformedf("%s declares size %s, which is not a non-negative integer", describe(at), clipText(string(num))).WithDetail("path", at)
	}
	return v, nil
}

func (p *oracleASARParser) offset(at string) (int64, error) {
	t, err := p.token()
	if err != nil {
		return 0, err
	}
	s, ok := t.(string)
	if !ok {
		return 0, malformedf("%s declares offset %v, not a decimal string", describe(at), t).WithDetail("path", at)
	}
	v, ok := parseDecimal(s)
	if !ok {
		return 0, malformedf("%s declares offset %q, not a non-negative decimal integer", describe(at), clipText(s)).WithDetail("path", at)
	}
	return v, nil
}

func (p *oracleASARParser) boolean(at, key string) (bool, error) {
	t, err := p.token()
	if err != nil {
		return false, err
	}
	v, ok := t.(bool)
	if !ok {
		return false, malformedf("%s declares %q as %v, not a boolean", describe(at), key, t)
	}
	return v, nil
}

func (p *oracleASARParser) str(at, key string) (string, error) {
	t, err := p.token()
	if err != nil {
		return "", err
	}
	v, ok := t.(string)
	if !ok {
		return "", malformedf("%s declares %q as %v, not a string", describe(at), key, t)
	}
	return v, nil
}

// integrity decodes a node's integrity object. Only SHA256 is understood;
// another algorithm ("sha256", "MD5") is recorded as declared, without
// blocks, so the host reports it unverifiable instead of treating the entry
// as if it declared nothing (Electron ignores it, so a tampered archive
// could hide behind it).
func (p *oracleASARParser) integrity(at string) (*inventory.Integrity, error) {
	var raw struct {
		Algorithm string      `json:"algorithm"`
		Hash      string      `json:"hash"`
		BlockSize json.Number `json:"blockSize"`
		Blocks    []string    `json:"blocks"`
	}
	if err := p.dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, malformedf("ASAR JSON header is not valid JSON: %v", err)
		}
		return nil, malformedf("%s declares a malformed integrity object: %v", describe(at), err).WithDetail("path", at)
	}
	if raw.Algorithm != inventory.AlgorithmSHA256 {
		return &inventory.Integrity{Algorithm: clipText(raw.Algorithm), Hash: clipText(raw.Hash)}, nil
	}
	bs, ok := parseDecimal(string(raw.BlockSize))
	if !ok || bs == 0 {
		return nil, malformedf("%s declares integrity blockSize %q, not a positive integer", describe(at), clipText(string(raw.BlockSize))).WithDetail("path", at)
	}
	in := &inventory.Integrity{Algorithm: raw.Algorithm, BlockSize: bs, Blocks: make([]string, len(raw.Blocks))}
	var err error
	if in.Hash, err = sha256Hex(at, raw.Hash); err != nil {
		return nil, err
	}
	for i, b := range raw.Blocks {
		if in.Blocks[i], err = sha256Hex(at, b); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// oracleParse is ParseASAR over the Decoder-based parser.
func oracleParse(r io.ReaderAt, size int64, file string, lim inventory.Limits) (*ASAR, error) {
	lim = lim.WithDefaults()
	b := newBuilder(lim, nil)
	s, err := b.openContainer(inventory.Container{Parent: -1, Entry: -1, File: file, Format: inventory.FormatASAR})
	if err != nil {
		return nil, err
	}
	base, err := oracleParseASAR(s, r, size, file)
	if err != nil {
		return nil, err
	}
	return &ASAR{DataBase: base, Entries: b.res.Entries}, nil
}
