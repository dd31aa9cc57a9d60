package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/sim/sim3drelay"
)

func init() {
	register(&command{
		name:    "sim3d-relay",
		summary: "connect robots to an rcssserver3d and relay their say/hear and the server time to their nodes",
		run:     runSim3DRelay,
	})
}

const sim3dRelayUsage = `usage: dnetwork sim3d-relay --team NAME --robot UNUM:X,Y,ROT [--robot ...] [flags]

Connects one agent per --robot to a RoboCup 3D simulation server (rcssserver3d), one
at a time, and relays each robot's team channel to its node /dnetwork_<UNUM>:
server time on sim3d/time, hear perceptors on sim3d/hear, and says from sim3d/say to
the server. Robots are beamed to X,Y (metres) facing ROT (degrees) in their team's
frame and stand there. Runs until SIGINT or SIGTERM.

  dnetwork sim3d-relay --team DNA --robot 1:-4,0,0 --robot 2:-2.5,3,45

flags:
`

// relayRobot is one --robot value.
type relayRobot struct {
	unum      int
	x, y, rot float64
}

type relayRobots []relayRobot

func (r *relayRobots) String() string {
	var parts []string
	for _, b := range *r {
		parts = append(parts, fmt.Sprintf("%d:%g,%g,%g", b.unum, b.x, b.y, b.rot))
	}
	return strings.Join(parts, " ")
}

func (r *relayRobots) Set(s string) error {
	unum, pose, ok := strings.Cut(s, ":")
	if !ok {
		return fmt.Errorf("want UNUM:X,Y,ROT, got %q", s)
	}
	var b relayRobot
	var err error
	if b.unum, err = strconv.Atoi(unum); err != nil || b.unum < 1 || b.unum > 11 {
		return fmt.Errorf("uniform number %q, want 1..11", unum)
	}
	v := strings.Split(pose, ",")
	if len(v) != 3 {
		return fmt.Errorf("pose %q, want X,Y,ROT", pose)
	}
	for i, p := range []*float64{&b.x, &b.y, &b.rot} {
		if *p, err = strconv.ParseFloat(strings.TrimSpace(v[i]), 64); err != nil {
			return fmt.Errorf("pose %q: %w", pose, err)
		}
	}
	for _, o := range *r {
		if o.unum == b.unum {
			return fmt.Errorf("robot %d given twice", b.unum)
		}
	}
	*r = append(*r, b)
	return nil
}

func runSim3DRelay(ctx context.Context, args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim3d-relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, sim3dRelayUsage)
		fs.PrintDefaults()
	}
	var robots relayRobots
	fs.Var(&robots, "robot", "a robot: uniform number and beam pose `UNUM:X,Y,ROT` (repeatable)")
	team := fs.String("team", "", "team name sent with init (required)")
	server := fs.String("server", sim3drelay.DefaultServer, "the server's agent port, host:port")
	scene := fs.String("scene", sim3drelay.DefaultScene, "robot model")
	robotType := fs.Int("robot-type", 0, "heterogeneous robot type")
	name := fs.String("name", "sim3d_relay", "ROS node name")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *team == "" || len(robots) == 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "dnetwork sim3d-relay: need --team and at least one --robot, and no arguments")
		fs.Usage()
		return exitUsage
	}
	rn, err := ros.NewNode(ctx, *name, "/", ros.NodeOptions{Getenv: nodeEnv, LogOutput: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork sim3d-relay: %v\n", err)
		return exitFailed
	}
	defer rn.Close()
	log := node.SlogLogger(rn.Logger())

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(robots))
	code := exitOK
	for i, b := range robots {
		r, err := sim3drelay.Attach(rn, fmt.Sprintf("/%s/", node.NodeName(b.unum)), sim3drelay.Config{
			Server: *server, Scene: *scene, RobotType: *robotType, Team: *team, Unum: b.unum,
			BeamX: b.x, BeamY: b.y, BeamRot: b.rot, Logger: log,
		})
		if err != nil {
			fmt.Fprintf(stderr, "dnetwork sim3d-relay: robot %d: %v\n", b.unum, err)
			code = exitUsage
			cancel()
			break
		}
		wg.Go(func() {
			if errs[i] = r.Run(ctx); errs[i] != nil {
				cancel()
			}
		})
		// The server loses agents that connect in the same cycle: one at a time.
		select {
		case <-r.Ready():
		case <-ctx.Done():
		case <-time.After(sim3drelay.DefaultConnectTimeout + 2*sim3drelay.DefaultHandshakeTimeout):
			fmt.Fprintf(stderr, "dnetwork sim3d-relay: robot %d did not join the game\n", b.unum)
			code = exitFailed
			cancel()
		}
		if ctx.Err() != nil {
			break
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			fmt.Fprintf(stderr, "dnetwork sim3d-relay: robot %d: %v\n", robots[i].unum, err)
			code = exitFailed
		}
	}
	return code
}
