// Command spin is a test guest that never returns: it announces itself and
// then loops forever without calling anything, the worst case for fuel
// metering (only the loop header check can stop it).
package main

import "os"

var sink int

func main() {
	os.Stdout.WriteString("spinning\n")
	for {
		sink++
	}
}
