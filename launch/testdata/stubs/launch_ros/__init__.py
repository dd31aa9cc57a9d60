"""Stand-in for the launch_ros package (tests only)."""
