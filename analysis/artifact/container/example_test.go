package container_test

import (
	"bytes"
	"fmt"
	"testing/fstest"

	"rea/analysis/artifact/asarpack"
	"rea/analysis/artifact/container"
	"rea/analysis/artifact/inventory"
)

func ExampleInventory() {
	var buf bytes.Buffer
	asarpack.Write(&buf, []asarpack.File{
		asarpack.Bytes("main.js", []byte("console.log(1)\n")),
		{Path: "current.js", Link: "main.js"},
	})
	fsys := fstest.MapFS{"app.asar": {Data: buf.Bytes()}}
	res, err := container.Inventory(fsys, "app.asar", "", inventory.Limits{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range res.Entries {
		if e.Data != nil {
			fmt.Printf("%s %s: %d bytes in %s\n", e.Kind, e.Path, e.Data.Length, e.Data.File)
		} else {
			fmt.Printf("%s %s -> %s\n", e.Kind, e.Path, e.Link.Target)
		}
	}
	// Output:
	// link current.js -> main.js
	// file main.js: 15 bytes in app.asar
}
