// Command sha is a CPU-bound test guest: it hashes a deterministic buffer of
// the size given as its first argument (bytes) a number of times given as
// its second, and prints the final digest.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
)

func main() {
	size, rounds := 1<<20, 1
	if len(os.Args) > 1 {
		size, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		rounds, _ = strconv.Atoi(os.Args[2])
	}
	buf := make([]byte, size)
	for i := range buf {
		buf[i] = byte(i*7 + i>>8)
	}
	var sum [32]byte
	for r := 0; r < rounds; r++ {
		sum = sha256.Sum256(buf)
		copy(buf, sum[:])
	}
	fmt.Printf("%x\n", sum)
}
