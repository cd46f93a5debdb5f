package capture

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
)

// NormalizationRules is the fixed rule set that turns one run's output into
// a form comparable with another run's. It is committed by digest in the
// manifest, so two captures compare only under the same rules.
type NormalizationRules struct {
	SchemaVersion int `json:"schema_version"`
	// Paths are the run-specific paths replaced, longest first, by the
	// placeholder named here.
	Paths []string `json:"paths"`
	// PIDs: decimal pids of processes the run observed become <pid:N>,
	// numbered in order of first observation.
	PIDs string `json:"pids"`
	// Ports: host:port on loopback and wildcard addresses becomes host:<port>.
	Ports string `json:"ports"`
	// RunID: the ownership token becomes <run_id>.
	RunID string `json:"run_id"`
	// Sensitive: sensitive input of 3 bytes or more (without its line
	// ending) becomes [redacted] in every recorded output.
	Sensitive string `json:"sensitive"`
}

// Rules is the normalisation this build applies.
func Rules() NormalizationRules {
	return NormalizationRules{
		SchemaVersion: 1,
		Paths:         []string{"<executable>", "<cwd>", "<root:N>", "<env:HOME>", "<env:TMPDIR>"},
		PIDs:          "<pid:N> for whole-word decimal pids of observed owned processes",
		Ports:         portPattern.String(),
		RunID:         "<run_id>",
		Sensitive:     Redacted,
	}
}

var portPattern = regexp.MustCompile(`(\blocalhost|\b127\.0\.0\.1|\b0\.0\.0\.0|\[::1?\]):([0-9]{1,5})\b`)

// normalizer applies Rules with one run's concrete values.
type normalizer struct {
	paths [][2][]byte // value, placeholder; longest value first
	pids  [][2][]byte
	runID []byte
}

func newNormalizer(executable, cwd string, roots []string, env map[string]string, runID string, pids []int) *normalizer {
	n := &normalizer{runID: []byte(runID)}
	add := func(v, ph string) {
		if len(v) > 1 { // never replace "/" alone
			n.paths = append(n.paths, [2][]byte{[]byte(v), []byte(ph)})
		}
	}
	add(executable, "<executable>")
	add(cwd, "<cwd>")
	for i, r := range roots {
		add(r, "<root:"+strconv.Itoa(i)+">")
	}
	add(env["HOME"], "<env:HOME>")
	add(env["TMPDIR"], "<env:TMPDIR>")
	sort.SliceStable(n.paths, func(i, j int) bool { return len(n.paths[i][0]) > len(n.paths[j][0]) })
	for i, p := range pids {
		n.pids = append(n.pids, [2][]byte{[]byte(strconv.Itoa(p)), []byte("<pid:" + strconv.Itoa(i+1) + ">")})
	}
	return n
}

// apply normalises text.
func (n *normalizer) apply(b []byte) []byte {
	if len(n.runID) > 0 {
		b = bytes.ReplaceAll(b, n.runID, []byte("<run_id>"))
	}
	for _, p := range n.paths {
		b = bytes.ReplaceAll(b, p[0], p[1])
	}
	b = portPattern.ReplaceAll(b, []byte("$1:<port>"))
	for _, p := range n.pids {
		b = replaceWord(b, p[0], p[1])
	}
	return b
}

// replaceWord replaces old where it is not part of a longer run of digits.
func replaceWord(b, old, repl []byte) []byte {
	var out []byte
	i := 0
	for {
		j := bytes.Index(b[i:], old)
		if j < 0 {
			break
		}
		j += i
		end := j + len(old)
		if (j > 0 && isDigit(b[j-1])) || (end < len(b) && isDigit(b[end])) {
			out = append(out, b[i:end]...)
			i = end
			continue
		}
		out = append(out, b[i:j]...)
		out = append(out, repl...)
		i = end
	}
	if out == nil {
		return b
	}
	return append(out, b[i:]...)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// secrets are the sensitive inputs that must never be recorded.
type secrets [][]byte

func newSecrets(events []Event) secrets {
	var s secrets
	for _, e := range events {
		if !e.Sensitive {
			continue
		}
		v := bytes.TrimRight([]byte(e.Data), "\r\n")
		if len(v) >= 3 {
			s = append(s, v)
		}
	}
	sort.Slice(s, func(i, j int) bool { return len(s[i]) > len(s[j]) })
	return s
}

// scrub replaces every secret in b. A terminal echoes typed input, so
// sensitive input can come back in the output.
func (s secrets) scrub(b []byte) []byte {
	for _, v := range s {
		if bytes.Contains(b, v) {
			b = bytes.ReplaceAll(b, v, []byte(Redacted))
		}
	}
	return b
}
