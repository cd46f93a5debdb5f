//go:build !(linux || darwin || freebsd)

package sandbox

import "context"

// withLinearMemory keeps wazero's default allocator where rea has no
// mapping-based one.
func withLinearMemory(ctx context.Context) context.Context { return ctx }
