// Command echo is a test guest whose output exercises ordinary Go: the
// scheduler (goroutines, channels), maps, sorting, strconv, fmt and stdin.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	in, _ := bufio.NewReader(os.Stdin).ReadString(0)
	words := strings.Fields(in)
	counts := map[string]int{}
	for _, w := range words {
		counts[strings.ToLower(w)]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	results := make(chan string)
	for i, k := range keys {
		go func() { results <- fmt.Sprintf("%03d %s=%d", i, k, counts[k]) }()
	}
	lines := make([]string, 0, len(keys))
	for range keys {
		lines = append(lines, <-results)
	}
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))
	fmt.Printf("args=%q fib(25)=%d\n", os.Args[1:], fib(25))
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}
