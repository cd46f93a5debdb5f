package fuel_test

import (
	"errors"
	"fmt"

	"rea/wasm/fuel"
)

func Example() {
	// (module (func (export "spin") (loop (br 0))))
	module := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type: (func)
		0x03, 0x02, 0x01, 0x00, // function 0 has type 0
		0x07, 0x08, 0x01, 0x04, 's', 'p', 'i', 'n', 0x00, 0x00, // export "spin"
		0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b, // loop br 0
	}
	metered, err := fuel.Instrument(module)
	if err != nil {
		fmt.Println(err)
		return
	}
	before, _ := fuel.Metered(module)
	after, _ := fuel.Metered(metered)
	fmt.Println("metered before:", before, "after:", after)

	_, err = fuel.Instrument(metered)
	fmt.Println("second pass refused:", errors.Is(err, fuel.ErrAlreadyMetered))

	// A host instantiates the module without running a start function,
	// sets the exported global to the budget, calls the guest, and reads the
	// global back: used = budget - left. To cancel, it calls
	// fuel.Exhaust(global, done) from another goroutine.

	// Output:
	// metered before: false after: true
	// second pass refused: true
}
