// Command conformance runs the built rea over Electronegativity's per-check
// fixtures (doyensec/electronegativity test/checks, kept outside the
// repository) and prints, per check, on how many fixtures rea's count of
// findings equals the count the fixture's name declares.
//
// Each fixture becomes its own application root in a temporary directory:
// an AtomicChecks file keeps its name (a .json fixture becomes the root's
// package.json, the only JSON file rea reads), a GlobalChecks directory is
// copied whole. A JS/TS file that does not import electron gets the
// fixtures README's prelude — on its first line, so that line numbers and
// a first-line eng-disable comment stay where the fixture put them. A
// finding counts for a check when the check is among the finding's
// equivalents and it is not suppressed; that is the cross-reference users
// see, not a table private to this program.
//
//	go run ./scripts/conformance -rea bin/rea -fixtures ../shared/conformance/electronegativity/checks
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// prelude is the fixtures README's binding of electron's exports.
const prelude = "const { BrowserWindow, BrowserView, app, shell, session, protocol, webContents, remote } = require('electron'); "

var (
	fixtureName    = regexp.MustCompile(`^([A-Z_]+_CHECK)_(\d+)_(\d+)(\.[A-Za-z]+)?$`)
	electronImport = regexp.MustCompile(`require\(\s*['"]electron['"]\s*\)|from\s+['"]electron['"]`)
)

type fixture struct {
	check string // e.g. CONTEXT_ISOLATION_JS_CHECK
	name  string // file or directory name
	path  string
	want  int
	dir   bool
}

type outcome struct {
	fixture
	got int
	err error
}

func main() {
	rea := flag.String("rea", "bin/rea", "the rea binary to run")
	root := flag.String("fixtures", "../shared/conformance/electronegativity/checks", "Electronegativity's test/checks directory")
	minimum := flag.Float64("min", 0, "exit 1 when overall agreement (0..1) is below this")
	jobs := flag.Int("jobs", 2, "fixtures analysed at once")
	verbose := flag.Bool("v", false, "list every disagreeing fixture")
	flag.Parse()
	if _, err := os.Stat(*rea); err != nil {
		fail("rea binary %s: %v (build it with make)", *rea, err)
	}
	fixtures, err := list(*root)
	if err != nil {
		fail("fixtures: %v (they are doyensec/electronegativity's test/checks at commit 3798d8c; see the README beside them)", err)
	}
	work, err := os.MkdirTemp("", "rea-conformance-")
	if err != nil {
		fail("%v", err)
	}
	out := make([]outcome, len(fixtures))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(*jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f := fixtures[i]
				got, err := run(*rea, work, i, f)
				out[i] = outcome{fixture: f, got: got, err: err}
			}
		}()
	}
	for i := range fixtures {
		next <- i
	}
	close(next)
	wg.Wait()
	status := report(out, *minimum, *verbose)
	os.RemoveAll(work)
	os.Exit(status)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "conformance: "+format+"\n", args...)
	os.Exit(1)
}

// list finds the security-check fixtures (names with _CHECK_; the
// *_DEPRECATION/_REMOVAL/_CHANGE upgrade notes are not security checks).
func list(root string) ([]fixture, error) {
	var out []fixture
	for _, kind := range []string{"AtomicChecks", "GlobalChecks"} {
		ents, err := os.ReadDir(filepath.Join(root, kind))
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			m := fixtureName.FindStringSubmatch(e.Name())
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[3])
			out = append(out, fixture{check: m[1], name: e.Name(), path: filepath.Join(root, kind, e.Name()), want: n, dir: e.IsDir()})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no CHECK_<i>_<count> fixtures under " + root)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// stage writes fixture f as an application root under dir.
func stage(dir string, f fixture) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	put := func(rel string, b []byte) error {
		name := filepath.Base(rel)
		switch strings.ToLower(filepath.Ext(name)) {
		case ".json":
			if !f.dir {
				rel = "package.json"
			}
		case ".js", ".ts", ".jsx", ".tsx", ".mjs", ".cjs":
			if !electronImport.Match(b) {
				b = append([]byte(prelude), b...)
			}
		}
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	}
	if !f.dir {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		return put(f.name, b)
	}
	return filepath.WalkDir(f.path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.path, p)
		return put(rel, b)
	})
}

// evidence is the part of rea's JSON Evidence this program reads.
type evidence struct {
	NormalizedResult struct {
		Application struct {
			Findings []struct {
				RuleID      string                   `json:"rule_id"`
				Suppressed  *struct{ Reason string } `json:"suppressed"`
				Equivalents []struct {
					Kind string `json:"kind"`
					ID   string `json:"id"`
				} `json:"equivalents"`
			} `json:"findings"`
		} `json:"application"`
	} `json:"normalized_result"`
}

func run(rea, work string, i int, f fixture) (int, error) {
	dir := filepath.Join(work, strconv.Itoa(i))
	if err := stage(dir, f); err != nil {
		return 0, err
	}
	cmd := exec.Command(rea, "analyze-javascript-application", dir, "--format", "json", "--fail-on-partial=false")
	cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var ev evidence
	if err := json.Unmarshal(stdout.Bytes(), &ev); err != nil {
		return 0, fmt.Errorf("rea's output is not Evidence JSON: %v", err)
	}
	n := 0
	for _, fd := range ev.NormalizedResult.Application.Findings {
		if fd.Suppressed != nil {
			continue
		}
		for _, eq := range fd.Equivalents {
			if eq.Kind == "electronegativity" && eq.ID == f.check {
				n++
				break
			}
		}
	}
	return n, nil
}

// report prints agreement per check and overall, and returns the exit
// status.
func report(out []outcome, minimum float64, verbose bool) int {
	type tally struct{ agree, total int }
	per := map[string]*tally{}
	var checks []string
	agree, errs := 0, 0
	for _, o := range out {
		t := per[o.check]
		if t == nil {
			t = &tally{}
			per[o.check] = t
			checks = append(checks, o.check)
		}
		t.total++
		switch {
		case o.err != nil:
			errs++
			fmt.Fprintf(os.Stderr, "%s: %v\n", o.name, o.err)
		case o.got == o.want:
			t.agree++
			agree++
		}
	}
	sort.Strings(checks)
	fmt.Printf("%-44s %5s %5s\n", "check", "agree", "of")
	full := 0
	for _, c := range checks {
		t := per[c]
		mark := ""
		if t.agree == t.total {
			full++
		} else {
			mark = "  <"
		}
		fmt.Printf("%-44s %5d %5d%s\n", c, t.agree, t.total, mark)
	}
	ratio := float64(agree) / float64(len(out))
	fmt.Printf("\noverall %d of %d fixtures (%.1f %%); %d of %d checks agree on every fixture\n", agree, len(out), 100*ratio, full, len(checks))
	if verbose {
		fmt.Println("\ndisagreements (fixture: rea's count, expected):")
		for _, o := range out {
			if o.err == nil && o.got != o.want {
				fmt.Printf("  %-58s %d, %d\n", o.name, o.got, o.want)
			}
		}
	}
	if errs > 0 {
		return 1
	}
	if ratio < minimum {
		fmt.Printf("agreement %.3f is below the required %.3f\n", ratio, minimum)
		return 1
	}
	return 0
}
