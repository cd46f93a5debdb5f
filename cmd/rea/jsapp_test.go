package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"rea/analysis/artifact/asarpack"
	"rea/jsengine/jstest"
	"rea/wasm/wasmtest"
)

// analyzeApp runs `rea analyze-javascript-application` with the modules
// under test.
func analyzeApp(t *testing.T, args ...string) result {
	t.Helper()
	return reaWithModules(t, append([]string{"analyze-javascript-application"}, args...)...)
}

// reportHas fails the test for each of wants the report lacks.
func reportHas(t *testing.T, report string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Issue 4: "Text output is a readable report: windows with their
// preferences, preloads and exposed APIs, an IPC table, findings by
// severity."
func TestAnalyzeTextIsAReadableReportOrderedBySeverity(t *testing.T) {
	r := analyzeApp(t, electronFixture(t, "insecure"), "--format", "text")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reportHas(t, r.stdout,
		"insecure-editor 0.3.0 (directory, root .) electron 11.5.0\n",
		"\nwindow BrowserWindow at main.js:19:16",
		"  nodeIntegration              true",
		"  preload preload.js",
		"\ncontextBridge ",
		"exposes ipcRenderer itself",
		"\nside      role",
		"file:open",
	)
	_, list, ok := strings.Cut(r.stdout, "\nfindings ")
	if !ok || strings.HasPrefix(list, "0:") {
		t.Fatalf("no findings section with findings:\n%s", r.stdout)
	}
	last := -1
	rank := map[string]int{"high": 0, "medium": 1, "low": 2, "info": 3}
	for _, line := range strings.Split(list, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) == 0 {
			break
		}
		sev, ok := rank[f[0]]
		if !ok {
			t.Fatalf("finding line without a severity: %q", line)
		}
		if sev < last {
			t.Fatalf("findings are not ordered by severity at %q:\n%s", line, list)
		}
		last = sev
	}
}

