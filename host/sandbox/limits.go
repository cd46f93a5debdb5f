package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"rea/abi"
)

// Limits bound one module run. Zero fields take the defaults below.
type Limits struct {
	// MemoryBytes caps the module's linear memory (rounded down to 64 KiB
	// pages). The Go runtime inside needs the module's declared minimum plus
	// at least 4 MiB of headroom.
	MemoryBytes uint64 `json:"memory_bytes"`
	// Fuel is the number of loop iterations and function calls the module
	// may execute (see package wasm/fuel).
	Fuel uint64 `json:"fuel"`
	// Deadline is the wall-clock budget of one run.
	Deadline time.Duration `json:"deadline_ns"`
	// OutputBytes caps what the module may write to stdout.
	OutputBytes int64 `json:"output_bytes"`
}

// Defaults for a run; chosen so that the 17 MB framework target of DESIGN.md
// fits while a runaway module is stopped well before it hurts the machine.
const (
	DefaultMemoryBytes uint64        = 1 << 30
	DefaultFuel        uint64        = 200_000_000_000
	DefaultDeadline    time.Duration = 5 * time.Minute
	DefaultOutputBytes int64         = 256 << 20
	wasmPageSize                     = 65536
	maxMemoryBytes     uint64        = 4 << 30 // wasm32 address space
)

// WithDefaults returns l with zero fields replaced by the defaults.
func (l Limits) WithDefaults() Limits {
	if l.MemoryBytes == 0 {
		l.MemoryBytes = DefaultMemoryBytes
	}
	if l.Fuel == 0 {
		l.Fuel = DefaultFuel
	}
	if l.Deadline == 0 {
		l.Deadline = DefaultDeadline
	}
	if l.OutputBytes == 0 {
		l.OutputBytes = DefaultOutputBytes
	}
	return l
}

// pages converts the memory limit to wasm pages.
func (l Limits) pages() uint32 {
	b := l.MemoryBytes
	if b > maxMemoryBytes {
		b = maxMemoryBytes
	}
	return uint32(b / wasmPageSize)
}

// ParseBytes parses a size such as "512MiB", "1GiB", "64MB", "1048576".
// Binary (KiB, MiB, GiB) and decimal (KB, MB, GB) suffixes are accepted.
func ParseBytes(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   uint64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
	}
	mult := uint64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			mult = u.mult
			t = strings.TrimSpace(strings.TrimSuffix(t, u.suffix))
			break
		}
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || t == "" {
		return 0, fmt.Errorf("%q is not a size; write a whole number with an optional unit, e.g. 512MiB, 2GiB or 1048576", s)
	}
	if n > 0 && mult > ^uint64(0)/n {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// FormatBytes renders n with the largest binary unit that divides it.
func FormatBytes(n uint64) string {
	for _, u := range []struct {
		name string
		div  uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.div && n%u.div == 0 {
			return fmt.Sprintf("%d%s", n/u.div, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// resourceError is the resource_constraint error for a limit that was hit.
func resourceError(resource string, limit any, msg string) *abi.Error {
	return abi.Errorf(abi.CodeResourceConstraint, "%s", msg).
		WithDetail("resource", resource).
		WithDetail("limit", limit)
}
