package params

import (
	"math"
	"strconv"
	"strings"
)

// Scalar typing of rcl_yaml_param_parser (parse.c get_value). A scalar that
// is quoted or tagged !!str is a string. Otherwise the first rule that
// matches decides:
//
//	bool     y Y yes Yes YES true True TRUE on On ON / n N no No NO false False FALSE off Off OFF
//	integer  C strtoll, base 0: 42, -7, +3, 0x1F (hex), 010 (octal: 8), without overflow
//	double   .nan .NaN .NAN .inf .Inf .INF +.inf … -.INF, then C strtod: 1.5, 1e3, 08 (8.0),
//	         .5, 5., inf, nan, infinity, 0x1.8p1, 99999999999999999999 (too big for integer)
//	string   anything else, e.g. 1_000, 1.0.0, ~, null, .nananan
//
// The whole scalar must be consumed, and a strtoll/strtod overflow or
// underflow (ERANGE) rejects that rule, as in rcl.

var (
	yamlTrue  = []string{"Y", "y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
	yamlFalse = []string{"N", "n", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
	// rcl's special spellings of infinity and NaN (YAML 1.1 style).
	yamlSpecialFloat = map[string]float64{
		".nan": math.NaN(), ".NaN": math.NaN(), ".NAN": math.NaN(),
		".inf": math.Inf(1), ".Inf": math.Inf(1), ".INF": math.Inf(1),
		"+.inf": math.Inf(1), "+.Inf": math.Inf(1), "+.INF": math.Inf(1),
		"-.inf": math.Inf(-1), "-.Inf": math.Inf(-1), "-.INF": math.Inf(-1),
	}
)

// scalarValue types one YAML scalar the way rcl does. quoted is true for
// single- or double-quoted scalars and for scalars tagged !!str.
func scalarValue(text string, quoted bool) Value {
	if quoted {
		return String(text)
	}
	for _, s := range yamlTrue {
		if text == s {
			return Bool(true)
		}
	}
	for _, s := range yamlFalse {
		if text == s {
			return Bool(false)
		}
	}
	if i, ok := parseCInt(text); ok {
		return Integer(i)
	}
	if f, ok := yamlSpecialFloat[text]; ok {
		return Double(f)
	}
	if f, ok := parseCFloat(text); ok {
		return Double(f)
	}
	return String(text)
}

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

func isHex(c byte) bool { return hexVal(c) < 16 }

// parseCInt is strtoll(s, &end, 0) that must consume all of s without
// overflow.
func parseCInt(s string) (int64, bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := 10
	switch {
	case i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && isHex(s[i+2]):
		base = 16
		i += 2
	case i < len(s) && s[i] == '0':
		base = 8
	}
	start := i
	var u uint64
	overflow := false
	for ; i < len(s); i++ {
		d := hexVal(s[i])
		if d >= base {
			break
		}
		if u > (math.MaxUint64-uint64(d))/uint64(base) {
			overflow = true
		} else {
			u = u*uint64(base) + uint64(d)
		}
	}
	if i == start || i != len(s) || overflow {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return int64(-u), true // -(1<<63) wraps to MinInt64 as wanted
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// parseCFloat is glibc's strtod(s, &end) that must consume all of s without
// ERANGE: decimal and hexadecimal floats, inf, infinity and nan(…) in any
// case, optional sign and leading white space.
func parseCFloat(s string) (float64, bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	signStart := i
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := s[i:]
	sign := 1.0
	if neg {
		sign = -1
	}
	switch {
	case hasPrefixFold(rest, "infinity"):
		return math.Inf(int(sign)), i+8 == len(s)
	case hasPrefixFold(rest, "inf"):
		return math.Inf(int(sign)), i+3 == len(s)
	case hasPrefixFold(rest, "nan"):
		j := i + 3
		if j < len(s) && s[j] == '(' {
			k := j + 1
			for k < len(s) && (isAlnumByte(s[k]) || s[k] == '_') {
				k++
			}
			if k < len(s) && s[k] == ')' {
				j = k + 1
			}
		}
		return math.Copysign(math.NaN(), sign), j == len(s)
	}
	if len(rest) > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') &&
		(isHex(rest[2]) || rest[2] == '.' && len(rest) > 3 && isHex(rest[3])) {
		return parseHexFloat(s[signStart:i], rest[2:])
	}
	// Decimal: digits [. digits] [e [sign] digits], at least one digit.
	j, digits, nonzero := i, 0, false
	for ; j < len(s) && isDigitByte(s[j]); j++ {
		digits++
		nonzero = nonzero || s[j] != '0'
	}
	if j < len(s) && s[j] == '.' {
		for j++; j < len(s) && isDigitByte(s[j]); j++ {
			digits++
			nonzero = nonzero || s[j] != '0'
		}
	}
	if digits == 0 {
		return 0, false
	}
	j = exponent(s, j, 'e')
	if j != len(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s[signStart:j], 64)
	return f, err == nil && !underflow(f, nonzero)
}

// parseHexFloat reads hex digits [. hex digits] [p [sign] digits] after "0x".
func parseHexFloat(sign, s string) (float64, bool) {
	j, nonzero := 0, false
	for ; j < len(s) && isHex(s[j]); j++ {
		nonzero = nonzero || s[j] != '0'
	}
	if j < len(s) && s[j] == '.' {
		for j++; j < len(s) && isHex(s[j]); j++ {
			nonzero = nonzero || s[j] != '0'
		}
	}
	mant := s[:j]
	e := exponent(s, j, 'p')
	if e != len(s) {
		return 0, false
	}
	exp := "p0"
	if e > j {
		exp = s[j:e]
	}
	f, err := strconv.ParseFloat(sign+"0x"+mant+exp, 64)
	return f, err == nil && !underflow(f, nonzero)
}

// exponent returns the end of an exponent part starting at s[j] with the
// letter e or p; an exponent letter without digits is not consumed.
func exponent(s string, j int, letter byte) int {
	if j >= len(s) || s[j]|0x20 != letter {
		return j
	}
	k := j + 1
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if k >= len(s) || !isDigitByte(s[k]) {
		return j
	}
	for k < len(s) && isDigitByte(s[k]) {
		k++
	}
	return k
}

// underflow is glibc's ERANGE for results too small for a normal double:
// zero from non-zero digits, or a subnormal.
func underflow(f float64, nonzero bool) bool {
	a := math.Abs(f)
	return nonzero && a < 0x1p-1022
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
func isAlnumByte(c byte) bool {
	return isDigitByte(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
