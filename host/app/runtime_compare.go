package app

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"rea/abi"
	"rea/host/devtools"
	"rea/host/evidence"
	"rea/host/sandbox"
)

// screenshotBytes returns the PNG a capture_web_screenshot record names,
// from its base64 copy or its file, verified against the digest the record
// holds: a screenshot that does not match its Evidence is refused.
func screenshotBytes(rec evidence.Record, field string) ([]byte, string, error) {
	if rec.Operation != "capture_web_screenshot" {
		return nil, "", abi.Errorf(abi.CodeInvalidRequest, "%s: %s is %s Evidence; give capture_web_screenshot Evidence", field, rec.EvidenceID, rec.Operation).WithDetail("field", field)
	}
	var s ScreenshotResult
	if err := json.Unmarshal(rec.NormalizedResult, &s); err != nil {
		return nil, "", abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err).WithDetail("field", field)
	}
	var data []byte
	var err error
	switch {
	case s.PNGBase64 != "":
		data, err = base64.StdEncoding.DecodeString(s.PNGBase64)
	case s.Path != "":
		if st, serr := os.Stat(s.Path); serr == nil && st.Size() > MaxImageBytes {
			return nil, "", abi.Errorf(abi.CodeResourceConstraint, "%s: %s is over %d bytes", field, s.Path, MaxImageBytes).WithDetail("resource", "memory")
		}
		data, err = os.ReadFile(s.Path)
	default:
		err = fmt.Errorf("the record carries neither the image nor its path")
	}
	if err != nil {
		return nil, "", abi.Errorf(abi.CodeInvalidRequest, "%s: the screenshot of %s cannot be read: %v", field, rec.EvidenceID, err).WithDetail("field", field)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != s.SHA256 {
		return nil, "", abi.Errorf(abi.CodeArtifactIntegrity, "%s: the screenshot's bytes hash to %s, not the %s its Evidence records", field, got, s.SHA256).WithDetail("field", field)
	}
	return data, s.SHA256, nil
}

// ScreenshotLimits bound a pixel comparison (the compare module's
// screenshots.Limits on the wire; the host does not link the PNG decoder).
type ScreenshotLimits struct {
	ChannelThreshold int `json:"channel_threshold"`
	MaximumPixels    int `json:"maximum_pixels"`
}

// CompareWebScreenshots compares two self-verifying screenshots pixel by
// pixel in the compare module.
func (a *App) CompareWebScreenshots(ctx context.Context, left, right evidence.Record, limits ScreenshotLimits, progress func(abi.Progress)) (evidence.Record, error) {
	l, ls, err := screenshotBytes(left, "left")
	if err != nil {
		return evidence.Record{}, err
	}
	r, rs, err := screenshotBytes(right, "right")
	if err != nil {
		return evidence.Record{}, err
	}
	dir, err := os.MkdirTemp("", "rea-screenshots-")
	if err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInternal, "screenshot folder: %v", err)
	}
	defer os.RemoveAll(dir)
	for name, data := range map[string][]byte{"left.png": l, "right.png": r} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return evidence.Record{}, abi.Errorf(abi.CodeInternal, "screenshot folder: %v", err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInternal, "screenshot folder: %v", err)
	}
	defer root.Close()
	out, err := a.Runner.Run(ctx, sandbox.Call{Module: CompareModule, Operation: "compare_web_screenshots", Params: map[string]any{"limits": limits},
		Limits: a.Config.Limits, Progress: progress, Mounts: []sandbox.Mount{{GuestPath: "/in", FS: sandbox.DirFS(root)}}})
	if err != nil {
		return evidence.Record{}, err
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeModuleFailed, "the compare module answered with an unreadable result: %v", err)
	}
	res["left_sha256"], _ = json.Marshal(ls)
	res["right_sha256"], _ = json.Marshal(rs)
	var limitations []string
	_ = json.Unmarshal(res["limitations"], &limitations)
	version := out.Module.SHA256
	return evidence.New(evidence.Draft{
		Provider:         evidence.Provider{ID: "rea.compare", Name: "rea comparison", Version: &version},
		PredicateType:    "rea.comparison/v1",
		Operation:        "compare_web_screenshots",
		Parameters:       map[string]any{"left": left.EvidenceID, "right": right.EvidenceID, "limits": limits},
		NormalizedResult: res,
		Confidence:       evidence.ConfidenceDerived,
		Authority:        evidence.AuthorityExternalService,
		Limitations:      limitations,
		EvidenceLinks:    []string{left.EvidenceID, right.EvidenceID},
	})
}

// CaptureDifference is one fact that differs between two page captures.
type CaptureDifference struct {
	Kind   string `json:"kind"` // script, global, csp, element-count, frame, console, request
	Key    string `json:"key"`
	Status string `json:"status"` // added, removed, changed
	Left   string `json:"left,omitempty"`
	Right  string `json:"right,omitempty"`
}

// CaptureComparison is what compare_web_captures records.
type CaptureComparison struct {
	Status      string              `json:"status"` // unchanged, changed, unknown
	Differences []CaptureDifference `json:"differences"`
	Counts      map[string]int      `json:"counts"`
	Limitations []string            `json:"limitations"`
}

// pageSide is the part of a capture that compare_web_captures compares.
type pageSide struct {
	page     *devtools.Inspection
	timeline *devtools.Observation
	complete bool
}

