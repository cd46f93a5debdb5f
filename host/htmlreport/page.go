package htmlreport

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"rea/jsengine/report"
)

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

//go:embed page.html.tmpl
var pageTemplate string

// MaxShownPerLayer is how many nodes a column of the graph draws before it
// collapses the rest behind "show all": a few hundred boxes stay responsive,
// thousands do not.
const MaxShownPerLayer = 120

// Input is what one page shows: the analysis result and the facts about the
// run that the result itself does not hold.
type Input struct {
	Title           string
	EvidenceID      string
	Format          string
	ApplicationRoot string
	ElectronVersion string
	Coverage        string // complete | partial
	Limitations     []string
	Contradictions  int
	Result          *report.Result
}

type viewNode struct {
	*Node
	DOMID    string
	Short    string
	ShortLoc string
	Findings []viewFinding
}

type viewEdge struct {
	Path      string
	Class     string
	Title     string
	Collapsed bool
}

type viewFinding struct {
	report.Finding
	DOMID    string
	Location string
	Node     string
}

type severityGroup struct {
	Severity string
	Findings []viewFinding
}

type windowTable struct {
	Title   string
	Rows    []Fact
	Preload string
	Loads   []Fact
}

type page struct {
	Input
	CSP            string
	CSS            template.CSS
	JS             template.JS
	Partial        bool
	CoverageWords  string
	Counts         []Fact
	Top            []viewFinding
	Width, Height  int
	NodeW, NodeH   int
	Layers         []layerHead
	Nodes          []viewNode
	Edges          []viewEdge
	Collapsed      int
	Groups         []severityGroup
	Windows        []windowTable
	NotAnalysed    []Fact
	LimitsReached  []Fact
	FindingsTotal  int
	UnattachedNote string
}

type layerHead struct {
	X     int
	Title string
}

