package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"unsafe"

	"rea/abi"
)

//go:wasmimport rea sha256
//go:noescape
func hostSHA256(data unsafe.Pointer, n uint32, out unsafe.Pointer) uint32

type hostHashParams struct {
	Bytes  int  `json:"bytes"`
	Repeat int  `json:"repeat"`
	Wild   bool `json:"wild"` // point the host outside linear memory
}

// hostHash hashes a zeroed buffer Repeat times through the host's
// rea.sha256 and once itself, so the test can compare the two and the fuel.
func hostHash(p json.RawMessage, _ *abi.Reporter) (any, error) {
	var h hostHashParams
	if err := abi.DecodeParams(p, &h); err != nil {
		return nil, err
	}
	buf := make([]byte, h.Bytes)
	var sum [32]byte
	if h.Wild {
		status := hostSHA256(unsafe.Pointer(uintptr(0xfffffff0)), 64, unsafe.Pointer(&sum))
		return map[string]any{"status": status, "sum": hex.EncodeToString(sum[:])}, nil
	}
	var status uint32
	for i := 0; i < h.Repeat; i++ {
		status |= hostSHA256(unsafe.Pointer(unsafe.SliceData(buf)), uint32(len(buf)), unsafe.Pointer(&sum))
	}
	own := sha256.Sum256(buf)
	return map[string]any{"status": status, "host": hex.EncodeToString(sum[:]), "guest": hex.EncodeToString(own[:])}, nil
}
