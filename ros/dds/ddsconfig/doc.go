// Package ddsconfig builds Cyclone DDS configurations that several parts of dnetwork
// share. It has no dependencies, so package dds's own tests and every package above
// it can use it.
package ddsconfig
