// Package providers is the registry of native analysis providers: which
// deep engines exist on this host (discovered without launching anything),
// how a request, the environment or "auto" selects one, and the immutable
// binding that every Evidence record of a target then names.
//
// rea ships one deep provider, native-lite (pure Go, run in the sandbox).
// Ghidra and Hopper are listed honestly: this host can neither install nor
// launch them, so they report why they are unavailable and are never
// selected in their place.
package providers

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"rea/abi"
)

// Provider ids.
const (
	NativeLite = "native-lite"
	Ghidra     = "ghidra"
	Hopper     = "hopper"
	// Auto is the reserved selector that binds the only usable candidate.
	Auto = "auto"
)

// Environment variables the registry reads.
const (
	EnvProvider             = "REA_ANALYSIS_PROVIDER"
	EnvGhidraInstallDir     = "GHIDRA_INSTALL_DIR"
	EnvHopperExecutable     = "REA_HOPPER_EXECUTABLE"
	EnvGhidraStartupTimeout = "REA_GHIDRA_STARTUP_TIMEOUT_MS"
	EnvHopperStartupTimeout = "REA_HOPPER_STARTUP_TIMEOUT_MS"
)

// Startup deadlines (milliseconds) when the environment sets none.
const (
	DefaultGhidraStartupMillis = 330_000
	DefaultHopperStartupMillis = 120_000
	maxStartupMillis           = 2_147_483_647
)

// Availability and support codes, as REA names them.
const (
	CodeAvailable               = "available"
	CodeNotConfigured           = "not_configured"
	CodeExecutableMissing       = "executable_missing"
	CodeRuntimeMissing          = "runtime_missing"
	CodeUnsupportedHost         = "unsupported_host"
	CodeUnsupportedVersion      = "unsupported_version"
	CodeTargetFormatUnsupported = "target_format_unsupported"
	CodeArchitectureUnsupported = "architecture_unsupported"
	CodeVersionUnresolved       = "version_unresolved"
)

// CodeConfigurationInvalid is the error code of a bad environment value.
const CodeConfigurationInvalid = "configuration_invalid"

// Availability says whether a candidate can run on this host and why not.
type Availability struct {
	// Status is available or unavailable.
	Status      string   `json:"status"`
	Code        string   `json:"code"`
	Reason      string   `json:"reason"`
	Remediation string   `json:"remediation,omitempty"`
	Diagnostics []string `json:"diagnostics"`
}

// Usable says the candidate can be bound.
func (a Availability) Usable() bool { return a.Status == "available" }

// Candidate is one deep provider as discovered.
type Candidate struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Version is concrete for a usable candidate, null when unresolved.
	Version      *string      `json:"version"`
	Availability Availability `json:"availability"`
	// Operations the provider implements (empty when unavailable).
	Operations []string `json:"operations"`
	// Formats and Architectures it reads.
	Formats       []string `json:"formats"`
	Architectures []string `json:"architectures"`
	// StartupTimeoutMillis is the launch deadline of an engine process
	// (0 for in-process providers).
	StartupTimeoutMillis int `json:"startup_timeout_ms"`
}

// Config is what discovery needs from the host. Zero fields read the real
// environment and PATH.
type Config struct {
	// NativeLiteVersion is the concrete version of native-lite: the digest
	// of the native module that implements it.
	NativeLiteVersion string
	LookupEnv         func(string) (string, bool)
	LookPath          func(string) (string, error)
	Stat              func(string) (os.FileInfo, error)
	GOOS              string
}

func (c *Config) defaults() {
	if c.LookupEnv == nil {
		c.LookupEnv = os.LookupEnv
	}
	if c.LookPath == nil {
		c.LookPath = exec.LookPath
	}
	if c.Stat == nil {
		c.Stat = os.Stat
	}
	if c.GOOS == "" {
		c.GOOS = runtime.GOOS
	}
}

// NativeLiteOperations are the provider tools native-lite answers.
func NativeLiteOperations() []string {
	return []string{"address_to_file_offset", "analyze_function", "binary_overview", "list_names", "list_procedures", "list_segments", "list_strings",
		"procedure_assembly", "procedure_callees", "procedure_callers", "procedure_references", "read_bytes", "read_function_instructions", "resolve_containing_procedure",
		"search_procedures", "search_strings", "xrefs"}
}

// Registry is the discovered candidate set, sorted by id.
type Registry struct {
	candidates []Candidate
	envDefault string
}

// ValidateEnvironment checks the provider variables; a bad value is a
// configuration_invalid error naming the variable, reported at startup.
func ValidateEnvironment(lookup func(string) (string, bool)) error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, name := range []string{EnvGhidraStartupTimeout, EnvHopperStartupTimeout} {
		if _, err := startupMillis(lookup, name, 0); err != nil {
			return err
		}
	}
	if v, ok := lookup(EnvProvider); ok && v != "" {
		if _, err := ParseSelector(v, EnvProvider); err != nil {
			return err
		}
	}
	return nil
}

func startupMillis(lookup func(string) (string, bool), name string, def int) (int, error) {
	v, ok := lookup(name)
	if !ok {
		return def, nil
	}
	bad := func() error {
		return abi.Errorf(CodeConfigurationInvalid, "%s=%q is not a whole number of milliseconds from 1 to %d; fix or unset it", name, v, maxStartupMillis).
			WithDetail("variable", name)
	}
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, bad()
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > maxStartupMillis {
		return 0, bad()
	}
	return int(n), nil
}