// A file rea could not parse, or would not read, is a blind spot of the
// analysis: the text report names it, as the JSON does.
func TestAnalyzeTextNamesWhatItCouldNotAnalyse(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"name":"blind","version":"1.0.0","main":"main.js"}`,
		"main.js":      `require("./broken"); require("./binary");`,
		"broken.js":    strings.Repeat("(", 5000),
		"binary.js":    "const a = '\xff\xfe\xfd';",
	})
	r := analyzeApp(t, dir, "--format", "text")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reportHas(t, r.stdout,
		"parse failures 1, coverage complete; not parsed 1, limitations 1 (listed at the end)\n",
		"\nnot parsed 1:\n  broken.js: brackets nest 5000 deep",
		"\nlimitations 1:\n  not valid UTF-8, not analysed: binary.js\n",
	)
}

// Issue 4: "--format json|text|sarif (SARIF 2.1.0 for code-scanning UIs);
// --fail-on low|medium|high exits 3 when findings at or above that severity
// exist".
func TestAnalyzeSARIFCarriesEveryFindingAndFailOnGatesCI(t *testing.T) {
	insecure := electronFixture(t, "insecure")
	var rec struct {
		NormalizedResult struct {
			Application struct {
				Findings []struct {
					RuleID   string `json:"rule_id"`
					Severity string `json:"severity"`
				} `json:"findings"`
			} `json:"application"`
		} `json:"normalized_result"`
	}
	j := analyzeApp(t, insecure, "--format", "json")
	if j.code != 0 {
		t.Fatalf("json: exit %d: %s", j.code, j.stderr)
	}
	decode(t, j.stdout, &rec)
	findings := rec.NormalizedResult.Application.Findings
	atOrAboveMedium := 0
	for _, f := range findings {
		if f.Severity == "high" || f.Severity == "medium" {
			atOrAboveMedium++
		}
	}
	if atOrAboveMedium == 0 {
		t.Fatal("the insecure fixture has no medium or high finding")
	}

	s := analyzeApp(t, insecure, "--format", "sarif", "--fail-on", "medium")
	if s.code != 3 {
		t.Fatalf("--fail-on medium with %d such findings: exit %d, want 3; stderr %s", atOrAboveMedium, s.code, s.stderr)
	}
	if want := "findings: " + itoa(atOrAboveMedium) + " at or above medium"; !strings.Contains(s.stderr, want) {
		t.Errorf("stderr %q lacks %q", s.stderr, want)
	}
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	decode(t, s.stdout, &sarif)
	if sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || sarif.Runs[0].Tool.Driver.Name != "rea" {
		t.Fatalf("not a SARIF 2.1.0 log of rea: %.300s", s.stdout)
	}
	run := sarif.Runs[0]
	if len(run.Results) != len(findings) {
		t.Fatalf("SARIF has %d results for %d findings", len(run.Results), len(findings))
	}
	rules := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		rules[r.ID] = true
	}
	for i, r := range run.Results {
		if r.RuleID != findings[i].RuleID || !rules[r.RuleID] {
			t.Errorf("result %d: rule %q, finding %q, declared %v", i, r.RuleID, findings[i].RuleID, rules[r.RuleID])
		}
		if r.Level != "error" && r.Level != "warning" && r.Level != "note" {
			t.Errorf("result %d: level %q", i, r.Level)
		}
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" || r.Locations[0].PhysicalLocation.Region.StartLine < 1 {
			t.Errorf("result %d has no usable location: %+v", i, r.Locations)
		}
	}

	if r := analyzeApp(t, electronFixture(t, "secure"), "--format", "json", "--fail-on", "high"); r.code != 0 {
		t.Errorf("--fail-on high on the secure fixture: exit %d: %s", r.code, r.stderr)
	}
	if r := analyzeApp(t, insecure, "--fail-on", "info"); r.code != 1 || !strings.Contains(r.stderr, "--fail-on") {
		t.Errorf("--fail-on info: exit %d, stderr %q; want a usage error naming the flag", r.code, r.stderr)
	}
}

// Issue 4: "when a limit is reached the result says which, how much was
// omitted, and that coverage is partial — never silently."
func TestAnalyzePartialCoverageExits2AndNamesTheLimit(t *testing.T) {
	insecure := electronFixture(t, "insecure")
	r := analyzeApp(t, insecure, "--format", "json", "--max-ast-nodes", "50")
	if r.code != 2 {
		t.Fatalf("exit %d, want 2 (partial); stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "coverage: partial — limit max_ast_nodes=50 reached, 5 omitted\n") {
		t.Errorf("stderr does not name the limit: %s", r.stderr)
	}
	var rec struct {
		NormalizedResult struct {
			Coverage string `json:"coverage"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &rec)
	if rec.NormalizedResult.Coverage != "partial" {
		t.Errorf("coverage %q, want partial", rec.NormalizedResult.Coverage)
	}
	if r := analyzeApp(t, insecure, "--format", "json", "--max-ast-nodes", "50", "--fail-on-partial=false"); r.code != 0 {
		t.Errorf("--fail-on-partial=false: exit %d", r.code)
	}
	// `rea analyze` routes an application here but has the binary
	// overview's flags: it says where the limits are.
	if r := reaWithModules(t, "analyze", insecure, "--max-ast-nodes", "50"); r.code != 1 || !strings.Contains(r.stderr, "rea analyze-javascript-application") {
		t.Errorf("rea analyze with an application flag: exit %d, stderr %s", r.code, r.stderr)
	}
}

