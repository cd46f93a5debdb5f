package fuel_test

import (
	"bytes"
	"testing"
)

// A tiny assembler for hand-written modules. It is deliberately independent
// of the package under test so expectations never come from the code being
// tested.

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func leb(v uint64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func vec(items ...[]byte) []byte { return cat(leb(uint64(len(items))), cat(items...)) }

func str(s string) []byte { return cat(leb(uint64(len(s))), []byte(s)) }

func sec(id byte, content ...[]byte) []byte {
	c := cat(content...)
	return cat([]byte{id}, leb(uint64(len(c))), c)
}

func wasmModule(sections ...[]byte) []byte {
	return cat([]byte("\x00asm\x01\x00\x00\x00"), cat(sections...))
}

// fn is one code-section entry: locals (already encoded) and instructions;
// the final end is added here.
func fn(locals []byte, code ...[]byte) []byte {
	b := cat(locals, cat(code...), []byte{0x0b})
	return cat(leb(uint64(len(b))), b)
}

// noLocals is an empty locals vector.
func noLocals() []byte { return []byte{0x00} }

// voidType is (func) as a type-section entry.
func voidType() []byte { return []byte{0x60, 0x00, 0x00} }

// checkFor is the fuel check the instrumenter is documented to insert, for
// a fuel global index below 128 and a 32-bit memory.
func checkFor(g byte) []byte { return checkForLEB([]byte{g}) }

// checkForLEB is checkFor for an index already encoded as LEB128.
func checkForLEB(g []byte) []byte {
	return cat(
		[]byte{0x23}, g, []byte{0x42, 0x01, 0x7d, 0x24}, g, // decrement
		[]byte{0x23}, g, []byte{0x42, 0xff, 0xff, 0x03, 0x83, 0x42, 0xff, 0xff, 0x03, 0x51, 0x04, 0x40}, // low 16 bits were zero?
		[]byte{0x23}, g, []byte{0x42, 0x7f, 0x51, 0x04, 0x40, 0x42, 0x00, 0x24}, g, []byte{0x00, 0x0b}, // was zero: reset, trap
		[]byte{0x41, 0x00, 0x40, 0x00, 0x1a, 0x0b}, // else memory.grow 0: yield
	)
}

// rawSection is a section located by the test's own walker.
type rawSection struct {
	id         byte
	start, end int // whole section, id byte included
	content    []byte
}

func sectionsOf(t testing.TB, bin []byte) []rawSection {
	t.Helper()
	var out []rawSection
	pos := 8
	for pos < len(bin) {
		start := pos
		id := bin[pos]
		pos++
		var size, shift uint64
		for {
			c := bin[pos]
			pos++
			size |= uint64(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				break
			}
		}
		end := pos + int(size)
		if end > len(bin) {
			t.Fatalf("section %d at %d runs past the end", id, start)
		}
		out = append(out, rawSection{id: id, start: start, end: end, content: bin[pos:end]})
		pos = end
	}
	return out
}

func findSection(t testing.TB, bin []byte, id byte) rawSection {
	t.Helper()
	for _, s := range sectionsOf(t, bin) {
		if s.id == id {
			return s
		}
	}
	t.Fatalf("no section %d", id)
	return rawSection{}
}

// firstBody returns the instructions (locals included, size prefix removed)
// of the first body in a code section.
func firstBody(t testing.TB, code rawSection) []byte {
	t.Helper()
	c := code.content
	if c[0] == 0 {
		t.Fatal("code section is empty")
	}
	pos := 1
	var size, shift uint64
	for {
		b := c[pos]
		pos++
		size |= uint64(b&0x7f) << shift
		shift += 7
		if b&0x80 == 0 {
			break
		}
	}
	return c[pos : pos+int(size)]
}
