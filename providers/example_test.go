package providers_test

import (
	"fmt"
	"os"

	"rea/providers"
)

// Discovery looks at the environment and the file system only; auto then
// binds the single usable candidate.
func Example() {
	env := map[string]string{} // no GHIDRA_INSTALL_DIR, no REA_ANALYSIS_PROVIDER
	reg, err := providers.Discover(providers.Config{
		NativeLiteVersion: "sha256:0123",
		LookupEnv:         func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Stat:              func(string) (os.FileInfo, error) { return nil, os.ErrNotExist },
		GOOS:              "linux",
	})
	if err != nil {
		panic(err)
	}
	for _, c := range reg.Candidates() {
		fmt.Println(c.ID, c.Availability.Code)
	}
	b, _, err := reg.Select("", providers.Target{Format: "elf", Architecture: "x86_64"})
	if err != nil {
		panic(err)
	}
	fmt.Println("bound", b.ProviderID(), b.Version(), "by", b.SelectionSource())
	// Output:
	// ghidra not_configured
	// hopper unsupported_host
	// native-lite available
	// bound native-lite sha256:0123 by auto-single-candidate
}
