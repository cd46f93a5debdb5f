// Package nativewire is the native module's request and result vocabulary:
// addresses, the layout of an opened executable, the native-lite inventory
// rows (procedures, strings, names, references, instructions, blocks), the
// operations and their parameters, and each operation's result. The host
// builds requests and reads results through it; the parsers that produce
// them (package executable, with the disassemblers) link only into the
// native module.
package nativewire

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Addr is a virtual address. It travels as a "0x…" hex string because
// Evidence canonicalisation cannot carry integers beyond 2^53 exactly.
type Addr uint64

// String is the canonical lowercase hex text of the address.
func (a Addr) String() string { return "0x" + strconv.FormatUint(uint64(a), 16) }

// MarshalJSON writes the hex text.
func (a Addr) MarshalJSON() ([]byte, error) { return []byte(`"` + a.String() + `"`), nil }

// UnmarshalJSON accepts the hex text, a decimal string or a JSON number.
func (a *Addr) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("address must be a string such as \"0x401000\" or a number")
		}
		s = n.String()
	}
	v, err := ParseAddr(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// ParseAddr reads "0x401000", "401000h" is not accepted; decimal is.
func ParseAddr(s string) (Addr, error) {
	s = strings.TrimSpace(s)
	var v uint64
	var err error
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		v, err = strconv.ParseUint(rest, 16, 64)
	} else {
		v, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not an address; write it as hex (0x401000) or decimal", s)
	}
	return Addr(v), nil
}

// Formats of a binary, in the Evidence subject vocabulary.
const (
	FormatELF            = "elf"
	FormatPE             = "pe"
	FormatMachO          = "mach-o"
	FormatMachOUniversal = "mach-o-universal"
)

// Section is one section (ELF/PE section, Mach-O segment,section).
type Section struct {
	Name        string `json:"name"`
	Address     Addr   `json:"address"`
	Size        uint64 `json:"size"`
	FileOffset  int64  `json:"file_offset"`
	FileSize    int64  `json:"file_size"`
	Permissions string `json:"permissions"`
	// Kind is the format's own type (PROGBITS, NOBITS, code, …).
	Kind string `json:"kind"`
	// Loaded says the section occupies memory at run time.
	Loaded bool `json:"loaded"`
	// Code says the section holds instructions (what native-lite
	// disassembles); strings are looked for in the others.
	Code bool `json:"code"`
}

// End is the exclusive end address.
func (s Section) End() Addr { return s.Address + Addr(s.Size) }

// Segment is one loadable region (ELF program header, Mach-O segment; PE
// sections double as segments).
type Segment struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Address     Addr   `json:"address"`
	MemorySize  uint64 `json:"memory_size"`
	FileOffset  int64  `json:"file_offset"`
	FileSize    int64  `json:"file_size"`
	Permissions string `json:"permissions"`
}

// Symbol is one entry of a symbol table.
type Symbol struct {
	Name    string `json:"name"`
	Address Addr   `json:"address"`
	Size    uint64 `json:"size"`
	// Kind: function, object, section, file, tls, import, other.
	Kind string `json:"kind"`
	// Binding: local, global, weak, other.
	Binding string `json:"binding"`
	// Table: symtab, dynsym, coff, macho-symtab, export, import.
	Table   string `json:"table"`
	Defined bool   `json:"defined"`
}

// Import is a symbol the binary expects from elsewhere.
type Import struct {
	Name    string `json:"name"`
	Library string `json:"library,omitempty"`
	// Slot is the GOT/IAT/lazy-pointer address the loader fills, when known.
	Slot *Addr `json:"slot,omitempty"`
}

// Export is a symbol the binary offers to others.
type Export struct {
	Name    string `json:"name"`
	Address Addr   `json:"address"`
}

// Relocations summarises relocation records.
type Relocations struct {
	Count  int            `json:"count"`
	ByType map[string]int `json:"by_type"`
}

// Mitigation statuses: observed (a structural marker proves it), inferred
// (indirect sign such as an imported helper), absent (looked for, not in
// effect), unknown (nothing to decide from, e.g. a stripped static binary).
const (
	StatusObserved = "observed"
	StatusInferred = "inferred"
	StatusAbsent   = "absent"
	StatusUnknown  = "unknown"
)

// Mitigation is one static hardening property with the basis of its status.
type Mitigation struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	// Value refines the status where the property has degrees (RELRO
	// partial/full, PIE dynamic-executable/shared-object).
	Value string `json:"value,omitempty"`
	Basis string `json:"basis"`
}
