// Package diagnostics publishes the node's health as diagnostic_msgs/DiagnosticArray on
// /diagnostics, the topic rqt_robot_monitor shows (through diagnostic_aggregator, which
// turns it into /diagnostics_agg; or remap /diagnostics_agg:=/diagnostics).
//
// Each component contributes a Source: a function that turns its Status snapshot into
// one or more DiagnosticStatus entries. The component calls every source once per period
// on the node's clock and publishes one array, as long as the publisher may have a
// subscriber (bus.Listened); with nobody subscribed it collects nothing, and when the
// publisher can signal its audience (bus.AudienceChanges) its ticker stops until
// somebody subscribes, so an unwatched node is not woken for it (node/internal/idletick).
package diagnostics
