package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

func init() {
	register(&command{
		name:    "node",
		summary: "run the dnetwork ROS 2 node (parameters via --ros-args)",
		run:     runNode,
	})
}

// Exit codes of the node command.
const (
	exitOK     = 0
	exitFailed = 1 // the node failed while running, or could not start its ROS node
	exitUsage  = 2 // bad command line or bad parameters
)

// nodeEnv reads the environment of the ROS node (ROS_DOMAIN_ID, CYCLONEDDS_URI, ...).
var nodeEnv = os.Getenv

// nodeClockOffset runs the node's clock this far off the system time. Nothing in the
// command sets it; tests do, to run robots whose clocks disagree as they do on a field.
var nodeClockOffset time.Duration

const nodeUsage = `usage: dnetwork node [--check | --list-params] [--ros-args ROS_ARGS...]

Runs the dnetwork ROS 2 node until SIGINT or SIGTERM. Parameters come from
--params-file and -p inside --ros-args, as for any ROS 2 node:

  dnetwork node --ros-args --params-file params/robot1.yaml
  dnetwork node --ros-args -p robot_id:=3 -p team_number:=17 -p interface:=wlan0

The node is named dnetwork_<robot_id> unless -r __node:=NAME says otherwise.

flags:
`

func runNode(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	rosArgs, rest, err := rosargs.Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork node: %v\n", err)
		return exitUsage
	}
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "load and check the parameters, print them and exit without starting the node")
	list := fs.Bool("list-params", false, "print every parameter as a Markdown table and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), nodeUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dnetwork node: unexpected argument %q (ROS arguments go after --ros-args)\n", fs.Arg(0))
		return exitUsage
	}
	if *list {
		writeParamTable(stdout, node.Parameters())
		return exitOK
	}

	st, err := node.Load(rosArgs)
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork node: bad parameters:\n%s\n", indent(err.Error()))
		return exitUsage
	}
	if *check {
		for _, w := range st.Warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		if err := st.Config.CheckInterfaces(); err != nil {
			fmt.Fprintf(stderr, "dnetwork node: no interface for the sockets:\n%s\n", indent(err.Error()))
			return exitUsage
		}
		writeParamValues(stdout, st)
		for _, k := range st.KeysRead() {
			fmt.Fprintln(stdout, k)
		}
		return exitOK
	}

	rn, err := ros.NewNode(ctx, st.Name, st.Namespace, ros.NodeOptions{
		Args: rosArgs, Params: st.Store, Getenv: nodeEnv, LogOutput: stderr, ClockOffset: nodeClockOffset,
	})
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork node: %v\n", err)
		return exitFailed
	}
	defer rn.Close()
	for _, w := range st.Warnings {
		rn.Logger().Warnf("%s", w)
	}
	if err := st.Config.CheckInterfaces(); err != nil {
		// The sockets wait for the interfaces to change; /diagnostics says ERROR meanwhile.
		rn.Logger().Errorf("no interface for the sockets: %v", err)
	}
	rn.Logger().Infof("Go code runs on %d processor(s); the GOMAXPROCS environment variable sets another number", runtime.GOMAXPROCS(0))
	if err := node.Run(ctx, rn, st.Config); err != nil {
		fmt.Fprintf(stderr, "dnetwork node: %v\n", err)
		if errors.Is(err, node.ErrConfig) {
			return exitUsage
		}
		return exitFailed
	}
	return exitOK
}

// indent puts two spaces in front of every line of s.
func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// writeParamTable prints the parameters as a Markdown table.
func writeParamTable(w io.Writer, ps []node.ParamInfo) {
	fmt.Fprintln(w, "| Parameter | Type | Default | Range | Description |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, p := range ps {
		def := p.Default
		if def == "" {
			def = "(required)"
		}
		fmt.Fprintf(w, "| `%s` | %s | `%s` | %s | %s |\n", p.Name, p.Type, def, markdownText(p.Constraints), markdownText(p.Description))
	}
}

// markdownText escapes what Markdown would read as a table cell's end or as HTML.
var markdownText = strings.NewReplacer("|", `\|`, "<", `\<`, ">", `\>`).Replace

// writeParamValues prints the node's name and every parameter's value, one per line.
func writeParamValues(w io.Writer, st *node.Startup) {
	fmt.Fprintf(w, "node: %s\n", rosargs.FullyQualifiedName(st.Namespace, st.Name))
	for _, name := range st.Store.Names() {
		v, err := st.Store.Get(name)
		if errors.Is(err, params.ErrUninitialized) {
			fmt.Fprintf(w, "%s: (not set)\n", name)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", name, v)
	}
}
