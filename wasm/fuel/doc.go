// Package fuel meters WebAssembly modules so the host can bound and cancel
// the work a guest does.
//
// wazero has no fuel metering, and its WithCloseOnContextDone costs 2.5–13x
// on Go guests because it leaves compiled code at every loop back-edge. So
// rea rewrites each module once, at build time (or at load time when a user
// supplies an unmetered module): Instrument appends one mutable i64 global,
// exports it as GlobalName ("rea_fuel"), and inserts a short check at the
// entry of every function and at the header of every loop. Each check
// decrements the counter; the check that finds it already at zero traps
// with unreachable and leaves it at zero.
//
// Why function entries and loop headers. Straight-line code between two
// checks is bounded by the size of the module, so a guest can only run for
// long by looping or by calling (recursion included). Checking at every loop
// header catches every backward branch, because in WebAssembly a branch can
// only go backward to a loop's label; checking at every function entry
// catches every call chain. Together they bound the work between two checks
// by a constant, which is what makes fuel a faithful measure and
// exhaustion a guarantee. A function whose body reaches a loop through
// straight-line code only (Go's wasm backend opens every function that way)
// lets that loop's check stand in for the entry check, halving the cost
// per call without weakening the bound.
//
// Why Go's forward jumps skip the loop. Go's wasm backend compiles every
// jump between basic blocks as "set PC_B; branch back to the function's
// dispatch loop", whose br_table then picks the block, so a check at every
// loop header would be paid by every if/else and switch case, not only by
// repetition: on the jsapp module 64 % of all checks were forward jumps.
// Instrument recognises that loop exactly (loop, empty blocks, local.get,
// br_table, nothing else) and retargets each jump that sets PC_B to a
// constant whose block still encloses the jump to branch to that block
// directly: the same instruction runs next, with the same PC_B, minus the
// check and the dispatch. Backward jumps still go through the loop and its
// check, so the bound above holds. On the jsapp module this cut fuel 2.8x
// and wall time 16 % (dispatch.go).
//
// Why the counter starts at math.MaxInt64. An instrumented module stays a
// normal module: run standalone (wazero's CLI, a test) it will not run out
// of fuel in any practical time. The host always overwrites the counter
// with its budget before calling _start, so the initial value never leaks
// into a measurement. Fuel used is budget minus what is left, and it is
// identical run to run as long as the guest sees the same input, the same
// fake clocks and the same random source, which is wazero's default.
//
// How cancellation works. The host instantiates the module without a start
// function, sets the global to the budget (api.MutableGlobal.Set), calls
// _start, and reads the global afterwards. To stop a running guest (deadline,
// MCP cancellation, output overflow) it calls Exhaust from another
// goroutine, which stores 0 and repeats the store every millisecond until
// the call returns; the guest traps at its next check. The repetition is
// needed because the check is a plain read-modify-write: a store that lands
// between the guest's load and store is overwritten by the guest's
// decremented value. The window is three instructions, so in practice the
// first store lands: on a loaded 2-core machine, with the host forcing a
// garbage collection every 3 ms, guests stopped within 15 ms of the first
// store and usually within 1 ms.
//
// What it costs. Each check is one load, a subtract, a store, an and, a
// compare and a branch that is not taken; with the checks alone, the cost
// on Go guests under wazero's compiler was a few percent (sha256 over 16 MiB
// +2 %, a sieve plus recursive Fibonacci +4 %). Threading Go's forward jumps
// (below) changes the shape of the code wazero compiles, and wazero's
// register allocator answers differently: the jsapp module runs 16 % faster
// metered than it did before, binary_overview 20 % faster, but the sieve's
// inner loop gained four stack reloads per iteration (read in the machine
// code), so BenchmarkMeteredVsUnmetered now shows sha256 +5–10 %, the sieve
// alone +24–26 % and sieve plus Fibonacci +21–41 % over runs of 8 on a
// 2-core machine. Putting the checks at backward jumps instead of the loop
// header, without threading, brought the sieve back to +0 % but made jsapp
// 29 % slower than threading, so threading stays. Code grows by 40 bytes per
// function and loop, about 1.6 % on a 14 MB esbuild+goja module.
//
// Why the check also yields. Go cannot preempt a goroutine while it runs
// code wazero compiled. A guest that loops without calling the host would
// therefore hold up every stop-the-world in the host process — the start and
// end of every garbage collection — and with it every other goroutine,
// including the one that wants to cancel the guest: the host would freeze
// until the guest's fuel ran out. Once every 65,536 checks the check runs
// memory.grow by 0 pages, which changes nothing in the guest but is an exit
// from compiled code into Go, where the goroutine can be preempted. This
// bounds the time between preemption points to well under a millisecond of
// guest work. A module with no memory gets an empty one (0 pages, maximum 0)
// for this purpose. The decrement is stored before the yield, so a guest
// descheduled at the yield never writes a stale value over the host's 0.
//
// What is refused. Instrument decodes every instruction of every function
// body, so it must know each opcode's immediates. It covers everything Go's
// wasm backend emits and more: the MVP, sign extension, saturating
// float-to-int, bulk memory and table instructions, reference types,
// multi-value block types, fixed-width SIMD, threads (atomics) and tail
// calls. Exception handling, typed function references, GC, relaxed SIMD,
// unknown opcodes and malformed bodies are refused with an *Error that names
// the function index, the byte offset and the opcode. A module that already
// exports GlobalName is refused with ErrAlreadyMetered; Metered tells the
// two cases apart without decoding code.
//
// What is preserved. Every section other than global, export and code (and
// memory, added only when the module has none) is copied byte for byte in
// its original position (custom sections such as
// name included; function, type and global indices do not change because
// the new global is appended last). The output depends only on the input.
// Debug information that refers to code offsets (DWARF custom sections) is
// copied unchanged and therefore goes stale; Go's wasm backend emits none.
package fuel
