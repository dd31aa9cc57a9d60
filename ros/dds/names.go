package dds

import "fmt"

// ValidateTopicName checks name the way Cyclone DDS 0.10 does before creating a topic:
// not empty, not starting with a digit, and only ASCII letters, digits, '_' and '/'.
// ROS topic names mangled with the rt/, rq/ and rr/ prefixes always pass.
func ValidateTopicName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: empty", ErrTopicName)
	}
	if c := name[0]; c >= '0' && c <= '9' {
		return fmt.Errorf("%w: %q starts with a digit", ErrTopicName, name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '/') {
			return fmt.Errorf("%w: %q has %q at byte %d (allowed: letters, digits, '_', '/')", ErrTopicName, name, c, i)
		}
	}
	if name[:min(4, len(name))] == "DCPS" {
		return fmt.Errorf("%w: %q uses the reserved prefix DCPS", ErrTopicName, name)
	}
	return nil
}

// ValidateTypeName checks a DDS type name such as "std_msgs::msg::dds_::String_":
// not empty, no NUL byte, no control characters.
func ValidateTypeName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: empty", ErrTypeName)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f {
			return fmt.Errorf("%w: %q has control byte 0x%02x at %d", ErrTypeName, name, c, i)
		}
	}
	return nil
}
