// Package evidence holds rea's Evidence v2 records, their content-derived
// identities, the per-connection ledger that retains them, and the portable
// bundle format that moves them between sessions.
//
// Every successful analysis yields one Record. Its evidence_id is
// "ev_" + hex(sha256(JCS(P))) where JCS is RFC 8785 canonical JSON and P is
// the record without evidence_id and with subject reduced to
// {digest, format, architecture}: the same observation of the same bytes has
// the same id wherever it was made, and paths never enter identity.
//
// Records are built by construction: New (or Seal) validates, fills defaults,
// canonicalises each JSON payload exactly once and derives the id; Parse
// canonicalises untrusted input once, validates it strictly and rejects a
// record whose declared id does not match its content. A sealed Record carries
// its canonical bytes, so ledgers, bundles and exports never re-serialise or
// re-hash it. Treat a sealed Record as a value: after changing a field, call
// Seal again.
//
// The package is pure (no MCP, no processes); the MCP server and the CLI share
// it.
package evidence
