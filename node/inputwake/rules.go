package inputwake

import (
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

// CDR layout of the fields the rules read (body offsets, after the encapsulation
// header; XCDR1 aligns a value to its size, counted from the body's start).
const (
	// BehaviorInfo: current_role (uint8), skill (string), dest, final_dest and
	// attack_target (3 Vector3 of 24 bytes, 8-aligned), save_image, more_lines,
	// vision_correct_yaw and attack_right (4 bools), team_play_state (uint8).
	behaviorVectorsAndBools = 3*24 + 4
	// VisionInfo: 9 bools (see_field .. correct_yaw; see_ball is the 6th), 3 float32
	// (from 12), robot_pos (Vector3 at 24), ball_field (Vector3 at 48).
	visionSeeBall   = 5
	visionBallField = 48
	cmPerMetre      = 100
)

// Behavior returns the wake rule of BehaviorInfo: its team_play_state.
func Behavior() dds.WakeRule {
	return dds.WakeRule{
		{Op: dds.WakeSkip, N: 1}, // current_role
		{Op: dds.WakeString},     // skill
		{Op: dds.WakeAlign, N: 8},
		{Op: dds.WakeSkip, N: behaviorVectorsAndBools},
		{Op: dds.WakeByte}, // team_play_state
	}
}

// Vision returns the wake rule of VisionInfo for the team's rate r: see_ball, and the
// distance class of ball_field while it is set.
func Vision(r team.RateConfig) dds.WakeRule {
	return dds.WakeRule{
		{Op: dds.WakeSkip, N: visionSeeBall},
		{Op: dds.WakeByte}, // see_ball
		{Op: dds.WakeSkip, N: visionBallField - visionSeeBall - 1},
		{Op: dds.WakeClass2, Div: cmPerMetre, Limits: [2]float64{r.NearDistance, r.MidDistance}}, // ball_field x, y
	}
}

// Motion returns the wake rule of MotionInfo: none (its samples never wake the node;
// they wait until it needs its inputs, or until the ring is half full).
func Motion() dds.WakeRule { return nil }
