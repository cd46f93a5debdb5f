// Command reawasm turns a module freshly built by `GOOS=wasip1 go build`
// into the artifact rea embeds (see module.Prepare): data segments coalesced,
// fuel-metered and stamped with the ABI version it speaks. The Makefile runs it for every module.
//
//	reawasm -in build/raw/artifact.wasm -out wasm/embedded/modules/artifact.wasm
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"rea/abi"
	"rea/wasm/module"
)

func main() {
	in := flag.String("in", "", "unmetered module built by go build")
	out := flag.String("out", "", "where to write the metered, stamped module")
	noMeter := flag.Bool("no-meter", false, "stamp only, leave the module unmetered (benchmarks compare the two)")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: reawasm -in RAW.wasm -out NAME.wasm [-no-meter]")
		os.Exit(2)
	}
	if err := run(*in, *out, !*noMeter); err != nil {
		fmt.Fprintf(os.Stderr, "reawasm: %s: %v\n", *in, err)
		os.Exit(1)
	}
}

func run(in, out string, meter bool) error {
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	p, err := module.Prepare(raw, abi.Version, meter)
	if err != nil {
		return err
	}
	b := p.Bytes
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	// The identity stamp beside the module lets rea identify an embedded
	// module without reading it (module.IdentitySuffix). It is removed
	// before the module is replaced and written after, so a stamp never
	// describes other bytes than its module's.
	id, err := module.IdentifyBytes(b)
	if err != nil {
		return err
	}
	stamp, err := json.Marshal(id)
	if err != nil {
		return err
	}
	if err := os.Remove(out + module.IdentitySuffix); err != nil && !os.IsNotExist(err) {
		return err
	}
	// Write then rename so a half-written module is never embedded.
	for _, f := range []struct {
		path string
		data []byte
	}{{out, b}, {out + module.IdentitySuffix, append(stamp, '\n')}} {
		tmp := f.path + ".tmp"
		if err := os.WriteFile(tmp, f.data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, f.path); err != nil {
			return err
		}
	}
	fmt.Printf("%s %x %d bytes, data segments %d -> %d\n", filepath.Base(out), sha256.Sum256(b), len(b), p.Segments.Before, p.Segments.After)
	return nil
}
