// Command crosscheck type-checks rea's command for other platforms
// (GOOS/GOARCH pairs given as arguments, e.g. darwin/arm64 windows/amd64)
// from source, with the build tags each platform selects.
//
// `make test` runs it instead of cross-compiling: the platform-specific
// files (process control, terminals, capture) fail to type-check exactly
// where they would fail to compile, and type-checking 400 packages costs
// about 8 CPU-seconds where compiling them for two more platforms costs
// about 180 — a fifth of make test's 15-minute budget on two cores.
// `make cross` still builds the real binaries.
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/crosscheck GOOS/GOARCH... (e.g. darwin/arm64 windows/amd64)")
		os.Exit(2)
	}
	failed := false
	for _, target := range os.Args[1:] {
		goos, goarch, ok := strings.Cut(target, "/")
		if !ok {
			fmt.Fprintf(os.Stderr, "crosscheck: %q is not GOOS/GOARCH\n", target)
			os.Exit(2)
		}
		n, errs, err := check(goos, goarch)
		if err != nil {
			fmt.Fprintf(os.Stderr, "crosscheck %s: %v\n", target, err)
			os.Exit(1)
		}
		if errs > 0 {
			failed = true
			fmt.Fprintf(os.Stderr, "crosscheck %s: %d errors in %d packages (see above); `make cross` shows the compiler's view\n", target, errs, n)
			continue
		}
		fmt.Printf("crosscheck %s: ./cmd/rea and its %d packages type-check\n", target, n)
	}
	if failed {
		os.Exit(1)
	}
}

// check type-checks ./cmd/rea and every package it imports for one
// platform and returns how many packages it read and how many errors
// packages.PrintErrors printed.
func check(goos, goarch string) (int, int, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps |
			packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Env: append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0"),
	}
	pkgs, err := packages.Load(cfg, "./cmd/rea")
	if err != nil {
		return 0, 0, fmt.Errorf("loading ./cmd/rea: %w", err)
	}
	n := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { n++ })
	return n, packages.PrintErrors(pkgs), nil
}
