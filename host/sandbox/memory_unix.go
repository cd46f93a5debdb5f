//go:build linux || darwin || freebsd

package sandbox

import (
	"context"
	"sync"
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
//
// The returned linearMemory names the mapping of the one instance
// instantiated under ctx, so a standby can prefault it.
func withLinearMemory(ctx context.Context) (context.Context, *linearMemory) {
	lm := &linearMemory{}
	alloc := func(_, max uint64) experimental.LinearMemory {
		if max == 0 {
			max = wasmPageSize
		}
		m := &mappedMemory{}
		if b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve); err == nil {
			m.buf = b
			adviseHugePages(b)
		}
		lm.mu.Lock()
		lm.m = m
		lm.mu.Unlock()
		return m
	}
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(alloc)), lm
}

// linearMemory is the mapping behind one instance's linear memory.
type linearMemory struct {
	mu sync.Mutex
	m  *mappedMemory
}

// prefault makes the first n bytes of the mapping resident and writable
// without changing them (MADV_POPULATE_WRITE, Linux 5.14+; elsewhere it does
// nothing). A standby does this while it waits: first touches of fresh pages
// cost about a microsecond each here, which made page faults a large part of
// a small request's time in the guest.
func (lm *linearMemory) prefault(n uint64) {
	if lm == nil {
		return
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.m == nil || lm.m.buf == nil {
		return
	}
	populateWrite(lm.m.buf[:min(n, uint64(len(lm.m.buf)))])
}

type mappedMemory struct {
	buf []byte
}

// Reallocate returns the first size bytes of the mapping; growth past the
// mapping fails, which the guest sees as memory.grow returning -1.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:len(m.buf)]
}

// Free unmaps the memory. wazero calls it when the instance closes, which
// for a guest that exits is inside its proc_exit call: the unmap (about
// 30 µs per MiB touched) happens on another goroutine so the response is
// not held up by it. Nothing uses the memory after Free.
func (m *mappedMemory) Free() {
	if m.buf != nil {
		go syscall.Munmap(m.buf)
		m.buf = nil
	}
}
