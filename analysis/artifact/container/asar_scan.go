package container

import (
	"encoding/json"

	"rea/analysis/artifact/inventory"
)

// headerScanner reads an ASAR JSON header in place. encoding/json's Decoder
// (token by token) cost about 90 µs per entry in the wasm module — a boxed
// token per key and value and a formatted error on every Decode — which
// made a 10,000-file archive's inventory a second slower than hashing it.
// The scanner reads the same grammar (RFC 8259; the header is checked to
// be UTF-8 before) without allocating for keys or numbers; a string with an
// escape is decoded by encoding/json, so escapes mean what they always
// meant. FuzzASARHeaderScannerAgreesWithTheDecoder compares it with the
// Decoder-based parser it replaced.
type headerScanner struct {
	b   []byte
	pos int
	// first holds, for every object being read, whether no member has
	// been read yet (a comma comes before every later one).
	first []bool
}

// maxNesting is encoding/json's nesting limit, kept for skipped values.
const maxNesting = 10000

func (s *headerScanner) ws() {
	for s.pos < len(s.b) {
		switch s.b[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *headerScanner) syntax(what string) error {
	if s.pos >= len(s.b) {
		return malformedf("ASAR JSON header is not valid JSON: unexpected end of JSON input (%s)", what)
	}
	return malformedf("ASAR JSON header is not valid JSON: invalid character %q at byte %d (%s)", s.b[s.pos], s.pos, what)
}

// peek returns the next byte after white space, or 0 at the end.
func (s *headerScanner) peek() byte {
	s.ws()
	if s.pos < len(s.b) {
		return s.b[s.pos]
	}
	return 0
}

// startsValue reports whether c can begin a JSON value.
func startsValue(c byte) bool {
	switch c {
	case '{', '[', '"', '-', 't', 'f', 'n':
		return true
	}
	return c >= '0' && c <= '9'
}

// open reads the '{' of an object; what names it in the error for another
// value.
func (s *headerScanner) open(what func() string) error {
	switch c := s.peek(); {
	case c == '{':
		s.pos++
		s.first = append(s.first, true)
		return nil
	case startsValue(c):
		return malformedf("%s is not a JSON object", what())
	}
	return s.syntax("looking for the beginning of a value")
}

// member reads the next key of the innermost open object and its colon,
// or the object's closing brace (more is false).
func (s *headerScanner) member() (key string, more bool, err error) {
	top := len(s.first) - 1
	c := s.peek()
	if c == '}' {
		s.pos++
		s.first = s.first[:top]
		return "", false, nil
	}
	if !s.first[top] {
		if c != ',' {
			return "", false, s.syntax("after an object member")
		}
		s.pos++
		c = s.peek()
	}
	if c != '"' {
		return "", false, s.syntax("looking for the beginning of an object key string")
	}
	if key, err = s.str(); err != nil {
		return "", false, err
	}
	if s.peek() != ':' {
		return "", false, s.syntax("after an object key")
	}
	s.pos++
	s.first[top] = false
	return key, true, nil
}

// stringEnd returns the index of the closing quote of the string starting
// at s.pos, and whether it holds an escape.
func (s *headerScanner) stringEnd() (int, bool, error) {
	escaped := false
	for i := s.pos + 1; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			return i, escaped, nil
		case c == '\\':
			escaped = true
			i++ // the escaped byte; encoding/json checks the escape
		case c < 0x20:
			s.pos = i
			return 0, false, s.syntax("in string literal")
		}
	}
	s.pos = len(s.b)
	return 0, false, s.syntax("in string literal")
}

// str reads a string value (s.pos is at its opening quote).
func (s *headerScanner) str() (string, error) {
	end, escaped, err := s.stringEnd()
	if err != nil {
		return "", err
	}
	lit := s.b[s.pos : end+1]
	s.pos = end + 1
	if !escaped {
		return intern(lit[1 : len(lit)-1]), nil
	}
	var v string
	if err := json.Unmarshal(lit, &v); err != nil {
		return "", malformedf("ASAR JSON header is not valid JSON: %v", err)
	}
	return v, nil
}

// intern returns the header's own keys without allocating.
func intern(b []byte) string {
	switch string(b) { // no allocation: the compiler compares in place
	case "files":
		return "files"
	case "size":
		return "size"
	case "offset":
		return "offset"
	case "integrity":
		return "integrity"
	case "algorithm":
		return "algorithm"
	case "SHA256":
		return "SHA256"
	case "hash":
		return "hash"
	case "blockSize":
		return "blockSize"
	case "blocks":
		return "blocks"
	case "unpacked":
		return "unpacked"
	case "executable":
		return "executable"
	case "link":
		return "link"
	}
	return string(b)
}

