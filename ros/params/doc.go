// Package params is a ROS 2 node's parameters: typed values, declarations
// with descriptors, the store behind the parameter services and
// /parameter_events, and parameter overrides from --params-file YAML files
// and -p rules, read by the rules of rcl_yaml_param_parser and rclcpp.
//
// # Values and declarations
//
// Value mirrors rcl_interfaces/msg/ParameterValue (types bool, integer
// (int64), double, string, byte_array, bool_array, integer_array,
// double_array, string_array, or not set); Descriptor mirrors
// ParameterDescriptor. A Store holds declared parameters the way rclcpp
// does: statically typed unless declared with DynamicTyping, read-only ones
// set only by their declaration, integer and floating point ranges with
// steps checked on every set. Set and SetAtomically answer like the
// set_parameters services, with a Result per parameter whose Reason says
// what was wrong and whose Err matches ErrNotDeclared, ErrReadOnly,
// ErrTypeMismatch, ErrOutOfRange or ErrRejected. Where rclcpp releases
// answer differently (List's depth below a prefix, an empty SetAtomically)
// the store answers as its Release: Jazzy unless SetRelease says Humble.
// OnChange delivers the changes for /parameter_events. Declare and Param give typed handles for a
// node's configuration. DeclareSecret declares a read-only string that holds a
// secret (a key): the caller gets the value, the store keeps only Hidden (a
// public default and "" as they are), so no service, dump or event carries it.
//
// # Parameter files
//
//	/**:                          # every node
//	  ros__parameters:
//	    use_sim_time: false
//	robot1:                       # namespace /robot1 …
//	  dnetwork:                   # … node dnetwork
//	    ros__parameters:
//	      team_id: 7
//	      net:                    # nested maps make dotted names: net.port
//	        port: 0x0EF6          # integer 3830
//	        peers: ["10.0.0.2", "10.0.0.3"]
//	/robot2/dnetwork:             # or the full name in one key
//	  ros__parameters: {team_id: 8}
//
// Node keys may be nested maps or one key with slashes, with or without the
// leading '/'; "/**" matches any node, "/*" one level, and levels like
// "/**/dnetwork" or "/robot1/*" mix both (rclcpp turns "/*" into one
// "(/\w+)" and "/**" into "(/\w+)*" and matches the whole name). Scalars are
// typed as rcl does (the table is in scalar.go): quoted or !!str values are
// strings, otherwise y/yes/true/on… are bools, C strtoll integers (0x1F hex,
// 010 octal), then .nan/.inf and C strtod doubles, else strings. Arrays must
// hold one type. An empty array "[]", which rcl refuses but ros2 param dump
// writes for every empty list, takes the type of the array parameter it is
// given for (Override.EmptyArray), so a dump loads back. Anchors are fine,
// aliases are not.
//
// All files and -p rules of a command line go into one table (Overrides)
// keyed by node key in order of first appearance; a later value for the
// same key and name replaces the earlier one. For a node, ForNode applies
// every matching key in table order, so the last matching key wins – also
// over an exact name given earlier. A -p rule after a file overrides the
// file's value under the same node key ("/**" for a rule without a node
// prefix); a file section for an exact node name that first appeared after
// "/**" still wins over such a rule, exactly as with rcl. Where rcl's own name tracking would read
// a file differently from its nesting (a key after ros__parameters in the
// same map, or a nested key containing '/' or '.' followed by more keys),
// LoadYAML reports an error instead of guessing.
//
// Errors name the file, the key path and what was expected, and YAML syntax
// errors the line and column (counted from 1) where the parser stopped:
//
//	params/robot1.yaml: /dnetwork_1.ros__parameters.team_number: expected integer, got string "seventeen"
//	params/robot1.yaml: line 34, column 10: did not find expected key (while parsing a block mapping that starts on line 31, column 7; ...)
//
// Overrides.Files lists each file with its node keys, so a node can tell a
// file none of whose keys match its name (rclcpp ignores such a file).
package params
