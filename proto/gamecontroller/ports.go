package gamecontroller

// UDP ports of the GameController protocol. The codec never opens a socket; these are
// the numbers every sender and listener of the packets agrees on.
const (
	// ControlPort is where GameControllers send their control packets ("RGme").
	ControlPort = 3838
	// ReturnPort is where GameControllers listen for return packets ("RGrt"), sent by
	// unicast to the GameController's host.
	ReturnPort = 3939
	// TeamPortBase plus a team number is that team's port for team messages (the SPL
	// rule, which the HSL GameController follows when it counts messages).
	TeamPortBase = 10000
	// MonitorRequestPort is where GameControllers listen for monitor requests ("RGTr").
	MonitorRequestPort = 3636
	// StatusForwardPort is where GameControllers forward the status messages they
	// receive to each registered monitor, prefixed by the sender's address.
	StatusForwardPort = 3940
)
