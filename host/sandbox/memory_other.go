//go:build !(linux || darwin || freebsd)

package sandbox

import "context"

// withLinearMemory keeps wazero's default allocator where rea has no
// mapping-based one.
func withLinearMemory(ctx context.Context) (context.Context, *linearMemory) { return ctx, nil }

// linearMemory is empty where there is no mapping to prefault.
type linearMemory struct{}

func (*linearMemory) prefault(uint64) {}

// releaseExecutableData does nothing here (memory_linux.go).
func releaseExecutableData([]byte) {}
