// Package binary reads untrusted native executables (ELF, PE, Mach-O and
// universal Mach-O; x86, x86-64 and arm64) without running them: their
// layout and static hardening (Layout), and the native-lite inventory —
// procedures, names, strings, direct call edges, references, basic blocks
// and disassembly (Analysis).
//
// It is the pure library the native wasm module wraps, so it also builds
// and tests natively. Every entry point bounds what it reads and allocates
// (Limits), reports malformed input as *abi.Error with code
// artifact_operation_failed (limits as resource_constraint), and converts a
// panic of the standard library parsers into such an error instead of
// crashing the caller.
package executable