// short cuts s to n runes for a box label; the whole text is in the node's
// facts and tooltip.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// Render writes the page. The same Input always gives the same bytes.
func Render(w io.Writer, in Input) error {
	if in.Result == nil {
		return fmt.Errorf("htmlreport: no analysis result to render")
	}
	tmpl, err := template.New("page").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("htmlreport: parse template: %w", err)
	}
	g := BuildGraph(in.Result)
	width, height := Layout(g, MaxShownPerLayer)
	p := page{Input: in, CSS: template.CSS(pageCSS), JS: template.JS(pageJS), Width: width, Height: height, NodeW: nodeWidth, NodeH: nodeHeight}
	p.CSP = "default-src 'none'; style-src " + cspHash(pageCSS) + "; script-src " + cspHash(pageJS) +
		"; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
	p.Partial = in.Coverage != "complete"
	r := in.Result

	unparsed := 0
	for _, m := range r.Modules {
		if m.ParseError != "" {
			unparsed++
			p.NotAnalysed = append(p.NotAnalysed, Fact{m.Path, "not parsed: " + m.ParseError})
		}
	}
	for _, o := range r.OmittedFiles {
		p.NotAnalysed = append(p.NotAnalysed, Fact{o.Path, "omitted: " + o.Reason})
	}
	for _, l := range r.Coverage.LimitsReached {
		p.LimitsReached = append(p.LimitsReached, Fact{l.Limit, fmt.Sprintf("limit %d reached, %d left out", l.Value, l.Omitted)})
	}
	if p.Partial {
		p.CoverageWords = fmt.Sprintf("Coverage is PARTIAL: part of this application was not analysed (%d files not parsed, %d omitted, %d limitations). Facts below may be missing; see \"Not analysed\".",
			unparsed, len(r.OmittedFiles), len(in.Limitations))
	} else {
		p.CoverageWords = "Coverage is complete: every file selected for analysis was parsed and analysed."
	}
	s := r.Summary
	p.Counts = []Fact{
		{"windows", fmt.Sprint(s.BrowserWindows)}, {"preloads", fmt.Sprint(s.PreloadEntrypoints)},
		{"bridge APIs", fmt.Sprint(s.ContextBridgeAPIs)}, {"IPC operations", fmt.Sprint(s.IPC.Operations)},
		{"main handlers", fmt.Sprint(s.IPC.MainHandlers)}, {"unpaired sends", fmt.Sprint(s.IPC.UnpairedLiteralRendererTransmissions)},
		{"findings", fmt.Sprint(len(r.Findings))}, {"modules", fmt.Sprint(r.Statistics.Modules)},
	}

	for i, h := range layerTitles {
		p.Layers = append(p.Layers, layerHead{X: marginLeft + i*columnWidth, Title: h})
	}
	domID := map[string]string{}
	for i, n := range g.Nodes {
		domID[n.ID] = fmt.Sprintf("n%d", i)
	}
	findingNode := map[int]string{}
	for _, n := range g.Nodes {
		for _, fi := range n.Findings {
			findingNode[fi] = domID[n.ID]
		}
	}
	vf := func(i int) viewFinding {
		f := g.Findings[i]
		return viewFinding{Finding: f, DOMID: fmt.Sprintf("f%d", i), Location: loc(f.Location), Node: findingNode[i]}
	}
	for _, n := range g.Nodes {
		v := viewNode{Node: n, DOMID: domID[n.ID], Short: short(n.Label, 24), ShortLoc: short(n.Location, 30)}
		for _, fi := range n.Findings {
			v.Findings = append(v.Findings, vf(fi))
		}
		if n.Collapsed {
			p.Collapsed++
		}
		p.Nodes = append(p.Nodes, v)
	}
	for _, e := range g.Edges {
		a, b := g.node(e.From), g.node(e.To)
		x1, y1 := a.X+nodeWidth, a.Y+nodeHeight/2
		x2, y2 := b.X, b.Y+nodeHeight/2
		mid := (x1 + x2) / 2
		class := "edge"
		if e.Pairing != "" {
			class += " pairing-" + cssWord(e.Pairing)
		}
		title := e.Label
		if e.Pairing != "" {
			title += " (" + e.Pairing + ")"
		}
		p.Edges = append(p.Edges, viewEdge{Path: fmt.Sprintf("M%d %d C%d %d %d %d %d %d", x1, y1, mid, y1, mid, y2, x2, y2),
			Class: class, Title: title, Collapsed: e.Collapsed})
	}

	order := []string{"high", "medium", "low", "info"}
	bySev := map[string][]viewFinding{}
	idx := make([]int, len(g.Findings))
	for i := range idx {
		idx[i] = i
	}
	for _, i := range idx {
		sev := g.Findings[i].Severity
		if _, ok := severityRank[sev]; !ok {
			sev = "info"
		}
		bySev[sev] = append(bySev[sev], vf(i))
	}
	for _, sev := range order {
		if len(bySev[sev]) > 0 {
			p.Groups = append(p.Groups, severityGroup{Severity: sev, Findings: bySev[sev]})
		}
	}
	for _, sev := range order {
		for _, f := range bySev[sev] {
			if len(p.Top) < 5 && (sev == "high" || sev == "medium") {
				p.Top = append(p.Top, f)
			}
		}
	}
	p.FindingsTotal = len(g.Findings)
	unattached := 0
	for i := range g.Findings {
		if findingNode[i] == "" {
			unattached++
		}
	}
	if unattached > 0 {
		p.UnattachedNote = fmt.Sprintf("%d findings are in files with no node in the graph; they are listed below only.", unattached)
	}

	for _, w := range r.Windows {
		t := windowTable{Title: fmt.Sprintf("%s at %s (options %s)", w.Kind, loc(w.Location), w.Coverage)}
		keys := make([]string, 0, len(w.WebPreferences))
		for k := range w.WebPreferences {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := w.WebPreferences[k]
			t.Rows = append(t.Rows, Fact{k, fmt.Sprintf("%v — %s", v.Value, v.State)})
		}
		if len(keys) == 0 {
			t.Rows = append(t.Rows, Fact{"webPreferences", "none given (Electron's defaults apply)"})
		}
		if w.Preload != nil {
			t.Preload = strings.TrimSpace(w.Preload.Module + " " + w.Preload.Expression + " (" + w.Preload.State + ")")
		}
		for _, l := range w.Loads {
			t.Loads = append(t.Loads, Fact{l.Method, l.Target + " (" + l.State + ")"})
		}
		p.Windows = append(p.Windows, t)
	}

	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("htmlreport: render: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// cssWord keeps a class name to letters, digits and dashes.
func cssWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
