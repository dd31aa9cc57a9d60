package robocup

//go:generate sh gen.sh
