package main_test

import (
	"os"
	"strings"
	"testing"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

// nativeEnv points the built rea at the real native module and clears any
// provider choice of the machine running the tests.
func nativeEnv(t *testing.T, extra ...string) []string {
	return append([]string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "native"), "REA_ANALYSIS_PROVIDER=", "GHIDRA_INSTALL_DIR="}, extra...)
}

func TestProvidersCommandListsHonestCandidates(t *testing.T) {
	r := rea(t, "", nativeEnv(t), "--format", "json", "providers")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep struct {
		Candidates []struct {
			ID           string `json:"id"`
			Availability struct{ Status, Code string }
		} `json:"analysis_provider_candidates"`
		Selection *struct {
			Provider        string `json:"provider"`
			SelectionSource string `json:"selection_source"`
		} `json:"selection"`
	}
	decode(t, r.stdout, &rep)
	var got []string
	for _, c := range rep.Candidates {
		got = append(got, c.ID+":"+c.Availability.Code)
	}
	if strings.Join(got, ",") != "ghidra:not_configured,hopper:unsupported_host,native-lite:available" {
		t.Errorf("candidates = %v", got)
	}
	if rep.Selection == nil || rep.Selection.Provider != "native-lite" || rep.Selection.SelectionSource != "auto-single-candidate" {
		t.Errorf("selection = %+v", rep.Selection)
	}
}

func TestLayoutCommandReportsHardening(t *testing.T) {
	hard, plain := nativetest.ChainELF(t, "hardened"), nativetest.ChainELF(t, "plain")
	r := rea(t, "", nativeEnv(t), "layout", hard)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"elf x86_64 64-bit little-endian executable", "relro            observed  full", "stack_canary     inferred", "evidence ev_"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("layout lacks %q:\n%s", want, r.stdout)
		}
	}
	r = rea(t, "", nativeEnv(t), "inspect-binary-layout", plain)
	if !strings.Contains(r.stdout, "pie              absent") || !strings.Contains(r.stdout, "relro            absent") {
		t.Errorf("plain layout:\n%s", r.stdout)
	}
}

