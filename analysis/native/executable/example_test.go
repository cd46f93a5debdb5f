package executable_test

import (
	"bytes"
	"errors"
	"fmt"

	"rea/abi"
	"rea/analysis/native/executable"
)

// Malformed input is a typed error, never a panic.
func ExampleOpen_malformed() {
	data := []byte("#!/bin/sh\necho hello\n")
	_, err := executable.Open(bytes.NewReader(data), int64(len(data)), executable.Options{})
	var e *abi.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Details["reason"])
	}
	// Output: artifact_operation_failed unknown_format
}

// An archive handed to the binary tools says where it belongs.
func ExampleOpen_archive() {
	data := []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00")
	_, err := executable.Open(bytes.NewReader(data), int64(len(data)), executable.Options{})
	fmt.Println(err)
	// Output: artifact_operation_failed: malformed binary: the file is a zip archive, not an ELF, PE or Mach-O binary; list and extract its members as an artifact (inspect_artifact, rea inspect-artifact)
}

// Addresses travel as hex text so Evidence can hold any 64-bit value.
func ExampleParseAddr() {
	a, _ := executable.ParseAddr("0xFFFFFFFF80001000")
	fmt.Println(a, uint64(a) > 1<<53)
	// Output: 0xffffffff80001000 true
}
