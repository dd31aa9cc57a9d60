package team_test

import (
	"fmt"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/team"
)

func ExampleComponent() {
	cfg := team.DefaultConfig()
	cfg.Team, cfg.Player = 17, 2
	conn := bus.NewFakeConn(16) // in the node: the team port's *transport.Worker
	c, err := team.New(cfg, team.Deps{Conn: conn, Publisher: &bus.Recorder[dmsgs.TeamInfo]{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Config().TeamPort(), c.Config().Format, c.Config().League)
	// Output: 10017 dnet hsl
}
