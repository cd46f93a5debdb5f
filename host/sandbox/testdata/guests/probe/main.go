// Command probe is an adversarial guest used by the sandbox tests: each
// operation misbehaves in one way a hostile or buggy module could.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"rea/abi"
)

type readParams struct {
	Path string `json:"path"`
}

type countParams struct {
	N int `json:"n"`
}

func main() {
	abi.Serve(map[string]abi.Handler{
		"echo": func(p json.RawMessage, _ *abi.Reporter) (any, error) { return p, nil },
		"env": func(json.RawMessage, *abi.Reporter) (any, error) {
			return map[string]any{"args": os.Args, "environ": os.Environ(), "unix_time": time.Now().Unix()}, nil
		},
		"read": func(p json.RawMessage, _ *abi.Reporter) (any, error) {
			var r readParams
			if err := abi.DecodeParams(p, &r); err != nil {
				return nil, err
			}
			b, err := os.ReadFile(r.Path)
			if err != nil {
				return nil, abi.Errorf(abi.CodeUnavailable, "%v", err)
			}
			return map[string]any{"bytes": len(b), "text": string(b)}, nil
		},
		"spin": func(json.RawMessage, *abi.Reporter) (any, error) {
			x := 0
			for {
				x++
			}
		},
		"alloc": func(json.RawMessage, *abi.Reporter) (any, error) {
			var keep [][]byte
			for {
				b := make([]byte, 1<<20)
				for i := range b {
					b[i] = byte(i)
				}
				keep = append(keep, b)
			}
		},
		"recurse": func(json.RawMessage, *abi.Reporter) (any, error) { return recurse(0), nil },
		"panic": func(json.RawMessage, *abi.Reporter) (any, error) {
			panic("probe: deliberate panic for the sandbox test")
		},
		// fill-then-panic grows the heap by mib MiB, then aborts: how the Go
		// runtime dies under memory pressure without saying "out of
		// memory" (it has thrown scheduler faults there).
		"fill-then-panic": func(p json.RawMessage, _ *abi.Reporter) (any, error) {
			var c struct {
				MiB int `json:"mib"`
			}
			if err := json.Unmarshal(p, &c); err != nil {
				return nil, err
			}
			keep := make([][]byte, 0, c.MiB)
			for i := 0; i < c.MiB; i++ {
				b := make([]byte, 1<<20)
				for j := range b {
					b[j] = byte(j)
				}
				keep = append(keep, b)
			}
			panic(fmt.Sprintf("probe: abort with %d MiB held", len(keep)))
		},
		"flood": func(json.RawMessage, *abi.Reporter) (any, error) {
			chunk := make([]byte, 1<<20)
			for i := 0; i < 1024; i++ { // 1 GiB
				if _, err := os.Stdout.Write(chunk); err != nil {
					return nil, err
				}
			}
			return nil, nil
		},
		"progress": func(p json.RawMessage, rep *abi.Reporter) (any, error) {
			var c countParams
			if err := abi.DecodeParams(p, &c); err != nil {
				return nil, err
			}
			for i := 1; i <= c.N; i++ {
				rep.Report(abi.Progress{Phase: "count", Done: int64(i), Total: int64(c.N)})
				burn(20_000_000)
			}
			return map[string]int{"n": c.N}, nil
		},
		"host-sha256": hostHash,
		"hash": func(p json.RawMessage, _ *abi.Reporter) (any, error) {
			var c countParams
			if err := abi.DecodeParams(p, &c); err != nil {
				return nil, err
			}
			buf := make([]byte, 1<<20)
			sum := sha256.Sum256(nil)
			for i := 0; i < c.N; i++ {
				copy(buf, sum[:])
				sum = sha256.Sum256(buf)
			}
			return hex.EncodeToString(sum[:]), nil
		},
	})
}

//go:noinline
func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return recurse(n+1) + int(pad[0])
}

//go:noinline
func burn(n int) int {
	x := 0
	for i := 0; i < n; i++ {
		x += i ^ x
	}
	return x
}
