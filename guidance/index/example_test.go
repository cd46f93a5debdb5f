package index_test

import (
	"fmt"
	"testing/fstest"

	"rea/guidance/index"
)

func Example() {
	bundle := fstest.MapFS{
		"electron.md": {Data: []byte("# Electron\n## Preload\nThe preload script bridges through contextBridge.\n## IPC\nChannels pair ipcRenderer.invoke with ipcMain.handle.\n")},
	}
	ix, err := index.Build(bundle)
	if err != nil {
		panic(err)
	}
	res, err := ix.Search(index.SearchParams{Query: "How do I find the preload contextBridge?"})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		fmt.Println(m.MatchScope, m.HeadingPath, m.ContentLength)
	}
	read, err := ix.Read(index.ReadParams{Locator: res.Matches[0].Locator})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", read.Content)
	// Output:
	// section [Electron Preload] 61
	// "## Preload\nThe preload script bridges through contextBridge.\n"
}
