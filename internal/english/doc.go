// Package english writes counts of things for people: "1 teammate", "2 teammates".
//
// Invariant: a count of exactly one takes the singular, every other count the plural.
package english
