// Package teamlinks publishes every teammate's link quality as dmsgs/TeamLinks, once a
// second, and words it for /diagnostics: the figures of package proto/linkq that the team
// component keeps per teammate (team.Status.Links), with the teammate's clock estimate.
//
// Invariants: a message lists the teammates of one team.Status snapshot, by player
// number, each heard within team.LinksFor; a figure that is not known is NaN, never 0;
// nothing is collected or published while nobody subscribes (node/internal/idletick).
package teamlinks
