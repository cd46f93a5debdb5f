// Package canonical is rea's content digest of a value: sha256 over the
// RFC 8785 (JCS) form of its JSON. Identifiers that must not depend on map
// order or number spelling — unknown ids and revisions, artifact graph ids,
// specification and ledger digests, capture contract digests — are this
// digest, computed one way everywhere. It is its own package so that only
// the code that needs the JCS library links it.
package canonical

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/gowebpki/jcs"

	"rea/abi"
)

// JSON is the RFC 8785 form of v's JSON encoding. A value that does not
// encode, or whose JSON is not I-JSON (a non-finite number, invalid
// UTF-8), is an internal error: callers digest their own result types.
func JSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "canonical form: %v", err)
	}
	c, err := jcs.Transform(b)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "canonical form: %v", err)
	}
	return c, nil
}

// Digest is the lowercase hex sha256 of JSON(v).
func Digest(v any) (string, error) {
	c, err := JSON(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}
