// Package packaging is dnetwork's ROS 2 package: package.xml, and CMakeLists.txt, which
// builds cmd/dnetwork. It holds no Go code but this comment and its tests, which check
// the packaging with Debian's colcon and CMake, without a ROS installation:
//
//   - a workspace whose src/ holds this repository finds exactly two packages, dmsgs
//     (msgs/) and dnetwork (package/), both ament_cmake, with dnetwork depending on dmsgs;
//   - a manifest at the repository root would hide msgs/ from colcon;
//   - colcon builds package/CMakeLists.txt against a Cyclone DDS prefix laid out like
//     /opt/ros/<distro> (libddsc.so.0, lib/pkgconfig, lib/cmake), and the installed
//     binary links that prefix's libddsc, not the system's libddsc.so.0debian;
//   - the configure step refuses a Go older than go.mod's go directive with a clear
//     message.
//
// ament_cmake itself is replaced by a stand-in whose ament_package() installs
// package.xml and the package's ament index marker, as the real one does; what only a
// real ROS 2 installation can show (rosidl for dmsgs, ros2 run, ros2 launch) is listed in
// docs/install.md.
package packaging
