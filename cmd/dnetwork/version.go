package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// version is set at link time with -ldflags "-X main.version=...".
var version = "dev"

func init() {
	register(&command{
		name:    "version",
		summary: "print the dnetwork version",
		run: func(_ context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) int {
			v := version
			if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				v = bi.Main.Version
			}
			fmt.Fprintf(stdout, "dnetwork %s\n", v)
			return 0
		},
	})
}
