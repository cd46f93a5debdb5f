package jsengine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// dangerousSwitches weaken Chromium's or Node's security when passed to
// Electron: Electronegativity's list, matched as substrings of the switch
// the way it matches them, so --remote-debugging-port=9222, --inspect-brk
// and --js-flags=… count. disable-features is left out on purpose: most
// uses turn off media or UI features (docs/conformance.md).
var dangerousSwitches = []string{
	"ignore-certificate-errors", "ignore-urlfetcher-cert-requests", "disable-web-security",
	"host-rules", "host-resolver-rules", "auth-server-whitelist", "auth-negotiate-delegate-whitelist",
	"js-flags", "allow-file-access-from-files", "allow-no-sandbox-job", "allow-running-insecure-content",
	"cipher-suite-blacklist", "debug-packed-apps", "disable-kill-after-bad-ipc", "disable-webrtc-encryption",
	"disable-xss-auditor", "enable-local-file-accesses", "enable-nacl-debug", "remote-debugging-address",
	"remote-debugging-port", "remote-debugging-pipe", "inspect", "explicitly-allowed-ports", "expose-internals-for-testing",
	"gpu-launcher", "nacl-dangerous-no-sandbox-nonsfi", "nacl-gdb-script", "net-log-capture-mode", "no-sandbox",
	"reduce-security-for-testing", "unsafely-treat-insecure-origin-as-secure", "disable-site-isolation-trials",
}

// dangerousSwitch returns the dangerous switch s names or contains, or "".
func dangerousSwitch(s string) string {
	l := strings.ToLower(s)
	for _, d := range dangerousSwitches {
		if strings.Contains(l, d) {
			return d
		}
	}
	return ""
}

// dangerousFlagIn finds a dangerous "--switch" in a command line (a
// package.json script): only dashed words count there.
func dangerousFlagIn(cmd string) string {
	l := strings.ToLower(cmd)
	for _, d := range dangerousSwitches {
		if strings.Contains(l, "--"+d) {
			return "--" + d
		}
	}
	return ""
}

