// Package ddstest sets up loopback-only Cyclone DDS domains for tests.
//
// The loopback interface of many machines (and CI containers) has no MULTICAST flag,
// so Cyclone's default multicast discovery cannot work on it. Config makes discovery
// unicast instead: only the interface lo, no multicast, a participant index per
// process and SPDP sent to 127.0.0.1 for every possible index.
package ddstest
