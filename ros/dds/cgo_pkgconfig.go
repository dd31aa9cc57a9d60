//go:build cgo && !dds_nopkgconfig

package dds

// Headers and library come from pkg-config's CycloneDDS.pc: Debian's cyclonedds-dev
// by default, or ROS's Cyclone with PKG_CONFIG_PATH=/opt/ros/<distro>/lib/pkgconfig.

// #cgo pkg-config: CycloneDDS
// #cgo LDFLAGS: -lm
import "C"
