// Package digest computes the sha256 digests jsengine records (factory
// digests, structural fingerprints, inline scripts). Natively it is
// crypto/sha256. Inside a module it asks the host: Go's generic sha256 in
// wasm was a fifth of the jsapp module's time on a webpack bundle, and the
// design keeps hashing native and parsing inside the sandbox
// (docs/rationale.md, "Hashing is the host's").
package digest

import "encoding/hex"

// Hex is the lowercase hex sha256 of b.
func Hex(b []byte) string {
	sum := Sum256(b)
	return hex.EncodeToString(sum[:])
}

// HexString is Hex of a string, without copying it.
func HexString(s string) string {
	sum := sum256String(s)
	return hex.EncodeToString(sum[:])
}
