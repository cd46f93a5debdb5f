//go:build linux || darwin || freebsd

package sandbox

import (
	"context"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// withLinearMemory backs every guest's linear memory with its own anonymous
// mapping of the maximum size. Nothing is touched up front (pages are zero
// on demand and untouched pages cost no RSS), the address never moves as the
// guest grows, and Free unmaps it so the host's RSS falls back as soon as a
// run ends. Go-heap memory, wazero's default, had to be zeroed on reuse
// (hundreds of ms per run at a 1 GiB limit) and lingered until the scavenger
// returned it.
func withLinearMemory(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(newMappedMemory))
}

type mappedMemory struct {
	buf []byte
}

func newMappedMemory(_, max uint64) experimental.LinearMemory {
	if max == 0 {
		max = wasmPageSize
	}
	b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve)
	if err != nil {
		return &mappedMemory{}
	}
	return &mappedMemory{buf: b}
}

// Reallocate returns the first size bytes of the mapping; growth past the
// mapping fails, which the guest sees as memory.grow returning -1.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:len(m.buf)]
}

func (m *mappedMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}
