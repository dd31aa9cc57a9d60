package main

import (
	"fmt"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/proto/booster"
)

// boosterFields writes the fields of a Booster packet as a Lua table.
func boosterFields(fs []booster.WireField) string {
	var parts []string
	for _, f := range fs {
		s := fmt.Sprintf("{name=%s, member=%s, off=%d, kind=%s, size=%d", q(f.Name), q(f.Member), f.Off, q(f.Kind), f.Size)
		if f.Unit != "" {
			s += ", unit=" + q(f.Unit)
		}
		if f.Enum != "" {
			s += ", enum=" + q(f.Enum)
		}
		if f.Magic != 0 {
			s += fmt.Sprintf(", magic=%d", f.Magic)
		}
		parts = append(parts, s+"}")
	}
	return "{\n\t\t" + strings.Join(parts, ",\n\t\t") + ",\n\t}"
}

// writeBooster writes the BOOSTER table: the Booster robots' two packets, each with its
// magic and its layouts by size (proto/booster's Wire tables).
func writeBooster(b *strings.Builder) {
	b.WriteString("-- BOOSTER: the Booster robots' TeamCommunicationMsg and TeamDiscoveryMsg, layouts by\n")
	b.WriteString("-- size (booster.Wire, booster.DiscoveryWire).\n")
	fmt.Fprintf(b, "local BOOSTER = {ports={broadcast=%d, discovery=%d, unicast=%d}, teams=%d, undefined_role=%s}\n",
		booster.PortBroadcast, booster.PortDiscovery, booster.PortUnicast, teamPorts,
		q(booster.RoleName(booster.RevisionMain, 0)))
	fmt.Fprintf(b, "BOOSTER.message = {magic=%d, layouts={\n", booster.Magic)
	for _, r := range []booster.Revision{booster.RevisionMain, booster.Revision2026} {
		fmt.Fprintf(b, "[%d] = {version=%s, roles=%s,\n\tfields=%s},\n", r.Size(), q(r.String()),
			names(booster.RoleNames(r)), boosterFields(booster.Wire(r)))
	}
	b.WriteString("}}\n")
	fmt.Fprintf(b, "BOOSTER.discovery = {magic=%d, layouts={\n", booster.DiscoveryMagic)
	fmt.Fprintf(b, "[%d] = {version=%s,\n\tfields=%s},\n", booster.DiscoverySize, q(booster.DiscoveryRevision),
		boosterFields(booster.DiscoveryWire()))
	b.WriteString("}}\n\n")
}
