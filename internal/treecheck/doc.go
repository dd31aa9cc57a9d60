// Package treecheck holds tests of the source tree's own rules, those that no one
// package owns:
//
//   - each package whose name another package of the module shares is imported under
//     one name everywhere;
//   - each package has a doc.go carrying its package comment, which opens with
//     "Package <name> " ("Command <binary> " for a main package), and no other non-test
//     file of the package carries one.
package treecheck
