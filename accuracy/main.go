// Command accuracy measures rea's Electron analysis against hand-labelled
// real applications (`make accuracy`, opt-in: it reads pinned sources from
// GitHub mirrors or the npm registry). For each app under accuracy/apps it
// materialises the pinned bytes, runs the built `rea
// analyze-javascript-application DIR --format json`, matches rea's facts
// against the labels (rules in accuracy/README.md) and prints recall and
// precision per fact kind, per app and overall, beside the targets of
// issue 18, then every miss grouped by the code shape that caused it.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"rea/jsengine/report"
)

// Targets are issue 18's "Must hold" figures (recall unless noted).
var Targets = map[string]string{
	KindWindows:      "≥ 97 %",
	KindWebPrefs:     "≥ 95 %",
	KindPreload:      "≥ 85 %",
	KindBridge:       "",
	KindIPCMain:      "≥ 90 %",
	KindIPCRenderer:  "≥ 90 %",
	KindPairing:      "≥ 98 % right",
	KindChanMain:     "(view of IPC main)",
	KindChanRenderer: "(view of IPC renderer)",
}

func main() {
	apps := flag.String("apps", "accuracy/apps", "folder of label files (*.json)")
	rea := flag.String("rea", "bin/rea", "the built rea binary")
	work := flag.String("work", "build/accuracy", "where sources are materialised and results kept")
	mirrors := flag.String("mirrors", envOr("REA_MIRRORS", "/work/.mirror"), "folder of bare GitHub mirrors (owner+name/repo)")
	only := flag.String("app", "", "score only these apps (comma-separated names)")
	jsonOut := flag.String("json", "", "also write the scores as JSON to this file")
	flag.Parse()
	if err := run(os.Stdout, *apps, *rea, *work, *mirrors, *only, *jsonOut); err != nil {
		slog.Error("accuracy", "err", err)
		os.Exit(1)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func run(w io.Writer, appsDir, rea, work, mirrors, only, jsonOut string) error {
	apps, err := LoadApps(appsDir)
	if err != nil {
		return err
	}
	if len(apps) == 0 {
		return fmt.Errorf("no label files in %s", appsDir)
	}
	if _, err := os.Stat(rea); err != nil {
		return fmt.Errorf("rea binary %s: %w (build it with make)", rea, err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	var scores []Score
	var failed []string
	for _, a := range apps {
		if len(want) > 0 && !want[a.Name] {
			continue
		}
		dir, err := Materialise(a, work, mirrors)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", a.Name, err))
			continue
		}
		if a.Root != "" {
			dir = filepath.Join(dir, filepath.FromSlash(a.Root))
		}
		if problems := CheckLabels(a, dir); len(problems) > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d label(s) do not match the code: %s", a.Name, len(problems), strings.Join(problems, "; ")))
			continue
		}
		res, took, coverage, err := analyse(rea, dir, filepath.Join(work, a.Name, "evidence.json"))
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", a.Name, err))
			continue
		}
		slog.Info("analysed", "app", a.Name, "seconds", fmt.Sprintf("%.1f", took.Seconds()), "coverage", coverage)
		if n, problems := CheckSourceRefs(rea, dir, res); len(problems) > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d of %d finding source_refs do not read back their code: %s", a.Name, len(problems), n, strings.Join(problems, "; ")))
		} else {
			slog.Info("source_refs read back", "app", a.Name, "findings", n)
		}
		sc := Match(a, res)
		sc.Seconds, sc.Coverage = took.Seconds(), res.Coverage.Status
		scores = append(scores, sc)
	}
	Print(w, scores)
	if jsonOut != "" {
		b, _ := json.MarshalIndent(scores, "", "  ")
		if err := os.WriteFile(jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		for _, f := range failed {
			fmt.Fprintln(w, "NOT SCORED:", f)
		}
		return fmt.Errorf("%d app(s) could not be scored", len(failed))
	}
	return nil
}

// analyse runs rea the way a user does and decodes the application result
// from the Evidence record.
func analyse(rea, dir, out string) (report.Result, time.Duration, string, error) {
	cmd := exec.Command(rea, "analyze-javascript-application", dir, "--format", "json", "--fail-on-partial=false")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 2) {
		return report.Result{}, took, "", fmt.Errorf("rea %s: %v: %s", dir, err, lastLines(stderr.String(), 3))
	}
	if err := os.WriteFile(out, stdout.Bytes(), 0o644); err != nil {
		return report.Result{}, took, "", err
	}
	var ev struct {
		Normalized struct {
			Application report.Result `json:"application"`
			Coverage    any           `json:"coverage"`
		} `json:"normalized_result"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &ev); err != nil {
		return report.Result{}, took, "", fmt.Errorf("rea %s: evidence JSON: %w", dir, err)
	}
	return ev.Normalized.Application, took, fmt.Sprint(ev.Normalized.Coverage), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// Print writes the per-app table, the overall table with targets, and the
// misses and false facts grouped by shape.
func Print(w io.Writer, scores []Score) {
	fmt.Fprintf(w, "%-26s %-18s %9s %8s %9s %10s\n", "app", "kind", "labelled", "recall", "reported", "precision")
	total := map[string]*Tally{}
	for _, k := range Kinds {
		total[k] = &Tally{}
	}
	for _, s := range scores {
		for _, k := range Kinds {
			t := s.Tallies[k]
			total[k].Add(t)
			if t.Labelled == 0 && t.Reported == 0 {
				continue
			}
			fmt.Fprintf(w, "%-26s %-18s %9d %8s %9d %10s\n", s.App, k, t.Labelled, ratio(t.Found, t.Labelled), t.Reported, ratio(t.Correct, t.Reported))
		}
	}
	fmt.Fprintf(w, "\nOverall (%d apps)\n%-18s %9s %14s %9s %16s %s\n", len(scores), "kind", "labelled", "recall", "reported", "precision", "target")
	falseFacts := 0
	for _, k := range Kinds {
		t := total[k]
		if k != KindChanMain && k != KindChanRenderer { // views, not facts of their own
			falseFacts += t.Reported - t.Correct
		}
		fmt.Fprintf(w, "%-18s %9d %14s %9d %16s %s\n", k, t.Labelled, ratioN(t.Found, t.Labelled), t.Reported, ratioN(t.Correct, t.Reported), Targets[k])
	}
	fmt.Fprintf(w, "facts not in the code: %d (target 0)\n", falseFacts)
	fmt.Fprintf(w, "\n%-26s %8s %9s\n", "rea run", "seconds", "coverage")
	for _, s := range scores {
		fmt.Fprintf(w, "%-26s %8.1f %9s\n", s.App, s.Seconds, s.Coverage)
	}
	printShapes(w, scores)

	for _, s := range scores {
		if len(s.Misses) == 0 && len(s.False) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", s.App)
		byShape := map[string][]Fact{}
		for _, m := range s.Misses {
			byShape[m.Shape] = append(byShape[m.Shape], m)
		}
		shapes := sortedKeys(byShape)
		sort.SliceStable(shapes, func(i, j int) bool { return len(byShape[shapes[i]]) > len(byShape[shapes[j]]) })
		for _, sh := range shapes {
			fmt.Fprintf(w, "  missed, shape %s (%d)\n", sh, len(byShape[sh]))
			for _, m := range byShape[sh] {
				fmt.Fprintf(w, "    %-15s %-40s %s\n", m.Kind, m.At, m.What)
			}
		}
		for _, f := range s.False {
			fmt.Fprintf(w, "  NOT IN THE CODE  %-15s %-40s %s\n", f.Kind, f.At, f.What)
		}
	}
}

func ratio(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f %%", 100*float64(n)/float64(d))
}

func ratioN(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d %3.0f %%", n, d, 100*float64(n)/float64(d))
}

// printShapes sums the misses of every app by the code shape the labels
// name, so the construct that costs most recall comes first.
func printShapes(w io.Writer, scores []Score) {
	type row struct {
		shape  string
		byKind map[string]int
		apps   map[string]bool
		total  int
	}
	rows := map[string]*row{}
	for _, s := range scores {
		for _, m := range s.Misses {
			r := rows[m.Shape]
			if r == nil {
				r = &row{shape: m.Shape, byKind: map[string]int{}, apps: map[string]bool{}}
				rows[m.Shape] = r
			}
			r.byKind[m.Kind]++
			r.apps[s.App] = true
			r.total++
		}
	}
	if len(rows) == 0 {
		return
	}
	list := make([]*row, 0, len(rows))
	for _, r := range rows {
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].total != list[j].total {
			return list[i].total > list[j].total
		}
		return list[i].shape < list[j].shape
	})
	fmt.Fprintf(w, "\nMisses by code shape (all apps)\n")
	for _, r := range list {
		var kinds []string
		for _, k := range Kinds {
			if n := r.byKind[k]; n > 0 {
				kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
			}
		}
		fmt.Fprintf(w, "  %-44s %4d  %s  [%s]\n", r.shape, r.total, strings.Join(kinds, ", "), strings.Join(sortedKeys(r.apps), " "))
	}
}
