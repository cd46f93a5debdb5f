//go:build wasip1

package jsengine

import (
	"unsafe"

	"rea/jsengine/normalise"
)

// In the jsapp module esbuild is not linked: the host runs the transform in
// the normaliser module (started for this request on its first use) and
// hands back the result, so applications without TypeScript, JSX or ESM
// never load it and every jsapp instance starts without esbuild's code.

//go:wasmimport rea normalise
func hostNormalise(req unsafe.Pointer, n uint32) int32

//go:wasmimport rea normalise_result
func hostNormaliseResult(out unsafe.Pointer, n uint32) int32

//go:wasmimport rea normalise_ahead
func hostNormaliseAhead(req unsafe.Pointer, n uint32) int32

// transformAhead announces a transform this instance will ask for, so the
// host's normaliser runs it on another core while this one parses and
// analyses; false when the host refused it (it is then run when asked).
func transformAhead(req normalise.Request) bool {
	in := normalise.EncodeRequest(req)
	return hostNormaliseAhead(unsafe.Pointer(unsafe.SliceData(in)), uint32(len(in))) == 0
}

// transform asks the host. When the normaliser fails (its limits, a crash)
// the host fails the whole request with that error; the message here only
// keeps this file from looking parsed until then.
func transform(req normalise.Request) normalise.Result {
	in := normalise.EncodeRequest(req)
	n := hostNormalise(unsafe.Pointer(unsafe.SliceData(in)), uint32(len(in)))
	if n < 0 {
		return normalise.Result{Errors: []normalise.Message{{Text: "the normaliser module is unavailable"}}}
	}
	out := make([]byte, n)
	if n > 0 && hostNormaliseResult(unsafe.Pointer(unsafe.SliceData(out)), uint32(n)) != 0 {
		return normalise.Result{Errors: []normalise.Message{{Text: "the normaliser module's result was lost"}}}
	}
	res, err := normalise.DecodeResult(out)
	if err != nil {
		return normalise.Result{Errors: []normalise.Message{{Text: "the normaliser module answered unreadably"}}}
	}
	return res
}
