// Package textfold is the form rea compares words and prefixes in: Unicode
// NFKC (so compatibility forms such as full-width letters or ligatures
// compare equal to their plain spelling), then full Unicode case folding.
// Guidance search and MCP completion match this way, so a word typed to one
// means the same to the other.
package textfold

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Fold returns the folded form of s.
func Fold(s string) string { return cases.Fold().String(norm.NFKC.String(s)) }

// Folder folds many strings with one case folder; a folder keeps state, so
// one Folder serves one goroutine.
type Folder struct{ fold cases.Caser }

// NewFolder returns a Folder.
func NewFolder() *Folder { return &Folder{fold: cases.Fold()} }

// Fold returns the folded form of s.
func (f *Folder) Fold(s string) string { return f.fold.String(norm.NFKC.String(s)) }