// ParseSelector accepts "auto" or a provider id (lowercase letters, digits
// and dashes); source names the flag or variable for the error.
func ParseSelector(s, source string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == Auto {
		return Auto, nil
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			code := abi.CodeInvalidRequest
			if source == EnvProvider {
				code = CodeConfigurationInvalid
			}
			return "", abi.Errorf(code, "%s %q is not a provider id; use auto, %s, %s or %s", source, s, Ghidra, Hopper, NativeLite).
				WithDetail("field", source)
		}
	}
	return s, nil
}

// Discover lists the candidates. It only inspects the environment and the
// file system; it never starts an engine.
func Discover(cfg Config) (*Registry, error) {
	cfg.defaults()
	if err := ValidateEnvironment(cfg.LookupEnv); err != nil {
		return nil, err
	}
	r := &Registry{}
	if v, ok := cfg.LookupEnv(EnvProvider); ok {
		r.envDefault = strings.TrimSpace(v)
	}
	r.candidates = append(r.candidates, nativeLite(cfg), ghidra(cfg), hopper(cfg))
	sort.Slice(r.candidates, func(i, j int) bool { return r.candidates[i].ID < r.candidates[j].ID })
	return r, nil
}

func unavailable(code, reason, remediation string, diag ...string) Availability {
	if diag == nil {
		diag = []string{}
	}
	return Availability{Status: "unavailable", Code: code, Reason: reason, Remediation: remediation, Diagnostics: diag}
}

func nativeLite(cfg Config) Candidate {
	c := Candidate{ID: NativeLite, Name: "rea native-lite (Go disassembly in the sandbox)",
		Formats: []string{"elf", "mach-o", "mach-o-universal", "pe"}, Architectures: []string{"arm64", "x86", "x86_64"}, Operations: []string{}}
	if cfg.NativeLiteVersion == "" {
		c.Availability = unavailable(CodeVersionUnresolved, "the native module is not loaded, so native-lite has no concrete version",
			"rebuild the modules with `make modules` or pass --module-dir with native.wasm")
		return c
	}
	v := cfg.NativeLiteVersion
	c.Version = &v
	c.Operations = NativeLiteOperations()
	c.Availability = Availability{Status: "available", Code: CodeAvailable, Reason: "built in; runs in the wasm sandbox", Diagnostics: []string{}}
	return c
}

func ghidra(cfg Config) Candidate {
	ms, _ := startupMillis(cfg.LookupEnv, EnvGhidraStartupTimeout, DefaultGhidraStartupMillis)
	c := Candidate{ID: Ghidra, Name: "Ghidra (analyzeHeadless)", Formats: []string{"elf", "mach-o", "pe"}, Architectures: []string{"arm", "arm64", "x86", "x86_64"},
		Operations: []string{}, StartupTimeoutMillis: ms}
	dir, ok := cfg.LookupEnv(EnvGhidraInstallDir)
	if !ok || dir == "" {
		c.Availability = unavailable(CodeNotConfigured, EnvGhidraInstallDir+" is not set", "install Ghidra and JDK 21, then set "+EnvGhidraInstallDir+" to its directory")
		return c
	}
	headless := filepath.Join(dir, "support", "analyzeHeadless")
	if _, err := cfg.Stat(headless); err != nil {
		c.Availability = unavailable(CodeExecutableMissing, "no analyzeHeadless under "+EnvGhidraInstallDir, "point "+EnvGhidraInstallDir+" at a Ghidra installation", headless+": "+err.Error())
		return c
	}
	if _, err := cfg.LookPath("java"); err != nil {
		c.Availability = unavailable(CodeRuntimeMissing, "no java on PATH for Ghidra", "install JDK 21 and put java on PATH", err.Error())
		return c
	}
	c.Availability = unavailable(CodeUnsupportedVersion, "rea has no Ghidra bridge in this build; the installation is found but not used",
		"use native-lite, or a rea build with the Ghidra bridge", "found "+headless)
	return c
}

func hopper(cfg Config) Candidate {
	ms, _ := startupMillis(cfg.LookupEnv, EnvHopperStartupTimeout, DefaultHopperStartupMillis)
	c := Candidate{ID: Hopper, Name: "Hopper Disassembler", Formats: []string{"elf", "mach-o", "mach-o-universal", "pe"}, Architectures: []string{"arm64", "x86", "x86_64"},
		Operations: []string{}, StartupTimeoutMillis: ms}
	if cfg.GOOS != "darwin" {
		c.Availability = unavailable(CodeUnsupportedHost, fmt.Sprintf("Hopper runs on macOS only; this host is %s", cfg.GOOS), "run rea on macOS with Hopper installed, or use native-lite")
		return c
	}
	exe, ok := cfg.LookupEnv(EnvHopperExecutable)
	if !ok || exe == "" {
		exe = "/Applications/Hopper Disassembler v4.app/Contents/MacOS/hopper"
	}
	if _, err := cfg.Stat(exe); err != nil {
		c.Availability = unavailable(CodeExecutableMissing, "Hopper is not installed at "+exe, "install Hopper or set "+EnvHopperExecutable, err.Error())
		return c
	}
	c.Availability = unavailable(CodeUnsupportedVersion, "rea has no Hopper bridge in this build", "use native-lite", "found "+exe)
	return c
}

// Candidates returns a copy of the candidates, sorted by id.
func (r *Registry) Candidates() []Candidate { return append([]Candidate{}, r.candidates...) }

// Candidate finds one by id.
func (r *Registry) Candidate(id string) (Candidate, bool) {
	for _, c := range r.candidates {
		if c.ID == id {
			return c, true
		}
	}
	return Candidate{}, false
}
