// Command dissectorgen writes the Wireshark Lua dissector of the packets dnetwork speaks
// (wireshark/dnetwork.lua) from the codecs' own tables: the GameController layouts with
// their offsets and code names, the return packet versions, the monitor channel, dnet,
// zju, the world info header, the Booster packets and the HL standard protobuf's
// descriptors. The tables are emitted as Lua tables in front of the dissector code in
// crypto.lua, dissector.lua, booster.lua and robocup.lua, which read them.
//
//	go run ./cmd/dissectorgen -o wireshark/dnetwork.lua
//
// wireshark/gen.go runs it from go generate.
package main
