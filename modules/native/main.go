// Command native is the native-binary wasm module: layout, hardening and
// the native-lite inventory of an ELF, PE or Mach-O file mounted read-only
// at /in. Every operation answers one page; see package query.
package main

import (
	"encoding/json"
	"os"
	"path"
	"runtime/debug"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/analysis/native/query"
)

func main() {
	// One request per instance and a heap that mostly grows: collecting
	// less often cut a 99 MB binary's overview from 41 s to 14 s of CPU in
	// wasm, where the collector runs on the only thread. The handler then
	// sets a soft limit below the sandbox's hard one.
	debug.SetGCPercent(400)
	abi.Serve(handlers())
}

// DefaultSoftMemoryLimit applies when the host does not say how much
// memory the sandbox grants.
const DefaultSoftMemoryLimit = 640 << 20

func handlers() map[string]abi.Handler {
	h := map[string]abi.Handler{}
	for _, op := range query.Operations() {
		h[op] = func(params json.RawMessage, progress *abi.Reporter) (any, error) {
			var p query.Params
			if err := abi.DecodeParams(params, &p); err != nil {
				return nil, err
			}
			soft := int64(DefaultSoftMemoryLimit)
			if p.MemoryLimitBytes > 0 {
				soft = int64(p.MemoryLimitBytes / 4 * 3) // collect hard before the hard limit traps
			}
			debug.SetMemoryLimit(soft)
			mount := p.Mount
			if mount == "" {
				mount = "/in"
			}
			if !path.IsAbs(mount) || path.Clean(mount) != mount {
				return nil, abi.Errorf(abi.CodeInvalidRequest, "mount %q must be a clean absolute guest path such as /in", mount).WithDetail("field", "mount")
			}
			if op == nativewire.OpDiff {
				return query.RunDiff(p, os.DirFS(mount), os.DirFS(nativewire.OtherMount), progress)
			}
			return query.Run(op, p, os.DirFS(mount), progress)
		}
	}
	return h
}
