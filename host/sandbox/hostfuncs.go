package sandbox

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"rea/wasm/fuel"
)

// HostModule is the import module of the functions rea offers its guests
// besides WASI: "sha256", and "normalise"/"normalise_result"/"normalise_ahead" (see
// normaliser.go). Hashing is the one job the design
// keeps in the host (DESIGN: native hashing in the host, parsing inside):
// it reads no structure from the bytes, so it cannot be misled by them, and
// the host's sha256 runs with the CPU's SHA instructions while Go's generic
// sha256 in wasm was a fifth of the jsapp module's time on a webpack bundle.
const HostModule = "rea"

// InstantiateHostModule adds the "rea" host module to rt. Every runtime
// that runs rea's modules needs it (the Runner's, and tests that run a
// module on a runtime of their own).
func InstantiateHostModule(ctx context.Context, rt wazero.Runtime) error {
	_, err := rt.NewHostModuleBuilder(HostModule).
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostSHA256), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		WithParameterNames("data", "len", "out").
		Export("sha256").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostNormalise), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		WithParameterNames("req", "len").
		Export("normalise").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostNormaliseResult), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		WithParameterNames("out", "len").
		Export("normalise_result").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostNormaliseAhead), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		WithParameterNames("req", "len").
		Export("normalise_ahead").
		Instantiate(ctx)
	if err != nil {
		return fmt.Errorf("sandbox: instantiate the %q host module: %w", HostModule, err)
	}
	return nil
}

// hostSHA256 is sha256(data, len, out) -> status: it writes the sha256 of
// len bytes at data to the 32 bytes at out and returns 0, or returns 1 and
// writes nothing when either range lies outside the guest's memory.
//
// It charges the guest one unit of fuel per 64-byte block hashed, plus one
// for the call, so fuel still measures the work a request caused and stays
// identical run to run. Charging can use up the last of the fuel: the
// counter is left at 0 and the guest's next check traps, as it would have
// had the guest hashed the bytes itself.
func hostSHA256(_ context.Context, m api.Module, stack []uint64) {
	data, n, out := api.DecodeU32(stack[0]), api.DecodeU32(stack[1]), api.DecodeU32(stack[2])
	mem := m.Memory()
	stack[0] = 1
	if mem == nil {
		return
	}
	b, ok := mem.Read(data, n)
	if !ok {
		return
	}
	if _, ok := mem.Read(out, sha256.Size); !ok {
		return
	}
	sum := sha256.Sum256(b)
	mem.Write(out, sum[:])
	stack[0] = 0
	if g, ok := m.ExportedGlobal(fuel.GlobalName).(api.MutableGlobal); ok {
		cost := uint64(n)/64 + 1
		if left := g.Get(); left > cost {
			g.Set(left - cost)
		} else {
			g.Set(0)
		}
	}
}
