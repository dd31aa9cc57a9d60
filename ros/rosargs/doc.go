// Package rosargs reads the ROS 2 part of a command line exactly as rcl does
// (rcl/arguments.c, Humble and Jazzy) and resolves node, namespace and topic
// names with the ROS naming rules.
//
// # Command line
//
// ros2 launch and ros2 run start a node as
//
//	dnetwork [program args…] --ros-args -r __node:=dnetwork -r __ns:=/robot1 \
//	    --params-file /tmp/launch_params_k3x1 -p gc_port:=3838 -r team_status:=/team/status
//
// "--ros-args" opens a ROS section and a bare "--" closes it; there may be
// any number of sections anywhere in the command line. Everything outside
// them is returned to the program in order (Parse's rest). Inside a section:
//
//	flag                               value
//	-r, --remap                        [node:]from:=to, [node:]__node:=NAME (or __name:=),
//	                                   [node:]__ns:=/NS, rostopic://from:=to, rosservice://from:=to
//	-p, --param                        [node:]name:=YAML value (no node prefix: every node, "/**")
//	--params-file                      FILE (repeatable; files and -p are kept in order)
//	--log-level                        LEVEL or LOGGER:=LEVEL (debug, info, warn, error, fatal, unset)
//	-e, --enclave                      ENCLAVE
//	--log-config-file                  FILE
//	--log-file-name                    NAME (rcl 9, Jazzy)
//	--enable-/--disable-               stdout-logs, rosout-logs, external-lib-logs
//	--ros-args                         ignored inside a section
//
// Rules are split into lexemes by a copy of rcl's lexer, so names follow the
// same token rule (letters, digits and single '_', not starting with a
// digit). A flag without its value or a rule that does not parse is an
// *ArgError (ErrInvalidArg); any other argument inside a ROS section is an
// *UnknownArgsError (ErrUnknownArg), as rclcpp refuses to start then. A
// program argument outside the sections that parses as a remap rule
// ("from:=to") is a deprecated remap: rcl applies it and removes it from the
// program's arguments, and so does Parse (listed in Args.DeprecatedRemaps).
//
// -p values are kept as YAML text; the params package types them and loads
// the --params-file files in command-line order.
//
// # Names
//
// ValidateNodeName, ValidateNamespace, ValidateTopicName and
// ValidateFullTopicName apply the rmw/rcl rules and report the offending
// offset in a *NameError (ErrInvalidName). ExpandTopicName turns "~/x",
// relative names and {node}/{ns} substitutions into fully qualified names;
// Args.NodeName, Args.Namespace and Args.ResolveTopic/ResolveService apply
// the remap rules the way rcl does: the first matching rule wins, node
// prefixed rules apply only to that node, and a topic rule matches when its
// expanded match equals the expanded topic name.
package rosargs
