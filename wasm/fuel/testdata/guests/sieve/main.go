// Command sieve is a CPU-bound test guest heavy on short loops and calls:
// it counts primes below its first argument with a sieve and computes a
// recursive Fibonacci number given as its second.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	limit, n := 1_000_000, 20
	if len(os.Args) > 1 {
		limit, _ = strconv.Atoi(os.Args[1])
	}
	if len(os.Args) > 2 {
		n, _ = strconv.Atoi(os.Args[2])
	}
	composite := make([]bool, limit)
	count := 0
	for i := 2; i < limit; i++ {
		if composite[i] {
			continue
		}
		count++
		for j := i * i; j < limit; j += i {
			composite[j] = true
		}
	}
	fmt.Printf("primes below %d: %d; fib(%d) = %d\n", limit, count, n, fib(n))
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}
