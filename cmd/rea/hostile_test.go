package main_test

// The hostile-input suite (`make hostile`, part of `make test`): a corpus
// generated here at run time — nothing but these generators is committed —
// driven through the built binary the way a user would. Every case holds
// the suite's four promises besides its own: the host never crashes (no
// Go panic or stack trace in any output), never hangs past its deadline,
// never reads outside the input (a marker planted beside every input never
// appears in any output, by content or by hash), and every failure is a
// typed error. docs/hostile.md lists the cases, outcomes and promises.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"rea/wasm/wasmtest"
)

// hostileDeadline is how long one command of the suite may take before it
// counts as a hang: far above what any case needs on a loaded machine, far
// below "forever".
const hostileDeadline = 4 * time.Minute

// stackTrace matches what a Go crash prints: a goroutine header, a
// runtime stack, a frame's file:line, a signal.
var stackTrace = regexp.MustCompile(`goroutine \d+ \[|runtime stack:|\.go:\d+ \+0x|\[signal SIG|SIGSEGV`)

// typedCodes are the error codes of abi: a failure outside them is untyped.
var typedCodes = map[string]bool{
	"invalid_request": true, "resource_constraint": true, "cancelled": true, "module_failed": true,
	"module_unavailable": true, "artifact_integrity_mismatch": true, "artifact_operation_failed": true,
	"evidence_integrity_mismatch": true, "capability_unavailable": true, "unavailable": true, "truncated": true,
	"cleanup_incomplete": true, "revision_conflict": true, "bundle_unavailable": true,
	"process_capture_failed": true, "configuration_invalid": true, "internal": true,
}

// corpus is one generated input tree: every input sits in dir/in, beside
// dir/secret.txt, whose marker must never come out.
type corpus struct {
	dir, in   string
	marker    string
	markerSum string
}

func newCorpus(t *testing.T) *corpus {
	t.Helper()
	dir := t.TempDir()
	c := &corpus{dir: dir, in: filepath.Join(dir, "in"), marker: fmt.Sprintf("REA-HOSTILE-MARKER-%d", time.Now().UnixNano())}
	sum := sha256.Sum256([]byte(c.marker))
	c.markerSum = hex.EncodeToString(sum[:])
	if err := os.MkdirAll(c.in, 0o755); err != nil {
		t.Fatal(err)
	}
	c.write(t, "../secret.txt", []byte(c.marker))
	return c
}

