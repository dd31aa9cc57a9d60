package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/robocup-dnetwork/dnetwork/internal/procs"
)

// command is one subcommand of the dnetwork binary.
type command struct {
	name    string
	summary string
	// run executes the command. args excludes the command name. It returns the
	// process exit status.
	run func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands holds every subcommand; files add theirs in init.
var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("dnetwork: duplicate command " + c.name)
	}
	commands[c.name] = c
}

func main() {
	if runsNodes(os.Args[1:]) {
		procs.Apply(procs.Node)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code := dispatch(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	// The signals stay caught until the process has exited: ros2 launch sends each node
	// its own SIGINT right after the terminal's, and one that came after stop() and
	// before the exit would kill a node that had shut down cleanly (launch reports it as
	// died with exit code -2). os.Exit does not run the deferred stop.
	os.Exit(code)
}

// runsNodes reports whether the command line runs dnetwork nodes (node, sim, or ROS
// arguments alone), whose Go code runs on procs.Node processors unless GOMAXPROCS says
// otherwise.
func runsNodes(args []string) bool {
	return len(args) > 0 && (args[0] == "node" || args[0] == "sim" || args[0] == "--ros-args")
}

func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	// ros2 run and launch files may start the executable with nothing but ROS arguments
	// (and "--ros-args" may come first): that runs the node.
	if args[0] == "--ros-args" {
		args = append([]string{"node"}, args...)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "dnetwork: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(ctx, args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dnetwork <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "dnetwork <command> -h" for a command's flags.`)
}

// parseFlags sets fs's usage text (the lines, a blank line, then the flags) and parses
// args. It returns -1 when the command should go on, or its exit status: 0 after -h,
// 2 after a bad flag (which fs has reported).
func parseFlags(fs *flag.FlagSet, args []string, usage ...string) int {
	fs.Usage = func() {
		w := fs.Output()
		for _, l := range usage {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}
