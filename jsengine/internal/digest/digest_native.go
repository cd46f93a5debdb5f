//go:build !wasip1

package digest

import "crypto/sha256"

// Sum256 is the sha256 of b.
func Sum256(b []byte) [32]byte { return sha256.Sum256(b) }

func sum256String(s string) [32]byte { return sha256.Sum256([]byte(s)) }