func (c *corpus) write(t *testing.T, rel string, b []byte) string {
	t.Helper()
	p := filepath.Join(c.in, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (c *corpus) symlink(t *testing.T, target, rel string) {
	t.Helper()
	p := filepath.Join(c.in, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// outcome is one command's result, already checked against the suite's
// promises.
type outcome struct {
	stdout, stderr string
	code           int
	err            struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	took time.Duration
}

// run runs rea with --format json under the hang deadline and checks the
// promises every case keeps.
func (c *corpus) run(t *testing.T, env []string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, wasmtest.ReaBinary(t), append(args, "--format", "json")...)
	cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off", "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("rea %s hung: no answer within %s", strings.Join(args, " "), hostileDeadline)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		o.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{o.stdout, o.stderr} {
		if crash := stackTrace.FindString(s); crash != "" {
			t.Fatalf("rea %s: a crash or stack trace (%q) reached the user:\n%.2000s", strings.Join(args, " "), crash, s)
		}
		if strings.Contains(s, c.marker) || strings.Contains(s, c.markerSum) {
			t.Fatalf("rea %s read outside its input: the marker beside it came out", strings.Join(args, " "))
		}
	}
	switch o.code {
	case 0, 2, 3:
	case 1:
		var e struct {
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(out.Bytes(), &e) != nil || json.Unmarshal(e.Error, &o.err) != nil || !typedCodes[o.err.Code] {
			t.Fatalf("rea %s failed without a typed error:\nstdout %.1000s\nstderr %.1000s", strings.Join(args, " "), o.stdout, o.stderr)
		}
	default:
		t.Fatalf("rea %s exited %d:\n%.1000s\n%.1000s", strings.Join(args, " "), o.code, o.stdout, o.stderr)
	}
	return o
}

// noMarkerUnder fails if any file under dir holds the marker.
func (c *corpus) noMarkerUnder(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(c.marker)) {
			t.Fatalf("%s holds the marker from outside the input", p)
		}
		return nil
	})
}

func wantError(t *testing.T, o outcome, code string, says ...string) {
	t.Helper()
	if o.code != 1 || o.err.Code != code {
		t.Fatalf("want %s, got exit %d %s: %s\n%.1500s", code, o.code, o.err.Code, o.err.Message, o.stdout)
	}
	for _, s := range says {
		if !strings.Contains(o.err.Message, s) {
			t.Fatalf("the %s error does not say %q: %s", code, s, o.err.Message)
		}
	}
}

func wantOK(t *testing.T, o outcome) map[string]any {
	t.Helper()
	if o.code != 0 {
		t.Fatalf("want success, got exit %d %s: %s\n%.1500s", o.code, o.err.Code, o.err.Message, o.stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &v); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	return v
}

// wantPartial is a completed analysis that says it is partial (exit 2):
// a file refused for its own sake leaves the rest analysed, and coverage
// must not read complete.
func wantPartial(t *testing.T, o outcome) map[string]any {
	t.Helper()
	if o.code != 2 || !strings.Contains(o.stderr, "coverage: partial") {
		t.Fatalf("want a partial analysis (exit 2), got exit %d %s: %s\n%.1500s", o.code, o.err.Code, o.err.Message, o.stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &v); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	if v["normalized_result"].(map[string]any)["coverage"] != "partial" {
		t.Fatalf("the Evidence says coverage %v", v["normalized_result"].(map[string]any)["coverage"])
	}
	return v
}

// asarFile builds an ASAR from raw header JSON and data (the header may
// lie: that is the point).
func asarFile(header string, data []byte) []byte {
	pad := (4 - len(header)%4) % 4
	payload := 4 + len(header) + pad
	b := make([]byte, 16, 16+payload+len(data))
	binary.LittleEndian.PutUint32(b[0:], 4)
	binary.LittleEndian.PutUint32(b[4:], uint32(payload+4))
	binary.LittleEndian.PutUint32(b[8:], uint32(payload))
	binary.LittleEndian.PutUint32(b[12:], uint32(len(header)))
	b = append(b, header...)
	b = append(b, make([]byte, pad)...)
	return append(b, data...)
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// asarWithIntegrity is an ASAR of one file whose integrity names alg and
// declares hash.
func asarWithIntegrity(name, alg, hash string, data []byte) []byte {
	h := fmt.Sprintf(`{"files":{%q:{"size":%d,"offset":"0","integrity":{"algorithm":%q,"hash":%q,"blockSize":4194304,"blocks":[%q]}}}}`,
		name, len(data), alg, hash, hash)
	return asarFile(h, data)
}

func TestHostileArtifacts(t *testing.T) {
	t.Run("asar header lies", func(t *testing.T) {
		c := newCorpus(t)
		for name, b := range map[string][]byte{
			"size-past-end.asar":   asarFile(`{"files":{"a":{"size":999999,"offset":"0"}}}`, []byte("abc")),
			"offset-past-end.asar": asarFile(`{"files":{"a":{"size":3,"offset":"99999999"}}}`, []byte("abc")),
			"negative.asar":        asarFile(`{"files":{"a":{"size":-3,"offset":"0"}}}`, []byte("abc")),
			"header-too-long.asar": asarFile(`{"files":{}}`, nil)[:12],
			"not-json.asar":        asarFile(`{"files":{"a":`, []byte("abc")),
			"dotdot.asar":          asarFile(`{"files":{"..":{"files":{"secret.txt":{"size":3,"offset":"0"}}}}}`, []byte("abc")),
		} {
			p := c.write(t, name, b)
			o := c.run(t, nil, "inspect-artifact", p)
			if o.code != 1 {
				t.Fatalf("%s: a lying header was accepted: %.500s", name, o.stdout)
			}
		}
	})
	t.Run("zip-slip", func(t *testing.T) {
		c := newCorpus(t)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, n := range []string{"ok.txt", "../../evil.txt", "/abs/evil.txt", `..\win\evil.txt`} {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte("evil"))
		}
		zw.Close()
		p := c.write(t, "slip.zip", buf.Bytes())
		out := filepath.Join(c.dir, "out-slip")
		c.run(t, nil, "extract-artifact", p, "--output", out)
		if _, err := os.Stat(filepath.Join(c.dir, "evil.txt")); err == nil {
			t.Fatal("zip-slip wrote outside the output directory")
		}
		if _, err := os.Stat("/abs/evil.txt"); err == nil {
			t.Fatal("zip-slip wrote an absolute path")
		}
	})
	t.Run("symlink escapes of a directory", func(t *testing.T) {
		c := newCorpus(t)
		c.write(t, "app/package.json", []byte(`{"name":"x","main":"main.js"}`))
		c.symlink(t, "../../secret.txt", "app/main.js")
		c.symlink(t, filepath.Join(c.dir, "secret.txt"), "app/abs.js")
		c.symlink(t, "../..", "app/up")
		app := filepath.Join(c.in, "app")
		c.run(t, nil, "inspect-artifact", app)
		out := filepath.Join(c.dir, "out-links")
		c.run(t, nil, "extract-artifact", app, "--output", out)
		c.noMarkerUnder(t, out)
		c.run(t, nil, "analyze", app)
	})
	t.Run("asar.unpacked symlink leads outside the companion (issue 19.7)", func(t *testing.T) {
		c := newCorpus(t)
		main := []byte(`require("electron")`)
		hdr := fmt.Sprintf(`{"files":{"package.json":{"size":%d,"offset":"0"},"main.js":{"size":%d,"unpacked":true},"x":{"size":10,"unpacked":true}}}`,
			len(`{"name":"a","main":"main.js"}`), len(main))
		p := c.write(t, "app.asar", asarFile(hdr, []byte(`{"name":"a","main":"main.js"}`)))
		// Siblings of the archive, inside its mount (the archive's parent
		// directory), hold the marker: ln -s ../.ssh/id_rsa x.
		c.write(t, ".ssh/id_rsa", []byte(c.marker))
		c.write(t, "sibling.js", []byte(c.marker))
		c.symlink(t, "../.ssh/id_rsa", "app.asar.unpacked/x")
		c.symlink(t, "../sibling.js", "app.asar.unpacked/main.js")
		inv := wantOK(t, c.run(t, nil, "inspect-artifact", p, "--integrity-policy", "record-and-continue"))
		if !strings.Contains(fmt.Sprint(inv), "leading outside the .asar.unpacked directory") {
			t.Fatalf("the escaping companion links are not reported as such: %.2000s", fmt.Sprint(inv))
		}
		out := filepath.Join(c.dir, "out-unpacked")
		o := c.run(t, nil, "extract-artifact", p, "--output", out, "--path", "x")
		wantError(t, o, "unavailable", "leading outside")
		c.noMarkerUnder(t, c.dir+"/out-unpacked")
		c.run(t, nil, "analyze", p)
	})
	t.Run("bombs", func(t *testing.T) {
		c := newCorpus(t)
		// A deflated member of 64 MiB of zeros that declares 1,000 bytes.
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		var def bytes.Buffer
		fw, _ := flate.NewWriter(&def, flate.BestCompression)
		fw.Write(make([]byte, 64<<20))
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "bomb.bin", Method: zip.Deflate, UncompressedSize64: 1000, CompressedSize64: uint64(def.Len())})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(def.Bytes())
		zw.Close()
		p := c.write(t, "bomb.zip", buf.Bytes())
		o := c.run(t, nil, "inspect-artifact", p)
		if o.code != 1 {
			t.Fatalf("a member inflating past its declared size was accepted: %.500s", o.stdout)
		}
		// A 1 TiB sparse file declared in a directory: bounded, typed.
		f, err := os.Create(filepath.Join(c.in, "sparse", "huge.bin"))
		if err != nil {
			os.MkdirAll(filepath.Join(c.in, "sparse"), 0o755)
			f, err = os.Create(filepath.Join(c.in, "sparse", "huge.bin"))
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(1 << 40)
		f.Close()
		wantError(t, c.run(t, nil, "inspect-artifact", filepath.Join(c.in, "sparse")), "resource_constraint")
	})
	t.Run("fifos, sockets and devices (issue 19.14)", func(t *testing.T) {
		c := newCorpus(t)
		c.write(t, "d/a.txt", []byte("a"))
		if err := syscall.Mkfifo(filepath.Join(c.in, "d", "pipe.js"), 0o644); err != nil {
			t.Fatal(err)
		}
		o := c.run(t, nil, "inspect-artifact", filepath.Join(c.in, "d"))
		wantError(t, o, "artifact_operation_failed", "named pipe")
		wantError(t, c.run(t, nil, "analyze", filepath.Join(c.in, "d", "pipe.js")), "invalid_request", "named pipe")
		os.Remove(filepath.Join(c.in, "d", "pipe.js"))
		sock := filepath.Join(c.in, "d", "s.sock")
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Close(fd)
		if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
			t.Fatal(err)
		}
		o = c.run(t, nil, "inspect-artifact", filepath.Join(c.in, "d"))
		wantError(t, o, "artifact_operation_failed", "Unix socket")
		if strings.Contains(o.err.Message, "I/O error") {
			t.Fatalf("a socket reads as an I/O error: %s", o.err.Message)
		}
		os.Remove(sock)
		if err := syscall.Mknod(filepath.Join(c.in, "d", "null"), syscall.S_IFCHR|0o644, 1<<8|3); err != nil {
			t.Logf("mknod needs CAP_MKNOD (%v): the device case is not exercised here", err)
			return
		}
		o = c.run(t, nil, "inspect-artifact", filepath.Join(c.in, "d"))
		wantError(t, o, "artifact_operation_failed", "character device")
		if strings.Contains(o.err.Message, "Dc-") {
			t.Fatalf("a device prints as a mode string: %s", o.err.Message)
		}
	})
	t.Run("extraction is all-or-nothing and names its cause (issue 19.11)", func(t *testing.T) {
		c := newCorpus(t)
		long := strings.Repeat("n", 300)
		hdr := fmt.Sprintf(`{"files":{"a.txt":{"size":1,"offset":"0"},%q:{"size":1,"offset":"1"}}}`, long)
		p := c.write(t, "long.asar", asarFile(hdr, []byte("ab")))
		parent := filepath.Join(c.dir, "outs")
		os.Mkdir(parent, 0o755)
		out := filepath.Join(parent, "x")
		o := c.run(t, nil, "extract-artifact", p, "--output", out)
		wantError(t, o, "artifact_operation_failed", "too long", "nothing was published")
		if strings.Contains(o.err.Message, "never overwrites") {
			t.Fatalf("a name-too-long error blames overwriting: %s", o.err.Message)
		}
		if left, _ := os.ReadDir(parent); len(left) != 0 {
			t.Fatalf("a failed extraction left %v behind", left)
		}
		// A good extraction publishes everything at once.
		good := c.write(t, "good.asar", asarFile(`{"files":{"a.txt":{"size":1,"offset":"0"},"b":{"files":{"c.txt":{"size":1,"offset":"1"}}}}}`, []byte("ab")))
		wantOK(t, c.run(t, nil, "extract-artifact", good, "--output", out))
		if b, err := os.ReadFile(filepath.Join(out, "b", "c.txt")); err != nil || string(b) != "b" {
			t.Fatalf("published extraction: %q %v", b, err)
		}
		if left, _ := os.ReadDir(parent); len(left) != 1 {
			t.Fatalf("staging left behind: %v", left)
		}
	})
	t.Run("unknown integrity algorithms (issue 19.12)", func(t *testing.T) {
		c := newCorpus(t)
		data := []byte("tampered bytes")
		wrong := sha([]byte("the original bytes"))
		for _, alg := range []string{"sha256", "MD5"} {
			p := c.write(t, alg+".asar", asarWithIntegrity("a.js", alg, wrong, data))
			wantError(t, c.run(t, nil, "inspect-artifact", p), "artifact_integrity_mismatch", alg, "cannot verify")
			inv := wantOK(t, c.run(t, nil, "inspect-artifact", p, "--integrity-policy", "record-and-continue"))
			s := fmt.Sprint(inv)
			if !strings.Contains(s, "hash_status:unverifiable") || strings.Contains(s, "hash_status:verified") {
				t.Fatalf("%s: an unknown algorithm must be unverifiable, never verified: %.1500s", alg, s)
			}
		}
		// SHA256 itself still verifies and still catches tampering.
		p := c.write(t, "SHA256.asar", asarWithIntegrity("a.js", "SHA256", wrong, data))
		wantError(t, c.run(t, nil, "inspect-artifact", p), "artifact_integrity_mismatch")
		p = c.write(t, "good.asar", asarWithIntegrity("a.js", "SHA256", sha(data), data))
		if s := fmt.Sprint(wantOK(t, c.run(t, nil, "inspect-artifact", p))); !strings.Contains(s, "hash_status:verified") {
			t.Fatalf("a correct SHA256 is not verified: %.1500s", s)
		}
	})
	t.Run("disk image trailers lie", func(t *testing.T) {
		c := newCorpus(t)
		// A UDIF "koly" trailer whose property list lies past the end, past
		// 2^63 or is 2^62 bytes long; an encrypted header; a bare HFS+
		// volume header with nothing behind it. Each is refused typed by
		// every artifact command, naming what is wrong, reading nothing it
		// declares (hostile volumes inside a real image: dmg_test.go).
		koly := func(off, n uint64) []byte {
			b := make([]byte, 1024+512)
			copy(b, "Apple_HFS")
			k := b[1024:]
			copy(k, "koly")
			binary.BigEndian.PutUint32(k[4:], 4)
			binary.BigEndian.PutUint32(k[8:], 512)
			binary.BigEndian.PutUint64(k[216:], off)
			binary.BigEndian.PutUint64(k[224:], n)
			return b
		}
		bare := make([]byte, 4096)
		copy(bare[1024:], "H+\x00\x04")
		for name, want := range map[string]struct {
			b    []byte
			code string
			says []string
		}{
			"past-end.dmg":  {koly(1000, 4000), "artifact_operation_failed", []string{"places the property list (4000 bytes at 1000) outside the 1024 bytes before it"}},
			"overflow.dmg":  {koly(1<<63, 1<<63), "resource_constraint", []string{"max_header_bytes"}},
			"huge.dmg":      {koly(0, 1<<62), "resource_constraint", []string{"max_header_bytes"}},
			"encrypted.dmg": {append([]byte("encrcdsa\x00\x00\x00\x02"), make([]byte, 1024)...), "capability_unavailable", []string{"encrypted.dmg", "7z x"}},
			"volume.hfs":    {bare, "capability_unavailable", []string{"volume.hfs", "7z x"}},
		} {
			p := c.write(t, name, want.b)
			out := filepath.Join(c.dir, "out-"+name)
			for _, args := range [][]string{{"inspect-artifact", p}, {"analyze", p}, {"extract-artifact", p, "--path", "**", "--output", out}} {
				wantError(t, c.run(t, nil, args...), want.code, want.says...)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%s: a refused extraction created %s", name, out)
			}
		}
	})
}

func TestHostileJavaScript(t *testing.T) {
	app := func(t *testing.T, c *corpus, files map[string]string) string {
		t.Helper()
		c.write(t, "app/package.json", []byte(`{"name":"hostile","main":"main.js"}`))
		c.write(t, "app/main.js", []byte("const { BrowserWindow } = require(\"electron\");\nnew BrowserWindow({ webPreferences: { nodeIntegration: true } }).loadFile(\"index.html\");\n"))
		for n, src := range files {
			c.write(t, "app/"+n, []byte(src))
		}
		return filepath.Join(c.in, "app")
	}
	findings := func(t *testing.T, v map[string]any) string {
		t.Helper()
		b, _ := json.Marshal(v)
		if !strings.Contains(string(b), "nodeIntegration") {
			t.Fatalf("the rest of the application was not analysed: %.1500s", b)
		}
		return string(b)
	}
	t.Run("50,000 unclosed script tags degrade one page (issue 19.8)", func(t *testing.T) {
		c := newCorpus(t)
		dir := app(t, c, map[string]string{"index.html": "<html>" + strings.Repeat("<script>", 50_000)})
		s := findings(t, wantPartial(t, c.run(t, nil, "analyze-javascript-application", dir, "--detail", "complete")))
		if !strings.Contains(s, "script and webview elements; only the first") {
			t.Fatalf("the page's budget is not reported: %.1500s", s)
		}
	})
	t.Run("deep call and new chains refuse one file (issue 19.9)", func(t *testing.T) {
		c := newCorpus(t)
		dir := app(t, c, map[string]string{
			"calls.js":   "x = f" + strings.Repeat("()", 500_000) + ";\n",
			"news.js":    "x = " + strings.Repeat("new ", 100_000) + "F;\n",
			"index.html": "<html></html>",
		})
		s := findings(t, wantPartial(t, c.run(t, nil, "analyze-javascript-application", dir, "--detail", "complete")))
		for _, f := range []string{"calls.js", "news.js"} {
			if !strings.Contains(s, f) {
				t.Fatalf("%s is not reported as refused: %.2000s", f, s)
			}
		}
		if !strings.Contains(s, "operators chain") {
			t.Fatalf("the refusal does not say why: %.2000s", s)
		}
	})
	t.Run("operator and bracket depth bombs", func(t *testing.T) {
		c := newCorpus(t)
		dir := app(t, c, map[string]string{
			"brackets.js": strings.Repeat("[", 200_000),
			"plus.js":     "x = " + strings.Repeat("a + ", 200_000) + "b;",
			"arrows.js":   "x = " + strings.Repeat("a => ", 100_000) + "b;",
			"index.html":  "<html></html>",
		})
		findings(t, wantPartial(t, c.run(t, nil, "analyze-javascript-application", dir)))
	})
}

func TestHostileNative(t *testing.T) {
	t.Run("section and segment counts that lie name no hidden limit (issue 19.14)", func(t *testing.T) {
		c := newCorpus(t)
		// An ELF header that declares 60,000 sections and 60,000 program headers.
		h := make([]byte, 64)
		copy(h, "\x7fELF\x02\x01\x01")
		binary.LittleEndian.PutUint16(h[16:], 2)
		binary.LittleEndian.PutUint16(h[18:], 62)
		binary.LittleEndian.PutUint32(h[20:], 1)
		binary.LittleEndian.PutUint64(h[32:], 64)
		binary.LittleEndian.PutUint64(h[40:], 64)
		binary.LittleEndian.PutUint16(h[52:], 64)
		binary.LittleEndian.PutUint16(h[54:], 56)
		binary.LittleEndian.PutUint16(h[56:], 60000)
		binary.LittleEndian.PutUint16(h[58:], 64)
		binary.LittleEndian.PutUint16(h[60:], 60000)
		p := c.write(t, "lies.elf", append(h, make([]byte, 4096)...))
		o := c.run(t, nil, "layout", p)
		if o.code != 1 || strings.Contains(o.err.Message, "raise max_") {
			t.Fatalf("want a typed refusal naming no hidden limit, got exit %d: %s", o.code, o.err.Message)
		}
	})
	t.Run("a runtime abort is typed and carries no stack trace (issue 19.10)", func(t *testing.T) {
		c := newCorpus(t)
		dir := probeDir(t)
		o := c.run(t, nil, "modules", "run", "probe", "--module-dir", dir, "--memory-limit", "64MiB", "--request", c.write(t, "r1.json", []byte(`{"operation":"fill-then-panic","params":{"mib":48}}`)))
		wantError(t, o, "resource_constraint")
		if o.err.Details["resource"] != "memory" {
			t.Fatalf("an abort at the memory limit is not a memory limit: %v", o.err)
		}
		o = c.run(t, nil, "modules", "run", "probe", "--module-dir", dir, "--request", c.write(t, "r2.json", []byte(`{"operation":"panic"}`)))
		wantError(t, o, "module_failed")
	})
	t.Run("--memory-limit 0 is refused like --fuel 0 (issue 19.14)", func(t *testing.T) {
		c := newCorpus(t)
		p := c.write(t, "x.bin", []byte("x"))
		wantError(t, c.run(t, nil, "layout", p, "--memory-limit", "0"), "invalid_request", "--memory-limit")
		wantError(t, c.run(t, nil, "layout", p, "--fuel", "0"), "invalid_request", "--fuel")
	})
	t.Run("a truncated compiled-module cache entry is recompiled (issue 19.13)", func(t *testing.T) {
		c := newCorpus(t)
		cache := filepath.Join(c.dir, "cache")
		env := []string{"XDG_CACHE_HOME=" + cache}
		req := c.write(t, "echo.json", []byte(`{"operation":"echo","params":{"n":1}}`))
		dir := probeDir(t)
		wantOK(t, c.run(t, env, "modules", "run", "probe", "--module-dir", dir, "--request", req))
		var entries []string
		filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && info.Size() > 4096 {
				entries = append(entries, p)
			}
			return nil
		})
		if len(entries) == 0 {
			t.Fatalf("no compiled-module cache entry under %s", cache)
		}
		for _, e := range entries {
			if err := os.Truncate(e, 1000); err != nil {
				t.Fatal(err)
			}
		}
		wantOK(t, c.run(t, env, "modules", "run", "probe", "--module-dir", dir, "--request", req))
		wantOK(t, c.run(t, env, "modules", "run", "probe", "--module-dir", dir, "--request", req))
	})
}
