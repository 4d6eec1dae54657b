package pak_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"log"

	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

func Example() {
	// A small pak made for the example; real code uses pak.OpenReader(path,
	// pak.WithKeyString(key)).
	data, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../Game/"}, []paktest.File{
		{Path: "Config/DefaultGame.ini", Data: []byte("[/Script/EngineSettings.GeneralProjectSettings]\n")},
		{Path: "Content/Maps/Level1.umap", Data: bytes.Repeat([]byte("map data "), 100), Compress: true},
	})
	if err != nil {
		log.Fatal(err)
	}
	p, err := pak.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("version", p.Footer.VersionName(), "mount", p.MountPoint)
	for _, e := range p.All() {
		method := e.CompressionMethod
		if method == "" {
			method = "stored"
		}
		fmt.Println(e.Name, e.UncompressedSize, method)
	}
	ini, err := fs.ReadFile(p, "Game/Config/DefaultGame.ini")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", ini[:10])
	// Output:
	// version 11 mount ../../../Game/
	// Game/Config/DefaultGame.ini 48 stored
	// Game/Content/Maps/Level1.umap 900 Zlib
	// "[/Script/E"
}
