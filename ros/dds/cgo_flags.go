//go:build cgo && dds_nopkgconfig

package dds

// With the build tag dds_nopkgconfig the include and library directories come only
// from CGO_CFLAGS and CGO_LDFLAGS, e.g. for ROS's Cyclone:
//
//	CGO_CFLAGS="-I/opt/ros/jazzy/include"
//	CGO_LDFLAGS="-L/opt/ros/jazzy/lib -Wl,-rpath,/opt/ros/jazzy/lib"

// #cgo LDFLAGS: -lddsc -lm
import "C"
