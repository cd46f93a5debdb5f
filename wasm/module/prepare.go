package module

import (
	"fmt"

	"rea/wasm/fuel"
	"rea/wasm/segments"
)

// Prepared is what Prepare made of a freshly built module.
type Prepared struct {
	Bytes []byte
	// Segments says how the data section was coalesced.
	Segments segments.Stats
}

// Prepare turns a module freshly built by `GOOS=wasip1 go build` into the
// artifact rea runs: data segments coalesced (cheaper instantiation, see
// wasm/segments), fuel-metered unless meter is false (wasm/fuel), and
// stamped with the ABI version it speaks. `make modules` and the test
// helpers both call it, so tests run what users run.
func Prepare(raw []byte, abiVersion int, meter bool) (Prepared, error) {
	b, st, err := segments.Coalesce(raw)
	if err != nil {
		return Prepared{}, fmt.Errorf("coalescing data segments: %w", err)
	}
	if meter {
		if b, err = fuel.Instrument(b); err != nil {
			return Prepared{}, fmt.Errorf("metering: %w", err)
		}
	}
	if b, err = StampABI(b, abiVersion); err != nil {
		return Prepared{}, fmt.Errorf("stamping the ABI version: %w", err)
	}
	return Prepared{Bytes: b, Segments: st}, nil
}
