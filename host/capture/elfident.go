package capture

import (
	"encoding/binary"
	"io"
)

// elfMachine reads the architecture of an ELF executable from the first 24
// bytes of its header and nothing else. The host parses no untrusted
// binary structure (that is the native module's work, in the sandbox); the
// capture manifest only needs to say which machine the executable the
// kernel was asked to run is for, and the identification bytes, e_machine
// and e_version are exactly what the kernel checks for that. ok is false for
// anything that is not a version-1 ELF header; a machine outside the four
// rea names is "".
func elfMachine(r io.ReaderAt) (arch string, ok bool) {
	var h [24]byte
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return "", false
	}
	const (
		classOffset, dataOffset, versionOffset = 4, 5, 6
		machineOffset, eVersionOffset          = 18, 20
	)
	if string(h[:4]) != "\x7fELF" || h[classOffset] != 1 && h[classOffset] != 2 || h[versionOffset] != 1 {
		return "", false
	}
	var order binary.ByteOrder
	switch h[dataOffset] {
	case 1:
		order = binary.LittleEndian
	case 2:
		order = binary.BigEndian
	default:
		return "", false
	}
	if order.Uint32(h[eVersionOffset:]) != 1 {
		return "", false
	}
	switch order.Uint16(h[machineOffset:]) {
	case 62: // EM_X86_64
		return "x86_64", true
	case 3: // EM_386
		return "x86", true
	case 183: // EM_AARCH64
		return "arm64", true
	case 40: // EM_ARM
		return "arm", true
	}
	return "", true
}
