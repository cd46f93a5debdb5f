package binary_test

import (
	"bytes"
	"errors"
	"fmt"

	"rea/modules/abi"
	"rea/modules/native/binary"
)

// Malformed input is a typed error, never a panic.
func ExampleOpen_malformed() {
	data := []byte("#!/bin/sh\necho hello\n")
	_, err := binary.Open(bytes.NewReader(data), int64(len(data)), binary.Options{})
	var e *abi.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Details["reason"])
	}
	// Output: artifact_operation_failed unknown_format
}

// Addresses travel as hex text so Evidence can hold any 64-bit value.
func ExampleParseAddr() {
	a, _ := binary.ParseAddr("0xFFFFFFFF80001000")
	fmt.Println(a, uint64(a) > 1<<53)
	// Output: 0xffffffff80001000 true
}
