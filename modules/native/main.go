// Command native is the native-binary wasm module: layout, hardening and
// the native-lite inventory of an ELF, PE or Mach-O file mounted read-only
// at /in. Every operation answers one page; see package query.
package main

import (
	"encoding/json"
	"os"
	"path"

	"rea/modules/abi"
	"rea/modules/native/query"
)

func main() { abi.Serve(handlers()) }

func handlers() map[string]abi.Handler {
	h := map[string]abi.Handler{}
	for _, op := range query.Operations() {
		h[op] = func(params json.RawMessage, progress *abi.Reporter) (any, error) {
			var p query.Params
			if err := abi.DecodeParams(params, &p); err != nil {
				return nil, err
			}
			mount := p.Mount
			if mount == "" {
				mount = "/in"
			}
			if !path.IsAbs(mount) || path.Clean(mount) != mount {
				return nil, abi.Errorf(abi.CodeInvalidRequest, "mount %q must be a clean absolute guest path such as /in", mount).WithDetail("field", "mount")
			}
			return query.Run(op, p, os.DirFS(mount), progress)
		}
	}
	return h
}
