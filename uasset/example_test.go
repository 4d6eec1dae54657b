package uasset_test

import (
	"fmt"
	"log"

	"github.com/upkg/upkg/uasset"
)

// Open a package (its .uexp companion is found beside it), list its exports
// with their classes, and read the asset's serialized bytes.
func Example() {
	f, err := uasset.Open("Content/Maps/Level1.umap")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	fmt.Println("engine", f.Engine.Version, "via", f.Engine.Source)
	for i := range f.Exports {
		idx := uasset.ExportIndex(i)
		fmt.Println(f.ClassPath(idx), f.ObjectPath(idx))
	}
	if a := f.AssetExport(); a >= 0 {
		data, err := f.Exports[a].Data()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(data), "bytes of", f.ObjectName(uasset.ExportIndex(a)))
	}
}

// Read a cooked package whose engine is known, and rewrite its header.
func ExampleWithEngine() {
	f, err := uasset.Open("Cooked/BP_Hero.uasset", uasset.WithEngine("4.27"))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	same, at, err := f.HeaderRoundTrip()
	fmt.Println(same, at, err)
}
