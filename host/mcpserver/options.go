package mcpserver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"rea/abi"
)

// Response budget: the pinned stdio clients read at most 10 MiB per frame.
const (
	DefaultMaxResponseBytes = 10 << 20
	envelopeReserve         = 1024
	maxSafeInteger          = 1<<53 - 1
)

// Options configure the server. They are read once at startup; restart the
// server to change them.
type Options struct {
	// Version is rea's version, reported as the server version.
	Version string
	// MaxResponseBytes bounds one complete tool result (REA_MCP_MAX_RESPONSE_BYTES).
	MaxResponseBytes int64
	// Families, when not empty, scopes tools and prompts (REA_MCP_TOOL_FAMILIES).
	Families []string
	// SchemaProfile is "full", "compact" or "strict" (REA_MCP_INPUT_SCHEMA_PROFILE).
	SchemaProfile string
}

// Families lists every tool family rea has.
func Families() []string {
	return []string{"application", "artifact", "browser", "electron", "guidance", "javascript-runtime", "native", "process", "session"}
}

// OptionsFromEnvironment reads the REA_MCP_* variables; a bad value is a
// configuration_invalid error naming the variable, reported at startup.
func OptionsFromEnvironment(getenv func(string) string, version string) (Options, error) {
	o := Options{Version: version, MaxResponseBytes: DefaultMaxResponseBytes, SchemaProfile: "full"}
	// The value is taken exactly as written: surrounding spaces, a sign or
	// an exponent are refused rather than trimmed, so a setting that reads
	// differently to another parser never silently takes effect.
	if v := getenv("REA_MCP_MAX_RESPONSE_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || !decimalDigits(v) || n < DefaultMaxResponseBytes || n > maxSafeInteger {
			return o, configError("REA_MCP_MAX_RESPONSE_BYTES", fmt.Sprintf("%q must be a whole number from %d to %d", v, DefaultMaxResponseBytes, int64(maxSafeInteger)))
		}
		o.MaxResponseBytes = n
	}
	if v := strings.TrimSpace(getenv("REA_MCP_TOOL_FAMILIES")); v != "" {
		known := map[string]bool{}
		for _, f := range Families() {
			known[f] = true
		}
		seen := map[string]bool{}
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" || seen[f] {
				continue
			}
			if !known[f] {
				return o, configError("REA_MCP_TOOL_FAMILIES", fmt.Sprintf("unknown family %q; choose from %s", f, strings.Join(Families(), ", ")))
			}
			seen[f] = true
			o.Families = append(o.Families, f)
		}
		sort.Strings(o.Families)
	}
	switch v := strings.TrimSpace(getenv("REA_MCP_INPUT_SCHEMA_PROFILE")); v {
	case "", "full":
	case "compact", "strict":
		o.SchemaProfile = v
	default:
		return o, configError("REA_MCP_INPUT_SCHEMA_PROFILE", fmt.Sprintf("%q is not a profile; use full, compact or strict", v))
	}
	return o, nil
}

func configError(variable, msg string) *abi.Error {
	return abi.Errorf(abi.CodeConfigurationInvalid, "%s: %s", variable, msg).WithDetail("variable", variable)
}

// decimalDigits reports whether v is only ASCII digits.
func decimalDigits(v string) bool {
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return v != ""
}
