package abi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
)

// Handler answers one operation. It returns the result object or a typed
// *Error; any other error becomes an internal error.
type Handler func(params json.RawMessage, progress *Reporter) (any, error)

// Reporter writes progress lines to the module's stderr.
type Reporter struct{ w io.Writer }

// NewReporter returns a Reporter writing to w.
func NewReporter(w io.Writer) *Reporter { return &Reporter{w: w} }

// Report writes one progress line. Errors are ignored: progress is advisory.
func (r *Reporter) Report(p Progress) {
	if r == nil || r.w == nil {
		return
	}
	b, _ := json.Marshal(ProgressLine{Progress: &p})
	b = append(b, '\n')
	_, _ = r.w.Write(b)
}

// Serve is the whole main function of a module: decode the request from
// stdin, dispatch to the named handler, encode the response on stdout and
// exit with the matching code.
func Serve(handlers map[string]Handler) {
	os.Exit(ServeIO(os.Stdin, os.Stdout, os.Stderr, handlers))
}

// ServePrepared is Serve with request-independent preparation first:
// opening data embedded in the module, warming encoding/json's per-type
// caches for the result types (a fresh instance starts with them empty,
// and building them costs a small request more than its own work). The
// host may start an instance before its request arrives, so whatever
// prepare does then happens off the request's latency. It must not depend
// on anything but the module itself.
func ServePrepared(prepare func(), handlers map[string]Handler) {
	prepare()
	Serve(handlers)
}

// WarmEncoders builds encoding/json's encoder for each value's type (give
// samples whose slices hold one element, so nested types are reached), for
// use in a ServePrepared preparation.
func WarmEncoders(values ...any) {
	for _, v := range values {
		_, _ = json.Marshal(v)
	}
}

// WarmDecoders builds encoding/json's decoder for each pointer's element
// type, the way DecodeParams will use it.
func WarmDecoders(ptrs ...any) {
	for _, p := range ptrs {
		_ = DecodeParams(json.RawMessage("{}"), p)
	}
}

// ServeIO is Serve over explicit streams; it returns the exit code.
func ServeIO(stdin io.Reader, stdout, stderr io.Writer, handlers map[string]Handler) int {
	// The envelope's decoder, warmed before the request is read (see
	// ServePrepared).
	_ = json.Unmarshal([]byte(`{"abi":0,"operation":"","params":{}}`), &Request{})
	var req Request
	dec := json.NewDecoder(stdin)
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		fmt.Fprintf(stderr, "rea module: cannot decode request: %v\n", err)
		return ExitBadRequest
	}
	if req.ABI != Version {
		return writeResponse(stdout, stderr, Response{ABI: Version, Error: Errorf(CodeInvalidRequest,
			"request speaks ABI %d, this module speaks ABI %d; rebuild the modules with `make modules`", req.ABI, Version)})
	}
	h, ok := handlers[req.Operation]
	if !ok {
		names := make([]string, 0, len(handlers))
		for n := range handlers {
			names = append(names, n)
		}
		sort.Strings(names)
		return writeResponse(stdout, stderr, Response{ABI: Version, Error: Errorf(CodeInvalidRequest,
			"unknown operation %q; this module offers %v", req.Operation, names).WithDetail("field", "operation")})
	}
	result, err := h(req.Params, NewReporter(stderr))
	if err != nil {
		var typed *Error
		if !errors.As(err, &typed) {
			typed = Errorf(CodeInternal, "%v", err)
		}
		return writeResponse(stdout, stderr, Response{ABI: Version, Error: typed})
	}
	raw, err := json.Marshal(result)
	if err != nil {
		fmt.Fprintf(stderr, "rea module: cannot encode result: %v\n", err)
		return ExitInternal
	}
	return writeResult(stdout, stderr, raw)
}

// writeResult writes the success envelope around raw, which json.Marshal
// has just produced. Marshalling a Response instead would have the encoder
// validate and compact raw again, one scanner call per byte — in wasm about
// a thousand calls per KiB of result, on every request. The bytes are those
// json.Marshal(Response{ABI: Version, OK: true, Result: raw}) writes.
func writeResult(stdout, stderr io.Writer, raw []byte) int {
	head := `{"abi":` + strconv.Itoa(Version) + `,"ok":true,"result":`
	for _, part := range [][]byte{[]byte(head), raw, []byte("}")} {
		if _, err := stdout.Write(part); err != nil {
			fmt.Fprintf(stderr, "rea module: cannot write response: %v\n", err)
			return ExitInternal
		}
	}
	return ExitOK
}

func writeResponse(stdout, stderr io.Writer, resp Response) int {
	b, err := json.Marshal(resp)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rea module: cannot write response: %v\n", err)
		return ExitInternal
	}
	return ExitOK
}

// DecodeParams decodes params strictly (unknown fields rejected) into v and
// turns failures into invalid_request errors naming the position.
func DecodeParams(params json.RawMessage, v any) error {
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Errorf(CodeInvalidRequest, "invalid params: %v", err)
	}
	return nil
}
