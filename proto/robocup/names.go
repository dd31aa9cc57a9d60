package robocup

import "google.golang.org/protobuf/encoding/protowire"

// StandardFieldMax is the highest field number the standard reserves for itself
// (robocup.proto: "IDs 1-100 are reserved for official use"); teams extend above it.
const StandardFieldMax protowire.Number = 100

// RoleNames returns the names of the Bit-Bots roles (field 105) by value, as their
// robocup_extension.proto spells them.
func RoleNames() []string {
	return []string{"ROLE_UNDEFINED", "ROLE_IDLING", "ROLE_OTHER", "ROLE_STRIKER", "ROLE_SUPPORTER",
		"ROLE_DEFENDER", "ROLE_GOALIE"}
}

// ActionNames returns the names of the Bit-Bots actions (field 106) by value.
func ActionNames() []string {
	return []string{"ACTION_UNDEFINED", "ACTION_POSITIONING", "ACTION_GOING_TO_BALL", "ACTION_TRYING_TO_SCORE",
		"ACTION_WAITING", "ACTION_KICKING", "ACTION_SEARCHING", "ACTION_LOCALIZING", "ACTION_PASSIVE"}
}

// OffensiveSideNames returns the names of the Bit-Bots offensive sides (field 107) by value.
func OffensiveSideNames() []string {
	return []string{"SIDE_UNDEFINED", "SIDE_LEFT", "SIDE_MIDDLE", "SIDE_RIGHT"}
}

// PurposeNames returns the names of NUbots' purposes (enum SoccerPosition) by value.
func PurposeNames() []string {
	return []string{"DEFENDER", "STRIKER"}
}
