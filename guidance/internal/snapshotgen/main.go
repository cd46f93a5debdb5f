// Command snapshotgen writes the search-index snapshot of a guidance bundle
// (see rea/guidance/index.Open). `make` and `go generate ./guidance` run it
// over the packaged bundle, which the guidance module then answers from
// without indexing it on every request.
//
//	go run ./guidance/internal/snapshotgen -bundle guidance/bundle/reverse-engineer-anything -out guidance/bundle.index
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"rea/guidance/index"
)

func main() {
	bundle := flag.String("bundle", "", "directory of the guidance bundle (SKILL.md, references/)")
	out := flag.String("out", "", "snapshot file to write")
	flag.Parse()
	if *bundle == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: snapshotgen -bundle DIR -out FILE")
		os.Exit(2)
	}
	if err := run(*bundle, *out); err != nil {
		fmt.Fprintf(os.Stderr, "snapshotgen: %v\n", err)
		os.Exit(1)
	}
}

func run(bundle, out string) error {
	ix, err := index.Build(os.DirFS(bundle))
	if err != nil {
		return fmt.Errorf("indexing %s: %w", bundle, err)
	}
	b, err := ix.MarshalBinary()
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, b) {
		return nil // unchanged: keep the file's time so make sees nothing new
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