// packageFindings judges package.json: the declared Electron version, and
// scripts and config values that pass dangerous switches or disable
// Electron's security warnings.
func (e *engine) packageFindings(res *Result, ver electronVersion) {
	if e.pkgSrc == "" {
		return
	}
	var pj struct {
		Dependencies    map[string]string          `json:"dependencies"`
		DevDependencies map[string]string          `json:"devDependencies"`
		Scripts         map[string]json.RawMessage `json:"scripts"`
		Config          map[string]json.RawMessage `json:"config"`
	}
	if json.Unmarshal([]byte(e.pkgSrc), &pj) != nil {
		return
	}
	pf := &parsedFile{original: e.pkgSrc, generated: e.pkgSrc, lineStarts: lineStarts(e.pkgSrc), path: "package.json"}
	at := func(needle string) Location {
		if i := strings.Index(e.pkgSrc, needle); needle != "" && i >= 0 {
			return pf.loc(idxOf(i))
		}
		return Location{File: "package.json", Line: 1, Column: 1}
	}
	shippedJudged := false
	for _, dep := range []struct {
		section string
		deps    map[string]string
	}{{"dependencies", pj.Dependencies}, {"devDependencies", pj.DevDependencies}} {
		r, ok := dep.deps["electron"]
		if !ok {
			continue
		}
		loc := at(`"` + dep.section + `"`)
		if m := electronDependencyRe.FindStringIndex(e.pkgSrc[max(0, strings.Index(e.pkgSrc, `"`+dep.section+`"`)):]); m != nil {
			loc = pf.loc(idxOf(max(0, strings.Index(e.pkgSrc, `"`+dep.section+`"`)) + m[0]))
		}
		declared := fmt.Sprintf("The package declares Electron %s in %s; the defaults of every window follow from it.", r, dep.section)
		v, major, ok := minVersion(r)
		what := fmt.Sprintf("Electron %s (%s)", v, dep.section)
		if se := e.opts.ShippedElectron; se != nil && ver.known && strings.HasPrefix(ver.source, "read from the shipped binary") {
			// The executable that ships is the runtime the code meets.
			declared = fmt.Sprintf("The package declares Electron %s in %s, but the shipped binary %s is Electron %s; the defaults of every window follow from the shipped one.", r, dep.section, se.Binary, ver.raw)
			v, major, ok = ver.raw, ver.major, true
			what = fmt.Sprintf("Electron %s (read from the shipped binary %s)", v, se.Binary)
			shippedJudged = true
		}
		e.addFinding(Finding{RuleID: "electron-version", Severity: "info", Confidence: "observed",
			Message:  declared,
			Location: loc, Snippet: e.snippetAt(loc), Remediation: "Keep Electron on a supported major and upgrade with each security release."})
		if ok && major < e.opts.MinimumElectronMajor {
			e.addFinding(Finding{RuleID: "electron-version-outdated", Severity: "medium", Confidence: "observed",
				Message:  fmt.Sprintf("%s is older than major %d and no longer receives security fixes.", what, e.opts.MinimumElectronMajor),
				Location: loc, Snippet: e.snippetAt(loc), Remediation: "Upgrade to a supported Electron major."})
		}
		if shippedJudged {
			break // one verdict on the shipped runtime
		}
	}
	if se := e.opts.ShippedElectron; se != nil && !shippedJudged && ver.known && strings.HasPrefix(ver.source, "read from the shipped binary") && ver.major < e.opts.MinimumElectronMajor {
		loc := Location{File: "package.json", Line: 1, Column: 1}
		e.addFinding(Finding{RuleID: "electron-version-outdated", Severity: "medium", Confidence: "observed",
			Message:  fmt.Sprintf("Electron %s (read from the shipped binary %s) is older than major %d and no longer receives security fixes.", ver.raw, se.Binary, e.opts.MinimumElectronMajor),
			Location: loc, Snippet: e.snippetAt(loc), Remediation: "Upgrade to a supported Electron major."})
	}
	for _, sec := range []struct {
		name string
		m    map[string]json.RawMessage
	}{{"scripts", pj.Scripts}, {"config", pj.Config}} {
		keys := make([]string, 0, len(sec.m))
		for k := range sec.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			raw := string(sec.m[k])
			var text string
			if json.Unmarshal(sec.m[k], &text) != nil {
				text = raw // an object or array: its JSON text
			}
			loc := at(`"` + k + `"`)
			if sw := dangerousFlagIn(text); sw != "" {
				e.addFinding(Finding{RuleID: "dangerous-command-line-switch", Severity: "medium", Confidence: "observed",
					Message:  fmt.Sprintf("package.json %s %q passes %s, which weakens Chromium's security.", sec.name, k, sw),
					Location: loc, Snippet: e.snippetAt(loc), Remediation: "Remove the switch from scripts that run or ship the app."})
			}
			if disablesWarnings(text) {
				e.addFinding(Finding{RuleID: "security-warnings-disabled", Severity: "low", Confidence: "observed",
					Message:  fmt.Sprintf("package.json %s %q sets ELECTRON_DISABLE_SECURITY_WARNINGS.", sec.name, k),
					Location: loc, Snippet: e.snippetAt(loc), Remediation: "Keep the warnings on in development."})
			}
		}
	}
}

// disablesWarnings reports whether a command sets
// ELECTRON_DISABLE_SECURITY_WARNINGS to something other than false/0/"".
func disablesWarnings(cmd string) bool {
	const v = "ELECTRON_DISABLE_SECURITY_WARNINGS"
	for rest := cmd; ; {
		i := strings.Index(rest, v)
		if i < 0 {
			return false
		}
		rest = rest[i+len(v):]
		if !strings.HasPrefix(rest, "=") {
			return true // named without a value (export, cross-env …)
		}
		val := strings.Trim(strings.Fields(rest[1:] + " ")[0], `"'`)
		if val != "" && val != "false" && val != "0" {
			return true
		}
	}
}

// electronDependencyRe finds the "electron": "<version>" entry, not the
// word in keywords or descriptions.
var electronDependencyRe = regexp.MustCompile(`"electron"\s*:\s*"`)
