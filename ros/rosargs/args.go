package rosargs

import (
	"errors"
	"fmt"
	"strings"
)

// Flags and tokens of the ROS command line (rcl/arguments.h).
const (
	FlagROSArgs  = "--ros-args" // starts a ROS section
	FlagEnd      = "--"         // ends a ROS section
	FlagParam    = "--param"
	FlagParamP   = "-p"
	FlagParams   = "--params-file"
	FlagRemap    = "--remap"
	FlagRemapR   = "-r"
	FlagEnclave  = "--enclave"
	FlagEnclaveE = "-e"
	FlagLogLevel = "--log-level"
	FlagLogFile  = "--log-file-name" // added in rcl 9 (Jazzy); accepted for every distribution
	FlagLogConf  = "--log-config-file"
)

// Errors callers can test with errors.Is.
var (
	// ErrUnknownArg: an argument inside a ROS section that is no ROS argument.
	ErrUnknownArg = errors.New("rosargs: unknown ROS argument")
	// ErrInvalidArg: a ROS flag without its value, or a rule that does not parse.
	ErrInvalidArg = errors.New("rosargs: invalid ROS argument")
)

// ArgError reports a ROS flag whose value is missing or does not parse.
type ArgError struct {
	Flag    string // the flag as given, e.g. "-r"
	Value   string // the value after the flag
	Missing bool   // the flag was the last argument
	Reason  string // what is wrong
}

func (e *ArgError) Error() string {
	if e.Missing {
		return fmt.Sprintf("rosargs: %s at the end of the arguments: %s", e.Flag, e.Reason)
	}
	return fmt.Sprintf("rosargs: %s %q: %s", e.Flag, e.Value, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidArg) true.
func (e *ArgError) Is(target error) bool { return target == ErrInvalidArg }

// UnknownArgsError lists the arguments inside ROS sections that are not ROS
// arguments. rclcpp refuses to start in that case, and so do we.
type UnknownArgsError struct {
	Args []string
}

func (e *UnknownArgsError) Error() string {
	q := make([]string, len(e.Args))
	for i, a := range e.Args {
		q[i] = fmt.Sprintf("%q", a)
	}
	s := ""
	if len(q) > 1 {
		s = "s"
	}
	return fmt.Sprintf("rosargs: unknown ROS argument%s %s after %s (end the ROS section with %q to pass arguments to the program)",
		s, strings.Join(q, ", "), FlagROSArgs, FlagEnd)
}

// Is makes errors.Is(err, ErrUnknownArg) true.
func (e *UnknownArgsError) Is(target error) bool { return target == ErrUnknownArg }

// ParamArg is one --params-file or -p/--param argument. They are kept in
// command-line order because that order decides which value wins.
type ParamArg struct {
	File  string // --params-file: the file name; empty for -p
	Node  string // -p: the node the override is for, "/**" when the rule has no node prefix
	Name  string // -p: the parameter name
	Value string // -p: the value, YAML text (typed by the params package)
	Arg   string // the flag and its value as given, for error messages, e.g. "-p team_id:=7"
}

// LoggerLevel is one --log-level LOGGER:=LEVEL.
type LoggerLevel struct {
	Logger string
	Level  LogLevel
}

// Args is everything found in the ROS sections of a command line.
type Args struct {
	Remaps        []Remap       // -r/--remap rules in order; the first matching rule wins
	Params        []ParamArg    // --params-file and -p/--param in order; later values win
	LogLevel      LogLevel      // --log-level LEVEL (LogUnset when absent; the last one wins)
	LoggerLevels  []LoggerLevel // --log-level LOGGER:=LEVEL, one entry per logger, the last level given wins
	LogConfigFile string        // --log-config-file
	LogFileName   string        // --log-file-name
	Enclave       string        // -e/--enclave (the last one wins)

	DisableStdoutLogs      bool // --disable-stdout-logs (--enable-stdout-logs clears it)
	DisableRosoutLogs      bool // --disable-rosout-logs
	DisableExternalLibLogs bool // --disable-external-lib-logs

	// DeprecatedRemaps are program arguments outside any ROS section that
	// parse as remap rules. rcl takes them as remaps (with a deprecation
	// warning) and removes them from the program's arguments; so do we.
	DeprecatedRemaps []string
}

// ParamFiles returns the --params-file names in order.
func (a *Args) ParamFiles() []string {
	var files []string
	for _, p := range a.Params {
		if p.File != "" {
			files = append(files, p.File)
		}
	}
	return files
}

// Parse splits args (the command line without the program name) into the ROS
// arguments and the program's own arguments, as rcl_parse_arguments and
// rcl_remove_ros_arguments do. rest keeps the order of the program's
// arguments and is ready for the flag package.
//
// A ROS flag without a value or with a rule that does not parse gives an
// *ArgError; arguments inside a ROS section that are not ROS arguments give
// an *UnknownArgsError naming all of them.
func Parse(args []string) (a *Args, rest []string, err error) {
	a = &Args{}
	var unknown []string
	inROS := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !inROS {
			if arg == FlagROSArgs {
				inROS = true
				continue
			}
			if r, err := parseRemap(arg); err == nil {
				a.Remaps = append(a.Remaps, r)
				a.DeprecatedRemaps = append(a.DeprecatedRemaps, arg)
				continue
			}
			rest = append(rest, arg)
			continue
		}
		// value returns the argument after the flag.
		value := func(what string) (string, error) {
			if i+1 >= len(args) {
				return "", &ArgError{Flag: arg, Missing: true, Reason: "needs " + what}
			}
			i++
			return args[i], nil
		}
		switch arg {
		case FlagROSArgs:
		case FlagEnd:
			inROS = false
		case FlagParam, FlagParamP:
			v, err := value("a parameter rule name:=value")
			if err != nil {
				return nil, nil, err
			}
			node, name, val, err := parseParamRule(v)
			if err != nil {
				return nil, nil, &ArgError{Flag: arg, Value: v, Reason: err.Error()}
			}
			a.Params = append(a.Params, ParamArg{Node: node, Name: name, Value: val, Arg: arg + " " + v})
		case FlagRemap, FlagRemapR:
			v, err := value("a remap rule from:=to")
			if err != nil {
				return nil, nil, err
			}
			r, err := parseRemap(v)
			if err != nil {
				return nil, nil, &ArgError{Flag: arg, Value: v, Reason: err.Error()}
			}
			a.Remaps = append(a.Remaps, r)
		case FlagParams:
			v, err := value("a file name")
			if err != nil {
				return nil, nil, err
			}
			if v == "" {
				return nil, nil, &ArgError{Flag: arg, Reason: "empty file name"}
			}
			a.Params = append(a.Params, ParamArg{File: v, Arg: arg + " " + v})
		case FlagLogLevel:
			v, err := value("a level or logger:=level")
			if err != nil {
				return nil, nil, err
			}
			logger, level, err := parseLogLevel(v)
			if err != nil {
				return nil, nil, &ArgError{Flag: arg, Value: v, Reason: err.Error()}
			}
			a.setLogLevel(logger, level)
		case FlagLogFile:
			if a.LogFileName, err = value("a file name prefix"); err != nil {
				return nil, nil, err
			}
		case FlagLogConf:
			if a.LogConfigFile, err = value("a file name"); err != nil {
				return nil, nil, err
			}
		case FlagEnclave, FlagEnclaveE:
			if a.Enclave, err = value("an enclave name"); err != nil {
				return nil, nil, err
			}
		default:
			if !a.logFlag(arg) {
				unknown = append(unknown, arg)
			}
		}
	}
	if len(unknown) > 0 {
		return nil, nil, &UnknownArgsError{Args: unknown}
	}
	return a, rest, nil
}

