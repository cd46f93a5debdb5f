package artpath_test

import (
	"fmt"

	"rea/analysis/artifact/artpath"
)

func ExampleNormalize() {
	for _, p := range []string{"node_modules/a/index.js", "cafe\u0301.txt", "../../etc/passwd", `lib\evil.dll`} {
		n, err := artpath.Normalize(p, artpath.Limits{})
		if err != nil {
			fmt.Println("refused:", p)
			continue
		}
		fmt.Printf("%q\n", n)
	}
	// Output:
	// "node_modules/a/index.js"
	// "café.txt"
	// refused: ../../etc/passwd
	// refused: lib\evil.dll
}

func ExampleRegistry() {
	r := artpath.NewRegistry()
	fmt.Println(r.Add("README.md", false))
	fmt.Println(r.Add("readme.md", false) != nil)
	fmt.Println(r.Add("README.md/x", false) != nil)
	// Output:
	// <nil>
	// true
	// true
}
