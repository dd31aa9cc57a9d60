package node

import (
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// gcMessage serves ServiceGCMessage: the message goes to the GameController component,
// which refuses it with the reason when it cannot reach the GameController now.
func (n *Node) gcMessage(req *dmsgs.GCMessage_Request) *dmsgs.GCMessage_Response {
	name := gcproto.MessageName(gcproto.ReturnVersionHL, gcproto.ReturnMessage(req.Message))
	if err := n.gc.SubmitMessage(gcproto.ReturnMessage(req.Message)); err != nil {
		n.log.Warnf("%s: message %d (%s) refused: %v", ServiceGCMessage, req.Message, name, err)
		return &dmsgs.GCMessage_Response{Reason: err.Error()}
	}
	n.log.Infof("%s: message %d (%s) goes out in the next return packet", ServiceGCMessage, req.Message, name)
	return &dmsgs.GCMessage_Response{Accepted: true}
}