func captureSide(rec evidence.Record, field string) (pageSide, error) {
	var side pageSide
	switch rec.Operation {
	case "inspect_web_page", "inspect_electron_page":
		var ins devtools.Inspection
		if err := json.Unmarshal(rec.NormalizedResult, &ins); err != nil {
			return side, abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err).WithDetail("field", field)
		}
		side.page, side.complete = &ins, ins.Complete
	case "capture_browser_scenario", "capture_electron_scenario":
		var sc ScenarioCapture
		if err := json.Unmarshal(rec.NormalizedResult, &sc); err != nil {
			return side, abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err).WithDetail("field", field)
		}
		side.page, side.timeline, side.complete = sc.FinalPage, sc.Timeline, sc.Complete
	case "observe_web_session":
		var obs devtools.Observation
		if err := json.Unmarshal(rec.NormalizedResult, &obs); err != nil {
			return side, abi.Errorf(abi.CodeInvalidRequest, "%s: %v", field, err).WithDetail("field", field)
		}
		side.timeline, side.complete = &obs, obs.Complete
	default:
		return side, abi.Errorf(abi.CodeInvalidRequest, "%s: %s is %s Evidence; give inspect_web_page, inspect_electron_page, observe_web_session or capture_*_scenario Evidence", field, rec.EvidenceID, rec.Operation).WithDetail("field", field)
	}
	return side, nil
}

// CompareWebCaptures compares two captures of a page (inspections, the
// final pages of scenarios, or timelines): scripts by URL and digest, own
// globals, CSP, element counts, and the console and request counts of
// timelines. A partial side makes absent facts unknown, never removed.
func (a *App) CompareWebCaptures(left, right evidence.Record) (evidence.Record, error) {
	l, err := captureSide(left, "left")
	if err != nil {
		return evidence.Record{}, err
	}
	r, err := captureSide(right, "right")
	if err != nil {
		return evidence.Record{}, err
	}
	res := CaptureComparison{Differences: []CaptureDifference{}, Counts: map[string]int{}, Limitations: []string{}}
	add := func(d CaptureDifference) {
		res.Differences = append(res.Differences, d)
		res.Counts[d.Status]++
	}
	diffSets := func(kind string, lm, rm map[string]string) {
		for _, k := range sortedKeysOf(lm) {
			rv, ok := rm[k]
			switch {
			case !ok && !r.complete:
				add(CaptureDifference{Kind: kind, Key: k, Status: "unknown", Left: lm[k]})
			case !ok:
				add(CaptureDifference{Kind: kind, Key: k, Status: "removed", Left: lm[k]})
			case rv != lm[k]:
				add(CaptureDifference{Kind: kind, Key: k, Status: "changed", Left: lm[k], Right: rv})
			}
		}
		for _, k := range sortedKeysOf(rm) {
			if _, ok := lm[k]; !ok {
				status := "added"
				if !l.complete {
					status = "unknown"
				}
				add(CaptureDifference{Kind: kind, Key: k, Status: status, Right: rm[k]})
			}
		}
	}
	if l.page != nil && r.page != nil {
		scripts := func(p *devtools.Inspection) map[string]string {
			m := map[string]string{}
			for _, s := range p.Scripts {
				key := s.URL
				if s.Inline {
					key = "inline:" + s.SHA256
				}
				m[key] = s.SHA256
			}
			return m
		}
		globals := func(p *devtools.Inspection) map[string]string {
			m := map[string]string{}
			for _, g := range p.ExposedGlobals {
				m[g.Name] = g.Type
			}
			return m
		}
		csp := func(p *devtools.Inspection) map[string]string {
			m := map[string]string{}
			for i, c := range p.CSP {
				m[fmt.Sprintf("meta[%d]", i)] = c
			}
			return m
		}
		counts := func(p *devtools.Inspection) map[string]string {
			m := map[string]string{}
			for k, v := range p.Elements {
				m[k] = fmt.Sprint(v)
			}
			return m
		}
		diffSets("script", scripts(l.page), scripts(r.page))
		diffSets("global", globals(l.page), globals(r.page))
		diffSets("csp", csp(l.page), csp(r.page))
		diffSets("element-count", counts(l.page), counts(r.page))
	} else if l.page != nil || r.page != nil {
		res.Limitations = append(res.Limitations, "only one side has a page inventory; pages were not compared")
	}
	if l.timeline != nil && r.timeline != nil {
		kinds := map[string]bool{}
		for k := range l.timeline.Counts {
			kinds[k] = true
		}
		for k := range r.timeline.Counts {
			kinds[k] = true
		}
		keys := make([]string, 0, len(kinds))
		for k := range kinds {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if lv, rv := l.timeline.Counts[k], r.timeline.Counts[k]; lv != rv {
				add(CaptureDifference{Kind: "timeline-count", Key: k, Status: "changed", Left: fmt.Sprint(lv), Right: fmt.Sprint(rv)})
			}
		}
	}
	switch {
	case res.Counts["unknown"] > 0:
		res.Status = "unknown"
	case len(res.Differences) > 0:
		res.Status = "changed"
	default:
		res.Status = "unchanged"
	}
	if !l.complete || !r.complete {
		res.Limitations = append(res.Limitations, "a side is partial: a fact it lacks is unknown, not added or removed")
	}
	v := "1"
	return evidence.New(evidence.Draft{
		Provider:         evidence.Provider{ID: "rea.runtime-compare", Name: "rea capture comparison", Version: &v},
		PredicateType:    "rea.comparison/v1",
		Operation:        "compare_web_captures",
		Parameters:       map[string]any{"left": left.EvidenceID, "right": right.EvidenceID},
		NormalizedResult: res,
		Confidence:       evidence.ConfidenceDerived,
		Authority:        evidence.AuthorityExternalService,
		Limitations:      res.Limitations,
		EvidenceLinks:    []string{left.EvidenceID, right.EvidenceID},
	})
}
