package nativetest

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Language fixtures for function discovery: the same programs built by
// gcc, g++, Go and rustc, each plain and stripped, so a test can hold what
// rea finds in the stripped file to the unstripped file's symbol table.

// CPPELF is shapes.cpp compiled with g++ -O2; stripped runs strip after.
func CPPELF(t testing.TB, stripped bool) string {
	return BuildOnce(t, "shapes-cpp"+suffix(stripped), func(out string) error {
		if err := Run("", nil, "g++", "-O2", "-o", out, Testdata(t, "shapes.cpp")); err != nil {
			return err
		}
		return maybeStrip(out, stripped)
	})
}

// CELF is chain.c compiled with gcc -O2; stripped runs strip after.
func CELF(t testing.TB, stripped bool) string {
	return BuildOnce(t, "chain-c"+suffix(stripped), func(out string) error {
		if err := Run("", nil, "gcc", "-O2", "-o", out, Testdata(t, "chain.c")); err != nil {
			return err
		}
		return maybeStrip(out, stripped)
	})
}

// RustELF is shapes.rs compiled with rustc -O; stripped runs strip after.
// It fails with the install step when rustc is missing.
func RustELF(t testing.TB, stripped bool) string {
	if _, err := exec.LookPath("rustc"); err != nil {
		t.Fatalf("rustc is not installed: install Rust (rustup, or apt-get install rustc) to build the Rust fixture")
	}
	return BuildOnce(t, "shapes-rust"+suffix(stripped), func(out string) error {
		if err := Run(filepath.Dir(out), nil, "rustc", "-O", "-o", out, Testdata(t, "shapes.rs")); err != nil {
			return err
		}
		return maybeStrip(out, stripped)
	})
}

// GoELF is hello.go built for linux/amd64; stripped builds with -s -w and
// runs strip after, which leaves only the pclntab naming functions.
func GoELF(t testing.TB, stripped bool) string {
	return BuildOnce(t, "hello-go"+suffix(stripped), func(out string) error {
		args := []string{"build", "-o", out}
		if stripped {
			args = append(args, "-ldflags=-s -w")
		}
		if err := Run(filepath.Dir(Testdata(t, "hello.go")), []string{"GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=-trimpath"},
			"go", append(args, "hello.go")...); err != nil {
			return err
		}
		return maybeStrip(out, stripped)
	})
}

// GoPE is hello.go for windows/amd64, whose .pdata lists functions;
// stripped builds with -s -w.
func GoPE(t testing.TB, stripped bool) string {
	return BuildOnce(t, "hello-go-pe"+suffix(stripped), func(out string) error {
		args := []string{"build", "-o", out}
		if stripped {
			args = append(args, "-ldflags=-s -w")
		}
		return Run(filepath.Dir(Testdata(t, "hello.go")), []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=-trimpath"},
			"go", append(args, "hello.go")...)
	})
}

func suffix(stripped bool) string {
	if stripped {
		return "-stripped"
	}
	return ""
}

func maybeStrip(out string, stripped bool) error {
	if !stripped {
		return nil
	}
	return Run("", nil, "strip", out)
}

// RecordsELF is records.c built with gcc -g -O1 (DWARF types, lines and a
// known call chain).
func RecordsELF(t testing.TB) string {
	return BuildOnce(t, "records", func(out string) error {
		return Run("", nil, "gcc", "-g", "-O1", "-fno-inline", "-o", out, Testdata(t, "records.c"))
	})
}

// RecordsLayout is records.c built to print its struct's layout.
func RecordsLayout(t testing.TB) string {
	return BuildOnce(t, "records-layout", func(out string) error {
		return Run("", nil, "gcc", "-DREA_PRINT_LAYOUT", "-o", out, Testdata(t, "records.c"))
	})
}