// number reads a JSON number and returns its text.
func (s *headerScanner) number() (string, error) {
	start := s.pos
	b := s.b
	i := s.pos
	digits := func() bool {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		s.pos = i
		return "", s.syntax("in numeric literal")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			s.pos = i
			return "", s.syntax("after decimal point in numeric literal")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			s.pos = i
			return "", s.syntax("in exponent of numeric literal")
		}
	}
	s.pos = i
	return string(b[start:i]), nil
}

// literal reads true, false or null.
func (s *headerScanner) literal() (string, error) {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(s.b)-s.pos >= len(lit) && string(s.b[s.pos:s.pos+len(lit)]) == lit {
			s.pos += len(lit)
			return lit, nil
		}
	}
	return "", s.syntax("in literal")
}

// skip reads one value of any kind and returns its bytes.
func (s *headerScanner) skip() ([]byte, error) {
	s.ws()
	start := s.pos
	if err := s.skipValue(0); err != nil {
		return nil, err
	}
	return s.b[start:s.pos], nil
}

func (s *headerScanner) skipValue(depth int) error {
	switch c := s.peek(); {
	case c == '{' || c == '[':
		if depth+1 > maxNesting {
			return malformedf("ASAR JSON header is not valid JSON: exceeded max depth")
		}
		s.pos++
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		for n := 0; ; n++ {
			if s.peek() == closing {
				s.pos++
				return nil
			}
			if n > 0 {
				if s.peek() != ',' {
					return s.syntax("after a value")
				}
				s.pos++
			}
			if c == '{' {
				if s.peek() != '"' {
					return s.syntax("looking for the beginning of an object key string")
				}
				if _, err := s.str(); err != nil {
					return err
				}
				if s.peek() != ':' {
					return s.syntax("after an object key")
				}
				s.pos++
			}
			if err := s.skipValue(depth + 1); err != nil {
				return err
			}
		}
	case c == '"':
		end, escaped, err := s.stringEnd()
		if err != nil {
			return err
		}
		if escaped {
			_, err = s.str()
			return err
		}
		s.pos = end + 1
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := s.number()
		return err
	default:
		_, err := s.literal()
		return err
	}
}

// keySet remembers a node's keys (a handful) to refuse a repeated one.
type keySet []string

func (k *keySet) add(key string) (dup bool) {
	for _, have := range *k {
		if have == key {
			return true
		}
	}
	*k = append(*k, key)
	return false
}

