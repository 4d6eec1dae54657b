package uasset

import "github.com/upkg/upkg/internal/binread"

func binreadMem(d []byte) binread.Mem { return binread.Mem(d) }
