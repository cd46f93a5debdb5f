// Package unknowns is rea's residual-unknown registry: the questions an
// investigation has not answered yet, kept explicit so that missing Evidence
// is never mistaken for an answer.
//
// An unknown is identified by its domain, whitespace-collapsed question and
// scope (the target sha256 or null): unknown_id = "unk_" +
// sha256(JCS{domain, question, scope_digest}). Each change writes a new
// revision whose previous_revision_digest names the revision before it, and
// a rea.residual-unknown-mutation/v1 Evidence record bound to the new state
// by its state_digest. Revisions and mutation records live in the
// connection's Evidence ledger, so they travel in bundles; Validator checks
// them when a bundle is read.
package unknowns
