package main

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// goLiteral converts a .msg value (constant or default value) of type t into a Go
// expression, checking it as rosidl_adapter does.
func goLiteral(t Type, raw string) (string, error) {
	if t.IsNested() {
		return "", fmt.Errorf("no literal for message type %s/%s", t.Pkg, t.Msg)
	}
	elem := t
	elem.Array, elem.Size = NotArray, 0
	if t.Array == NotArray {
		return primLiteral(elem, raw)
	}
	if !strings.HasPrefix(raw, "[") || !strings.HasSuffix(raw, "]") {
		return "", fmt.Errorf("array value %q must start with '[' and end with ']'", raw)
	}
	inner := raw[1 : len(raw)-1]
	var parts []string
	var err error
	if t.Prim == "string" {
		parts, err = splitStringArray(inner)
		if err != nil {
			return "", err
		}
	} else if strings.TrimSpace(inner) != "" {
		parts = strings.Split(inner, ",")
	}
	switch {
	case t.Array == FixedArray && len(parts) != t.Size:
		return "", fmt.Errorf("array value %q must have exactly %d elements, not %d", raw, t.Size, len(parts))
	case t.Array == BoundedSequence && len(parts) > t.Size:
		return "", fmt.Errorf("array value %q must have at most %d elements, not %d", raw, t.Size, len(parts))
	}
	lits := make([]string, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if t.Prim == "string" {
			p = strconv.Quote(p) // already unquoted by splitStringArray
			lits[i] = p
			if elem.StrBound > 0 {
				u, _ := strconv.Unquote(p)
				if len(u) > elem.StrBound {
					return "", fmt.Errorf("element %d of %q is longer than %d bytes", i, raw, elem.StrBound)
				}
			}
			continue
		}
		if lits[i], err = primLiteral(elem, p); err != nil {
			return "", fmt.Errorf("element %d of %q: %w", i, raw, err)
		}
	}
	typ := "[]" + goPrimTypes[t.Prim]
	if t.Array == FixedArray {
		typ = fmt.Sprintf("[%d]%s", t.Size, goPrimTypes[t.Prim])
	}
	return typ + "{" + strings.Join(lits, ", ") + "}", nil
}

var intBits = map[string]struct {
	bits   int
	signed bool
}{
	"byte": {8, false}, "char": {8, false},
	"int8": {8, true}, "uint8": {8, false}, "int16": {16, true}, "uint16": {16, false},
	"int32": {32, true}, "uint32": {32, false}, "int64": {64, true}, "uint64": {64, false},
}

func primLiteral(t Type, raw string) (string, error) {
	switch t.Prim {
	case "bool":
		switch strings.ToLower(raw) {
		case "true", "1":
			return "true", nil
		case "false", "0":
			return "false", nil
		}
		return "", fmt.Errorf("bool value %q must be true/1 or false/0", raw)
	case "float32", "float64":
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return "", fmt.Errorf("%s value %q must be a finite number with '.' as separator", t.Prim, raw)
		}
		if t.Prim == "float32" && math.Abs(v) > math.MaxFloat32 {
			return "", fmt.Errorf("float32 value %q is out of range", raw)
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case "string":
		s, err := unquoteMsgString(raw)
		if err != nil {
			return "", err
		}
		if t.StrBound > 0 && len(s) > t.StrBound {
			return "", fmt.Errorf("string value %q is longer than %d bytes", s, t.StrBound)
		}
		return strconv.Quote(s), nil
	}
	ib, ok := intBits[t.Prim]
	if !ok {
		return "", fmt.Errorf("no literal for type %s", t.Prim)
	}
	v, ok := new(big.Int).SetString(raw, 10)
	if !ok && (strings.HasPrefix(raw, "0x") || strings.HasPrefix(raw, "0X") || strings.HasPrefix(raw, "0o") ||
		strings.HasPrefix(raw, "0b") || strings.HasPrefix(raw, "-0x")) {
		v, ok = new(big.Int).SetString(raw, 0)
	}
	if !ok {
		return "", fmt.Errorf("%s value %q is not an integer", t.Prim, raw)
	}
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(ib.bits))
	if ib.signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return "", fmt.Errorf("%s value %q is outside [%s, %s]", t.Prim, raw, lo, hi)
	}
	return v.String(), nil
}

// unquoteMsgString removes one pair of matching outer quotes (' or ") and the
// backslashes before escaped inner quotes of that kind.
func unquoteMsgString(raw string) (string, error) {
	for _, q := range []string{`"`, `'`} {
		if len(raw) >= 2 && strings.HasPrefix(raw, q) && strings.HasSuffix(raw, q) {
			inner := raw[1 : len(raw)-1]
			if regexp.MustCompile(`(^|[^\\])` + q).MatchString(inner) {
				return "", fmt.Errorf("string value %s has an unescaped inner quote", raw)
			}
			return strings.ReplaceAll(inner, `\`+q, q), nil
		}
	}
	return raw, nil
}

// splitStringArray splits the inside of a string array value at commas outside quotes.
func splitStringArray(s string) ([]string, error) {
	var out []string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return out, nil
		}
		if s[0] == ',' {
			return nil, fmt.Errorf("unexpected ',' in string array at %q", s)
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := -1
			for i := 1; i < len(s); i++ {
				if s[i] == q && s[i-1] != '\\' {
					end = i
					break
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in string array at %q", s)
			}
			out = append(out, strings.ReplaceAll(s[1:end], `\`+string(q), string(q)))
			s = s[end+1:]
		} else {
			i := strings.IndexByte(s, ',')
			if i < 0 {
				i = len(s)
			}
			out = append(out, strings.TrimRight(s[:i], " "))
			s = s[i:]
		}
		s = strings.TrimLeft(s, " ")
		if s != "" {
			if s[0] != ',' {
				return nil, fmt.Errorf("want ',' in string array at %q", s)
			}
			s = s[1:]
		}
	}
}
