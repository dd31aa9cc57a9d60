// Package inputwake holds the wake rules of the robot's inputs (MotionInfo,
// BehaviorInfo, VisionInfo): which samples must be handled the moment they arrive, and
// which may wait in the reader's ring until the node next needs its inputs
// (ros.NewSubscriptionDeferred).
//
// Most input samples only replace state that is read later: when a packet is built,
// when a status is reported. Handling them then, with the time they arrived, gives the
// same packets and statuses as handling each at once, without waking the node's Go
// thread for every sample. The one thing an input does at once is re-plan the team
// packet's send rate, which reads team.RateConfig.Key of the inputs; so a sample wakes
// the node when its part of that key may differ from the previous sample's:
//
//	BehaviorInfo  team_play_state (any change)
//	VisionInfo    see_ball, and while it is set the class of |ball_field| against
//	              the rate's near and mid distances (within a rounding error of a
//	              limit, always)
//	MotionInfo    never (no rate reads it)
//
// Invariants:
//   - A rule is a superset of the key: whenever RateConfig.Key of the inputs changes
//     with a sample, that sample wakes (TestRulesCoverRateKey checks it on samples made
//     by the generated marshallers, and at the limits).
//   - The rules know the CDR layout of dmsgs up to the fields they read; a change of
//     those messages fails the tests, which marshal with the generated code.
//   - A sample the rule cannot walk (truncated, another encoding) wakes.
package inputwake
