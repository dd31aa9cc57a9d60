package other_msgs

//go:generate go run ../.. ../../testdata/other_msgs=.
