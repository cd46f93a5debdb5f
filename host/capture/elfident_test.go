package capture

import (
	"bytes"
	"debug/elf"
	"os"
	"testing"
)

func TestELFMachineReadsTheHeaderOnly(t *testing.T) {
	header := func(class, data byte, version uint32, machine uint16) []byte {
		h := make([]byte, 64)
		copy(h, "\x7fELF")
		h[4], h[5], h[6] = class, data, 1
		if data == 2 {
			h[18], h[19] = byte(machine>>8), byte(machine)
			h[20], h[21], h[22], h[23] = byte(version>>24), byte(version>>16), byte(version>>8), byte(version)
		} else {
			h[18], h[19] = byte(machine), byte(machine>>8)
			h[20], h[21], h[22], h[23] = byte(version), byte(version>>8), byte(version>>16), byte(version>>24)
		}
		return h
	}
	for _, c := range []struct {
		name string
		b    []byte
		arch string
		ok   bool
	}{
		{"x86_64", header(2, 1, 1, uint16(elf.EM_X86_64)), "x86_64", true},
		{"x86", header(1, 1, 1, uint16(elf.EM_386)), "x86", true},
		{"arm64", header(2, 1, 1, uint16(elf.EM_AARCH64)), "arm64", true},
		{"big-endian arm", header(1, 2, 1, uint16(elf.EM_ARM)), "arm", true},
		{"another machine", header(2, 1, 1, uint16(elf.EM_RISCV)), "", true},
		{"bad class", header(3, 1, 1, uint16(elf.EM_X86_64)), "", false},
		{"bad data encoding", header(2, 3, 1, uint16(elf.EM_X86_64)), "", false},
		{"bad version", header(2, 1, 2, uint16(elf.EM_X86_64)), "", false},
		{"a script", []byte("#!/bin/sh\necho hello world, this is long enough\n"), "", false},
		{"too short", []byte("\x7fELF\x02\x01\x01"), "", false},
	} {
		if arch, ok := elfMachine(bytes.NewReader(c.b)); arch != c.arch || ok != c.ok {
			t.Errorf("%s: elfMachine = %q, %v; want %q, %v", c.name, arch, ok, c.arch, c.ok)
		}
	}
}

// On a real executable it agrees with debug/elf.
func TestELFMachineAgreesWithDebugELFOnThisTestBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.Open(exe)
	if err != nil {
		t.Fatalf("the test binary is not ELF here: %v", err)
	}
	defer ef.Close()
	f, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	arch, ok := elfMachine(f)
	want := map[elf.Machine]string{elf.EM_X86_64: "x86_64", elf.EM_386: "x86", elf.EM_AARCH64: "arm64", elf.EM_ARM: "arm"}[ef.Machine]
	if !ok || arch != want {
		t.Fatalf("elfMachine = %q, %v; debug/elf says %v", arch, ok, ef.Machine)
	}
}
