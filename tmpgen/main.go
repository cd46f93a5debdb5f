package main

import (
	"bytes"
	"os"

	"rea/analysis/artifact/udifpack"
)

func main() {
	vol, err := udifpack.HFSPlusVolume(os.Args[1], "Example")
	if err != nil {
		panic(err)
	}
	f, _ := os.Create(os.Args[2])
	defer f.Close()
	if _, err := udifpack.Write(f, []udifpack.Partition{{Name: "disk image (Apple_HFS : 0)", Data: bytes.NewReader(vol), Size: int64(len(vol))}}); err != nil {
		panic(err)
	}
}
