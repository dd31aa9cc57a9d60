// Command msggen generates Go types for ROS 2 interface packages (.msg and .srv files):
// plain structs with CDR marshalling (package ros/cdr, no reflection), the DDS type
// name and the REP-2011 (RIHS01) type hash, as rosidl computes them.
//
// Usage:
//
//	msggen [-I dir[=godir]]... [-out godir] pkgdir[=godir]...
//
// Each pkgdir is a ROS interface package (msg/*.msg, srv/*.srv, optional package.xml
// whose <name> is the package name; without it the directory name is used). Its Go
// code is written into godir: the package directory itself unless "=godir" or -out
// (only with a single package) names another one. Types of other packages are
// resolved through -I package directories, whose Go code is in godir likewise; every
// godir must be inside the Go module. The <description> of a package.xml goes into the
// package documentation.
//
// Naming: the Go package name is the base name of the output directory, which is the
// ROS package name unless chosen otherwise (std_msgs stays std_msgs; the Humble
// variant of rmw_dds_common lives in rmw_dds_common_humble).
// Messages keep their names; service types are <Srv>_Request, <Srv>_Response and
// <Srv>_Event, and <Srv> is a cdr.Service descriptor. Field names become CamelCase
// (node_name -> NodeName; the parts id, ip, gc, uid, gid, udp, tcp, url, imu, dds,
// ros, api, utc, ok are written in capitals); a constant NAME of message T becomes
// T + CamelCase(NAME), e.g. Log DEBUG -> LogDebug. One file per interface,
// <snake_name>.msg.go or .srv.go, plus doc.go. Earlier generated files that are no
// longer produced are removed.
//
// Supported: bool byte char int8..uint64 float32 float64 string string<=N, fixed
// arrays T[N], sequences T[] and T[<=N], nested and cross-package messages, constants
// and default values (SetDefaults). wstring is rejected.
package main
