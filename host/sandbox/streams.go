package sandbox

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"rea/abi"
)

// boundedWriter keeps stdout up to limit bytes and calls onOverflow once
// when the guest writes past it; the write then fails so the guest cannot
// make progress writing.
type boundedWriter struct {
	limit      int64
	buf        bytes.Buffer
	overflowed bool
	onOverflow func()
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.overflowed {
		return 0, outputLimitError{}
	}
	if int64(w.buf.Len())+int64(len(p)) > w.limit {
		w.overflowed = true
		if w.onOverflow != nil {
			w.onOverflow()
		}
		return 0, outputLimitError{}
	}
	return w.buf.Write(p)
}

type outputLimitError struct{}

func (outputLimitError) Error() string { return "output limit reached" }

// progressWriter splits stderr into lines: progress lines go to the
// callback, anything else is kept as a bounded diagnostic (head and tail).
type progressWriter struct {
	onProgress func(abi.Progress)
	mu         sync.Mutex
	partial    []byte
	head, tail []byte
	dropped    int64
}

const (
	excerptHead = 4 << 10
	excerptTail = 4 << 10
	maxLine     = 64 << 10
)

// setProgress names the callback for progress lines; an instance started
// ahead of its request learns it when the request arrives.
func (w *progressWriter) setProgress(f func(abi.Progress)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onProgress = f
}

func (w *progressWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(w.partial)+len(p) > maxLine {
				w.diagnostic(append(w.partial, p...))
				w.partial = w.partial[:0]
			} else {
				w.partial = append(w.partial, p...)
			}
			break
		}
		line := append(w.partial, p[:i]...)
		w.partial = w.partial[:0]
		p = p[i+1:]
		w.line(line)
	}
	return n, nil
}

func (w *progressWriter) line(line []byte) {
	if bytes.HasPrefix(line, []byte(`{"progress"`)) {
		var pl abi.ProgressLine
		if json.Unmarshal(line, &pl) == nil && pl.Progress != nil {
			if w.onProgress != nil {
				w.onProgress(*pl.Progress)
			}
			return
		}
	}
	w.diagnostic(append(line, '\n'))
}

func (w *progressWriter) diagnostic(b []byte) {
	if room := excerptHead - len(w.head); room > 0 {
		k := min(room, len(b))
		w.head = append(w.head, b[:k]...)
		b = b[k:]
	}
	if len(b) == 0 {
		return
	}
	w.tail = append(w.tail, b...)
	if over := len(w.tail) - excerptTail; over > 0 {
		w.dropped += int64(over)
		w.tail = append(w.tail[:0], w.tail[over:]...)
	}
}

func (w *progressWriter) mentions(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Contains(w.head, []byte(s)) || bytes.Contains(w.tail, []byte(s)) || bytes.Contains(w.partial, []byte(s))
}

// excerpt is the bounded stderr text for module_failed diagnostics.
func (w *progressWriter) excerpt() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	b.Write(w.head)
	if w.dropped > 0 {
		b.WriteString("\n…[stderr excerpt omits bytes]…\n")
	}
	b.Write(w.tail)
	b.Write(w.partial)
	return strings.TrimSpace(b.String())
}

// abortReason is the first line of a Go runtime abort ("fatal error: …",
// "panic: …", "runtime: …"), or "no reason written".
func (w *progressWriter) abortReason() string {
	for _, line := range strings.Split(w.excerpt(), "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"fatal error:", "panic:", "runtime:"} {
			if strings.HasPrefix(line, p) {
				return clip(line, 200)
			}
		}
	}
	return "no reason written"
}

// withoutStackTraces drops Go stack traces from a module's stderr: from the
// first "goroutine N [" line or "runtime stack:" on, the text is frames of
// the module's own code, which no user can act on and which would only
// bloat an error. The abort line before them stays.
func withoutStackTraces(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "runtime stack:") || (strings.HasPrefix(t, "goroutine ") && strings.HasSuffix(t, ":") && strings.Contains(t, "[")) {
			return strings.TrimSpace(strings.Join(lines[:i], "\n")) + "\n[Go stack trace omitted]"
		}
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