// kindOf names the JSON value starting at the scanner, for errors.
func (s *headerScanner) kindOf() string {
	switch c := s.peek(); {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return "a number"
}

func (p *asarParser) size64(at string) (int64, error) {
	sc := &p.sc
	if c := sc.peek(); c != '-' && (c < '0' || c > '9') {
		kind := sc.kindOf()
		if _, err := sc.skip(); err != nil {
			return 0, err
		}
		return 0, malformedf("%s declares a non-numeric size (%s)", describe(at), kind).WithDetail("path", at)
	}
	num, err := sc.number()
	if err != nil {
		return 0, err
	}
	v, ok := parseDecimal(num)
	if !ok || v > maxSafeInteger {
		return 0, malformedf("%s declares size %s, which is not a non-negative integer", describe(at), clipText(num)).WithDetail("path", at)
	}
	return v, nil
}

func (p *asarParser) offset(at string) (int64, error) {
	if p.sc.peek() != '"' {
		kind := p.sc.kindOf()
		if _, err := p.sc.skip(); err != nil {
			return 0, err
		}
		return 0, malformedf("%s declares offset as %s, not a decimal string", describe(at), kind).WithDetail("path", at)
	}
	s, err := p.sc.str()
	if err != nil {
		return 0, err
	}
	v, ok := parseDecimal(s)
	if !ok {
		return 0, malformedf("%s declares offset %q, not a non-negative decimal integer", describe(at), clipText(s)).WithDetail("path", at)
	}
	return v, nil
}

func (p *asarParser) boolean(at, key string) (bool, error) {
	if c := p.sc.peek(); c == 't' || c == 'f' {
		lit, err := p.sc.literal()
		if err != nil {
			return false, err
		}
		if lit != "null" {
			return lit == "true", nil
		}
	}
	kind := p.sc.kindOf()
	if _, err := p.sc.skip(); err != nil {
		return false, err
	}
	return false, malformedf("%s declares %q as %s, not a boolean", describe(at), key, kind)
}

func (p *asarParser) str(at, key string) (string, error) {
	if p.sc.peek() == '"' {
		return p.sc.str()
	}
	kind := p.sc.kindOf()
	if _, err := p.sc.skip(); err != nil {
		return "", err
	}
	return "", malformedf("%s declares %q as %s, not a string", describe(at), key, kind)
}

// integrity decodes a node's integrity object. Only SHA256 is understood;
// another algorithm ("sha256", "MD5") is recorded as declared, without
// blocks, so the host reports it unverifiable instead of treating the entry
// as if it declared nothing (Electron ignores it, so a tampered archive
// could hide behind it). The object is decoded by encoding/json, as
// before the scanner: what it accepts (case-insensitive keys, a quoted
// blockSize) is unchanged.
func (p *asarParser) integrity(at string) (*inventory.Integrity, error) {
	raw, ok := p.sc.plainIntegrity()
	if !ok {
		lit, err := p.sc.skip()
		if err != nil {
			return nil, err
		}
		raw = rawIntegrity{}
		if err := json.Unmarshal(lit, &raw); err != nil {
			return nil, malformedf("%s declares a malformed integrity object: %v", describe(at), err).WithDetail("path", at)
		}
	}
	var err error
	if raw.Algorithm != inventory.AlgorithmSHA256 {
		return &inventory.Integrity{Algorithm: clipText(raw.Algorithm), Hash: clipText(raw.Hash)}, nil
	}
	bs, ok := parseDecimal(string(raw.BlockSize))
	if !ok || bs == 0 {
		return nil, malformedf("%s declares integrity blockSize %q, not a positive integer", describe(at), clipText(string(raw.BlockSize))).WithDetail("path", at)
	}
	in := &inventory.Integrity{Algorithm: raw.Algorithm, BlockSize: bs, Blocks: make([]string, len(raw.Blocks))}
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

// rawIntegrity is an integrity object as declared.
type rawIntegrity struct {
	Algorithm string      `json:"algorithm"`
	Hash      string      `json:"hash"`
	BlockSize json.Number `json:"blockSize"`
	Blocks    []string    `json:"blocks"`
}

// plainIntegrity reads an integrity object in the form @electron/asar
// writes — the four keys spelled as it spells them, each at most once,
// algorithm and hash strings, blockSize a number, blocks an array of
// strings — without encoding/json. Any other form (another spelling, a
// repeated key, an unknown key, null, a quoted blockSize) is left unread
// (ok false) for encoding/json, which decides what it means as before.
func (s *headerScanner) plainIntegrity() (raw rawIntegrity, ok bool) {
	start := s.pos
	fail := func() (rawIntegrity, bool) {
		s.pos = start
		return rawIntegrity{}, false
	}
	if s.peek() != '{' {
		return fail()
	}
	s.pos++
	var seen [4]bool
	for n := 0; ; n++ {
		c := s.peek()
		if c == '}' {
			s.pos++
			return raw, true
		}
		if n > 0 {
			if c != ',' {
				return fail()
			}
			s.pos++
			c = s.peek()
		}
		if c != '"' {
			return fail()
		}
		key, err := s.str()
		if err != nil || s.peek() != ':' {
			return fail()
		}
		s.pos++
		field := -1
		switch key {
		case "algorithm":
			field = 0
		case "hash":
			field = 1
		case "blockSize":
			field = 2
		case "blocks":
			field = 3
		}
		if field < 0 || seen[field] {
			return fail()
		}
		seen[field] = true
		switch field {
		case 0, 1:
			if s.peek() != '"' {
				return fail()
			}
			v, err := s.str()
			if err != nil {
				return fail()
			}
			if field == 0 {
				raw.Algorithm = v
			} else {
				raw.Hash = v
			}
		case 2:
			if c := s.peek(); c != '-' && (c < '0' || c > '9') {
				return fail()
			}
			v, err := s.number()
			if err != nil {
				return fail()
			}
			raw.BlockSize = json.Number(v)
		case 3:
			if s.peek() != '[' {
				return fail()
			}
			s.pos++
			raw.Blocks = []string{}
			for i := 0; ; i++ {
				c := s.peek()
				if c == ']' {
					s.pos++
					break
				}
				if i > 0 {
					if c != ',' {
						return fail()
					}
					s.pos++
					c = s.peek()
				}
				if c != '"' {
					return fail()
				}
				v, err := s.str()
				if err != nil {
					return fail()
				}
				raw.Blocks = append(raw.Blocks, v)
			}
		}
	}
}
