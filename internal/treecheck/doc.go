// Package treecheck holds tests of the source tree's own rules, those that no one
// package owns: each package whose name another package of the module shares is
// imported under one name everywhere.
package treecheck