// Issue 4: "Byte-identical JSON on repeated runs and on directory vs ASAR
// of the same app (except input identity fields)."
func TestAnalyzeIsByteIdenticalAcrossRunsAndForTheAppPackedAsASAR(t *testing.T) {
	dir := electronFixture(t, "insecure")
	var files []asarpack.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, asarpack.Bytes(filepath.ToSlash(rel), b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var packed bytes.Buffer
	if err := asarpack.Write(&packed, files); err != nil {
		t.Fatal(err)
	}
	asar := filepath.Join(t.TempDir(), "app.asar")
	if err := os.WriteFile(asar, packed.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"REA_RESULT_CACHE_DIR=off"} // every run analyses
	run := func(input string) result {
		t.Helper()
		r := rea(t, "", append(env, "REA_MODULE_DIR="+wasmtest.ModuleDir(t)), "analyze-javascript-application", input, "--format", "json")
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", input, r.code, r.stderr)
		}
		return r
	}
	first, again := run(dir), run(dir)
	if first.stdout != again.stdout {
		t.Fatal("two runs over the same directory printed different Evidence")
	}
	fromASAR := run(asar)
	application := func(s string) (json.RawMessage, string) {
		var rec struct {
			NormalizedResult struct {
				Application json.RawMessage `json:"application"`
				Format      string          `json:"format"`
			} `json:"normalized_result"`
		}
		decode(t, s, &rec)
		return rec.NormalizedResult.Application, rec.NormalizedResult.Format
	}
	d, dirFormat := application(first.stdout)
	a, asarFormat := application(fromASAR.stdout)
	if dirFormat != "directory" || asarFormat != "asar" {
		t.Fatalf("formats %q and %q, want directory and asar", dirFormat, asarFormat)
	}
	if len(d) < 1000 || !bytes.Equal(d, a) {
		t.Fatalf("the application found in the directory and in its ASAR differ:\ndirectory %.600s\nasar      %.600s", d, a)
	}
}

