// A small Go program the native tests cross-compile to PE, Mach-O and
// linux/arm64 ELF.
package main

import (
	"fmt"
	"os"
)

//go:noinline
func greet(name string) string { return "rea-go-fixture " + name }

func main() {
	fmt.Println(greet(os.Args[0]))
}
