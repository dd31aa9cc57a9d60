// Package boostertest builds and runs the Booster fixture program (package booster's
// testdata/gen.cpp, compiled with g++ against the carried vendor header) for tests of
// any package. Tests that need it skip when g++ is missing.
package boostertest