// Issue 4: "Progress on stderr (files parsed / total) for runs over a
// second when stderr is a terminal."
func TestAnalyzeShowsProgressOnATerminalForRunsOverASecond(t *testing.T) {
	big := t.TempDir()
	if err := jstest.WriteDir(big, jstest.App(300, 17<<10)); err != nil { // ~3 s in the sandbox
		t.Fatal(err)
	}
	anyProgress := regexp.MustCompile(`\ranalyze: [a-z]+ \d+`)
	// onTerminal runs an analysis with stderr on a terminal and returns
	// what it printed there, how long it took, and when (after the start)
	// the first progress line arrived, as measured while reading it.
	onTerminal := func(input string) (string, time.Duration, time.Duration) {
		t.Helper()
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer ptmx.Close()
		var seen bytes.Buffer
		var firstProgress time.Duration = -1
		copied := make(chan struct{})
		start := time.Now()
		go func() {
			defer close(copied)
			buf := make([]byte, 4096)
			for {
				n, err := ptmx.Read(buf)
				seen.Write(buf[:n])
				if firstProgress < 0 && anyProgress.Match(seen.Bytes()) {
					firstProgress = time.Since(start)
				}
				if err != nil {
					return
				}
			}
		}()
		cmd := exec.Command(wasmtest.ReaBinary(t), "analyze-javascript-application", input, "--format", "json", "--max-ast-nodes", "20000000")
		cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off", "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, tty
		err = cmd.Run()
		took := time.Since(start)
		tty.Close()
		<-copied
		if err != nil {
			t.Fatalf("%s: %v\n%s", input, err, seen.String())
		}
		if !json.Valid(stdout.Bytes()) {
			t.Fatalf("progress reached stdout: %.300q", stdout.String())
		}
		return seen.String(), took, firstProgress
	}
	progress := regexp.MustCompile(`\ranalyze: (read|parse|analyze) (\d+)/(\d+) `)
	seen, took, _ := onTerminal(big)
	m := progress.FindAllStringSubmatch(seen, -1)
	if took < 1500*time.Millisecond || len(m) == 0 {
		t.Fatalf("a %v run showed %d progress lines:\n%q", took, len(m), seen)
	}
	for _, l := range m {
		if done, total := atoi(l[2]), atoi(l[3]); done > total || total == 0 {
			t.Errorf("progress %q counts past its total", l[0])
		}
	}
	if !strings.HasSuffix(seen, "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end: %q", seen[max(0, len(seen)-80):])
	}
	// A small run shows no progress in its first second, however long the
	// loaded machine makes it take: asserted on the measured time of the
	// first progress line, never on an assumed duration of the run.
	if seen, took, first := onTerminal(electronFixture(t, "insecure")); first >= 0 && first < time.Second {
		t.Errorf("a %v run showed progress %v after it started: %q", took, first, seen)
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// An Electron app with its node_modules easily holds more files than the
// inventory's default bound; the analysis takes the inventory's limits
// (named as inspect-artifact names them), and Evidence records them.
func TestAnalyzeTakesTheInventoryLimitsOfABigApplication(t *testing.T) {
	dir := t.TempDir()
	deps := filepath.Join(dir, "node_modules", "dep")
	if err := os.MkdirAll(deps, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"package.json": `{"name":"big","main":"main.js"}`, "main.js": `require("electron")`})
	for i := range 10_050 {
		if err := os.WriteFile(filepath.Join(deps, "f"+strconv.Itoa(i)+".txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := analyzeApp(t, dir, "--format", "text")
	if r.code != 1 || !strings.Contains(r.stderr, "resource_constraint") || !strings.Contains(r.stderr, "max_entries") {
		t.Fatalf("over the default max_entries: exit %d, stderr %s", r.code, r.stderr)
	}
	// Commands that analyse a directory first use the default limits and
	// say how to analyse it with others.
	if r := reaWithModules(t, "compare-application-versions", dir, dir); r.code != 1 || !strings.Contains(r.stderr, "max_entries") ||
		!strings.Contains(r.stderr, "rea analyze-javascript-application "+dir+" --max-") {
		t.Errorf("compare over the default max_entries: exit %d, stderr %s", r.code, r.stderr)
	}
	r = analyzeApp(t, dir, "--format", "json", "--max-entries", "20000")
	if r.code != 0 {
		t.Fatalf("--max-entries 20000: exit %d: %s", r.code, r.stderr)
	}
	var rec struct {
		Parameters struct {
			MaxEntries int `json:"max_entries"`
			MaxDepth   int `json:"max_depth"`
		} `json:"parameters"`
	}
	decode(t, r.stdout, &rec)
	if rec.Parameters.MaxEntries != 20000 || rec.Parameters.MaxDepth != 20 {
		t.Errorf("Evidence parameters record max_entries %d, max_depth %d; want 20000 and the default 20", rec.Parameters.MaxEntries, rec.Parameters.MaxDepth)
	}

	// Over MCP, by the same names.
	deep := filepath.Join(dir, strings.Repeat("d/", 24))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	c := startMCP(t, "REA_RESULT_CACHE_DIR=off")
	e := toolError(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": dir, "max_entries": 20000}))
	if e["code"] != "resource_constraint" || !strings.Contains(fmt.Sprint(e["message"]), "max_depth") {
		t.Fatalf("a path 25 deep: %v", e)
	}
	structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": dir, "max_entries": 20000, "max_depth": 40, "detail": "summary"}))
}

// One file whose syntax nests deeper than the wasm call stack allows took
// the whole analysis down ("module exhausted its call stack"). Chains the
// analyser accepts — arrow functions cost the most stack per level — are
// analysed in the sandbox; deeper ones fail as that one file, with the
// reason, and the rest of the application is analysed.
func TestAnalyzeSurvivesTheDeepestSyntaxItAcceptsAndRefusesDeeperAsOneFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"name":"deep","main":"main.js"}`,
		"main.js":      `require("./arrows"); require("./concat"); const { BrowserWindow } = require("electron"); new BrowserWindow({ webPreferences: { nodeIntegration: true } });`,
		"arrows.js":    "module.exports = " + strings.Repeat("a => ", 3990) + "1;\n",
		"concat.js":    "module.exports = " + strings.Repeat(`"s" + `, 200_000) + `"";` + "\n",
	})
	r := analyzeApp(t, dir, "--format", "text")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reportHas(t, r.stdout,
		"files parsed 2 (0 normalised), modules 2, parse failures 1",
		"\nnot parsed 1:\n  concat.js: operators chain about 200002 deep",
		"\nwindow BrowserWindow at main.js:1:",
	)
}
