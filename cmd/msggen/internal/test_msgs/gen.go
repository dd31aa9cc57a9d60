package test_msgs

// The generated files of this package are also the golden files of msggen's tests
// (TestGolden); the inputs are in ../../testdata/test_msgs.
//go:generate go run ../.. -I ../../testdata/other_msgs=../other_msgs -I ../../../../ros/interfaces/service_msgs -I ../../../../ros/interfaces/builtin_interfaces ../../testdata/test_msgs=.