func TestFunctionCommandGivesADossierAsEvidence(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	r := rea(t, "", nativeEnv(t), "--format", "json", "function", bin, "middle")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rec struct {
		EvidenceID string `json:"evidence_id"`
		Operation  string `json:"operation"`
		Provider   struct{ ID string }
		Subject    struct{ Format, Architecture string }
		Normalized struct {
			Pseudocode struct{ Status string }
			Callees    struct {
				Total int
				Items []struct {
					CalleeName string `json:"callee_name"`
				}
			}
			Callers struct{ Total int }
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &rec)
	if !strings.HasPrefix(rec.EvidenceID, "ev_") || rec.Operation != "analyze_function" || rec.Provider.ID != "native-lite" ||
		rec.Subject.Format != "elf" || rec.Subject.Architecture != "x86_64" {
		t.Fatalf("record = %+v", rec)
	}
	if rec.Normalized.Pseudocode.Status != "unavailable" || rec.Normalized.Callees.Total != 2 || rec.Normalized.Callees.Items[0].CalleeName != "leaf" || rec.Normalized.Callers.Total != 1 {
		t.Fatalf("dossier = %+v", rec.Normalized)
	}
	// The same question gives the same Evidence id.
	again := rea(t, "", nativeEnv(t), "--format", "json", "function", bin, "middle")
	var rec2 struct {
		EvidenceID string `json:"evidence_id"`
	}
	decode(t, again.stdout, &rec2)
	if rec2.EvidenceID != rec.EvidenceID {
		t.Errorf("evidence ids differ across runs: %s vs %s", rec.EvidenceID, rec2.EvidenceID)
	}
}

func TestXrefsAndSearchCommands(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	r := rea(t, "", nativeEnv(t), "search", bin, "middle|leaf", "--mode", "regex")
	if r.code != 0 || !strings.Contains(r.stdout, " middle ") || !strings.Contains(r.stdout, " leaf ") {
		t.Fatalf("search exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	fields := strings.Fields(r.stdout[strings.Index(r.stdout, "0x"):])
	leafAddr := ""
	for i, f := range fields {
		if f == "leaf" {
			leafAddr = fields[i-2]
		}
	}
	x := rea(t, "", nativeEnv(t), "xrefs", bin, leafAddr)
	if x.code != 0 || !strings.Contains(x.stdout, "references to "+leafAddr+" leaf") || !strings.Contains(x.stdout, "2 of 2 references") {
		t.Fatalf("xrefs %s exit %d:\n%s%s", leafAddr, x.code, x.stdout, x.stderr)
	}
}

func TestProviderSelectionErrorsExitNonZero(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	r := rea(t, "", nativeEnv(t, "REA_ANALYSIS_PROVIDER=ghidra"), "--format", "json", "functions", bin)
	var e typedError
	decode(t, r.stdout, &e)
	if r.code != 1 || e.Error.Code != "capability_unavailable" || e.Error.Details["reason"] != "not_configured" {
		t.Fatalf("exit %d error %+v", r.code, e)
	}
	r = rea(t, "", nativeEnv(t, "REA_ANALYSIS_PROVIDER=ghidra"), "functions", "--provider", "native-lite", "--limit", "3", bin)
	if r.code != 0 || !strings.Contains(r.stdout, "provider native-lite (request)") {
		t.Fatalf("--provider over the environment: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rea(t, "", nativeEnv(t, "REA_GHIDRA_STARTUP_TIMEOUT_MS=0"), "functions", bin)
	if r.code != 1 || !strings.Contains(r.stderr, "configuration_invalid") || !strings.Contains(r.stderr, "REA_GHIDRA_STARTUP_TIMEOUT_MS") {
		t.Fatalf("bad startup timeout: exit %d\n%s", r.code, r.stderr)
	}
}

func TestAnalyzeRoutesApplicationDirectoriesToTheJavaScriptAnalysis(t *testing.T) {
	dir := t.TempDir()
	writeNativeTestFile(t, dir+"/package.json", `{"name":"routed-app","main":"main.js"}`)
	writeNativeTestFile(t, dir+"/main.js", "console.log('hi')\n")
	r := rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t, "native", "jsapp", "normalise")}, "analyze", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "routed-app") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func writeNativeTestFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCompareFunctionsCommandReadsSavedEvidence(t *testing.T) {
	dir := t.TempDir()
	save := func(bin, name string) string {
		r := rea(t, "", nativeEnv(t), "--format", "json", "function", bin, "leaf")
		if r.code != 0 {
			t.Fatalf("function leaf: exit %d %s", r.code, r.stderr)
		}
		p := dir + "/" + name
		writeNativeTestFile(t, p, r.stdout)
		return p
	}
	left, right := save(nativetest.ChainELF(t, "plain"), "left.json"), save(nativetest.ChainELF(t, "plain-v2"), "right.json")
	r := rea(t, "", nativeEnv(t), "compare-functions", left, right)
	if r.code != 0 || !strings.Contains(r.stdout, "changed    leaf") || !strings.Contains(r.stdout, "pseudocode     unknown") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A tampered record is refused.
	b, _ := os.ReadFile(left)
	writeNativeTestFile(t, left, strings.Replace(string(b), `"kind": "function"`, `"kind": "thunk"`, 1))
	r = rea(t, "", nativeEnv(t), "--format", "json", "compare-functions", left, right)
	var e typedError
	decode(t, r.stdout, &e)
	if r.code != 1 || e.Error.Code != "evidence_integrity_mismatch" {
		t.Fatalf("tampered: exit %d %+v", r.code, e)
	}
}

// Each native tool has a command of its own: the searches and the assembly
// page record the Evidence the older forms (`functions --pattern`,
// `strings --pattern`, still accepted with a deprecation) recorded, and
// read-bytes without --length records what --length 16 does.
func TestEveryNativeToolHasItsOwnCommand(t *testing.T) {
	bin := nativetest.ChainELF(t, "plain")
	id := func(args ...string) (string, string) {
		t.Helper()
		r := rea(t, "", nativeEnv(t), append([]string{"--format", "json"}, args...)...)
		var rec struct {
			EvidenceID string `json:"evidence_id"`
			Operation  string `json:"operation"`
		}
		if r.code != 0 {
			t.Fatalf("%v: exit %d %s %s", args, r.code, r.stdout, r.stderr)
		}
		decode(t, r.stdout, &rec)
		if !strings.HasPrefix(rec.EvidenceID, "ev_") {
			t.Fatalf("%v: %s", args, r.stdout)
		}
		return rec.EvidenceID, r.stderr
	}
	for _, c := range []struct{ new, old []string }{
		{[]string{"search-procedures", bin, "middle|leaf", "--mode", "regex"}, []string{"functions", bin, "--pattern", "middle|leaf", "--mode", "regex"}},
		{[]string{"search-strings", bin, "leaf"}, []string{"strings", bin, "--pattern", "leaf"}},
	} {
		got, _ := id(c.new...)
		want, stderr := id(c.old...)
		if got != want || !strings.Contains(stderr, "deprecated") || !strings.Contains(stderr, c.new[0]) {
			t.Errorf("%v gives %s, %v gives %s (stderr %q)", c.new, got, c.old, want, stderr)
		}
	}
	r := rea(t, "", nativeEnv(t), "--format", "json", "assembly", bin, "middle")
	var asm struct {
		Operation  string `json:"operation"`
		Normalized struct {
			Instructions struct {
				Limit int `json:"limit"`
			} `json:"instructions"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &asm)
	if r.code != 0 || asm.Operation != "procedure_assembly" || asm.Normalized.Instructions.Limit != 500 {
		t.Fatalf("assembly: exit %d %+v %s", r.code, asm, r.stderr)
	}
	dflt, _ := id("read-bytes", bin, "0x401000")
	explicit, _ := id("read-bytes", bin, "0x401000", "--length", "16")
	if dflt != explicit {
		t.Errorf("read-bytes without --length records %s, with --length 16 %s", dflt, explicit)
	}
}
