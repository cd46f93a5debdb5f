package module_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/wasm/module"
)

// countingFS counts reads of each file, to show which modules were read.
type countingFS struct {
	fstest.MapFS
	opened map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.opened[name]++
	return c.MapFS.Open(name)
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.opened[name]++
	return c.MapFS.ReadFile(name)
}

// An embedded module with an identity stamp is identified without reading
// its bytes; Read checks the bytes against the stamp, so a stale stamp is
// module_unavailable, never other bytes under the stamped digest. A stamp
// for a file of another size is ignored (the module is read and hashed).
func TestEmbeddedIdentityComesFromTheStampAndIsCheckedOnRead(t *testing.T) {
	wasm, err := module.Prepare([]byte("\x00asm\x01\x00\x00\x00"), abi.Version, true)
	if err != nil {
		t.Fatal(err)
	}
	id, err := module.IdentifyBytes(wasm.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	stamp := func(id module.StampedIdentity) []byte {
		b, err := json.Marshal(id)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stale := id
	stale.SHA256 = strings.Repeat("ab", 32)
	otherSize := id
	otherSize.Size++
	otherSize.SHA256 = stale.SHA256
	fsys := &countingFS{opened: map[string]int{}, MapFS: fstest.MapFS{
		"good.wasm":                            {Data: wasm.Bytes},
		"good.wasm" + module.IdentitySuffix:    {Data: stamp(id)},
		"stale.wasm":                           {Data: wasm.Bytes},
		"stale.wasm" + module.IdentitySuffix:   {Data: stamp(stale)},
		"resized.wasm":                         {Data: wasm.Bytes},
		"resized.wasm" + module.IdentitySuffix: {Data: stamp(otherSize)},
		"unstamped.wasm":                       {Data: wasm.Bytes},
	}}
	cat, err := module.Load(fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	good, err := cat.Get("good")
	if err != nil {
		t.Fatal(err)
	}
	if good.SHA256 != id.SHA256 || good.Size != id.Size || !good.Metered || good.ABIVersion != abi.Version {
		t.Fatalf("identity %+v, stamp %+v", good.Identity, id)
	}
	if n := fsys.opened["good.wasm"]; n != 0 {
		t.Fatalf("a stamped module was read %d times to identify it", n)
	}
	if b, err := good.Read(); err != nil || string(b) != string(wasm.Bytes) {
		t.Fatalf("Read = %d bytes, %v", len(b), err)
	}

	st, err := cat.Get("stale")
	if err != nil {
		t.Fatal(err)
	}
	if st.SHA256 != stale.SHA256 {
		t.Fatalf("stale stamp not used for identity: %s", st.SHA256)
	}
	_, err = st.Read()
	var typed *abi.Error
	if !errors.As(err, &typed) || typed.Code != abi.CodeModuleUnavailable || !strings.Contains(err.Error(), "identity stamp is stale") {
		t.Fatalf("reading bytes that do not match the stamp: %v", err)
	}

	for _, name := range []string{"resized", "unstamped"} {
		m, err := cat.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.SHA256 != id.SHA256 || fsys.opened[name+".wasm"] == 0 {
			t.Fatalf("%s: digest %s (want %s), read %d times", name, m.SHA256, id.SHA256, fsys.opened[name+".wasm"])
		}
	}
}