func (a *Args) setLogLevel(logger string, level LogLevel) {
	if logger == "" {
		a.LogLevel = level
		return
	}
	for i := range a.LoggerLevels {
		if a.LoggerLevels[i].Logger == logger {
			a.LoggerLevels[i].Level = level
			return
		}
	}
	a.LoggerLevels = append(a.LoggerLevels, LoggerLevel{Logger: logger, Level: level})
}

// logFlag handles --enable-X and --disable-X for the three log outputs.
func (a *Args) logFlag(arg string) bool {
	var disable bool
	switch {
	case strings.HasPrefix(arg, "--enable-"):
		arg = arg[len("--enable-"):]
	case strings.HasPrefix(arg, "--disable-"):
		arg, disable = arg[len("--disable-"):], true
	default:
		return false
	}
	switch arg {
	case "stdout-logs":
		a.DisableStdoutLogs = disable
	case "rosout-logs":
		a.DisableRosoutLogs = disable
	case "external-lib-logs":
		a.DisableExternalLibLogs = disable
	default:
		return false
	}
	return true
}

// LevelFor returns the level --log-level set for logger, or for the closest
// ancestor logger ("robot1" for "robot1.dnetwork"), else the default level;
// this is how rcutils finds a logger's effective level.
func (a *Args) LevelFor(logger string) LogLevel {
	for {
		for _, l := range a.LoggerLevels {
			if l.Logger == logger && l.Level != LogUnset {
				return l.Level
			}
		}
		i := strings.LastIndexByte(logger, '.')
		if i < 0 {
			return a.LogLevel
		}
		logger = logger[:i]
	}
}
