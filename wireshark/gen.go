package wireshark

//go:generate go run ../cmd/dissectorgen -o dnetwork.lua
