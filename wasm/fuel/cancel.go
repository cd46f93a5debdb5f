package fuel

import "time"

// Global is the part of wazero's api.MutableGlobal that Exhaust needs; the
// fuel package itself depends only on the standard library.
type Global interface {
	Set(v uint64)
}

// ExhaustEvery is how often Exhaust repeats its store.
const ExhaustEvery = time.Millisecond

// Exhaust cancels a running guest by storing 0 in its fuel global, and keeps
// storing 0 every ExhaustEvery until done is closed (close it when the
// guest's call returns).
//
// One store is not enough: the guest's check is a plain read-modify-write
// (global.get … i64.sub … global.set), so a store that lands between the
// guest's read and its write is overwritten by the guest's decremented
// value. The next store lands a millisecond later; a store survives unless
// it hits that window of a few instructions, so the guest traps at its next
// check after, in practice, the first or second store.
func Exhaust(g Global, done <-chan struct{}) {
	t := time.NewTicker(ExhaustEvery)
	defer t.Stop()
	for {
		g.Set(0)
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}
