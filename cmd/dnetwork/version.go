package main

import (
	"context"
	"flag"
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
		run:     runVersion,
	})
}

func runVersion(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if code := parseFlags(fs, args, "usage: dnetwork version", "", "Prints the version of this dnetwork binary."); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dnetwork version: unexpected arguments %q\n", fs.Args())
		return 2
	}
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	fmt.Fprintf(stdout, "dnetwork %s\n", v)
	return 0
}
