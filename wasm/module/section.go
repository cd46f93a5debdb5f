package module

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
)

// ABISection is the custom section that stamps a module with the ABI version
// it was built against. `make modules` writes it (see wasm/cmd/reawasm); the
// host reads it to refuse a module built for another envelope.
const ABISection = "rea.abi"

const wasmHeader = "\x00asm\x01\x00\x00\x00"

// customSections walks the top-level sections of a wasm binary and returns
// the payload of every custom section by name. It does not decode anything
// else: identity must stay cheap for `rea modules list`.
func customSections(wasm []byte) (map[string][]byte, error) {
	if !bytes.HasPrefix(wasm, []byte(wasmHeader)) {
		return nil, errors.New("not a WebAssembly binary (bad magic or version)")
	}
	out := map[string][]byte{}
	p := wasm[len(wasmHeader):]
	for len(p) > 0 {
		id := p[0]
		size, n := binary.Uvarint(p[1:])
		if n <= 0 || size > uint64(len(p)-1-n) {
			return nil, fmt.Errorf("section %d: truncated or oversized length", id)
		}
		body := p[1+n : 1+n+int(size)]
		p = p[1+n+int(size):]
		if id != 0 {
			continue
		}
		nameLen, m := binary.Uvarint(body)
		if m <= 0 || nameLen > uint64(len(body)-m) {
			return nil, errors.New("custom section: bad name length")
		}
		name := string(body[m : m+int(nameLen)])
		out[name] = body[m+int(nameLen):]
	}
	return out, nil
}

// StampABI appends the rea.abi custom section carrying version to wasm.
// Custom sections may appear anywhere, so appending keeps the module valid.
func StampABI(wasm []byte, version int) ([]byte, error) {
	secs, err := customSections(wasm)
	if err != nil {
		return nil, err
	}
	if _, ok := secs[ABISection]; ok {
		return nil, errors.New("module is already stamped with an ABI version")
	}
	payload := []byte(strconv.Itoa(version))
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(ABISection)))
	body = append(body, ABISection...)
	body = append(body, payload...)
	out := append([]byte(nil), wasm...)
	out = append(out, 0)
	out = binary.AppendUvarint(out, uint64(len(body)))
	return append(out, body...), nil
}

// abiVersion reads the stamp; 0 means the module carries none.
func abiVersion(secs map[string][]byte) int {
	v, err := strconv.Atoi(string(secs[ABISection]))
	if err != nil {
		return 0
	}
	return v
}
