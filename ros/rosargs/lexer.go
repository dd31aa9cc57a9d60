package rosargs

// The lexer reproduces the state machine of rcl's lexer (rcl/src/rcl/lexer.c),
// which every rule after -r, -p and --log-level goes through. Reproducing it
// state by state keeps the odd corners identical to a C++ or Python node:
// "rostopic:" is a plain name token unless "//" follows, "__nodex" is the
// __node lexeme followed by the token "x", "a__b" is the two tokens "a_" and
// "_b", and a name token never starts with a digit.

// lexeme is the kind of one lexical element of a rule.
type lexeme uint8

const (
	lexNone       lexeme = iota // no valid lexeme starts here
	lexEOF                      // end of the rule
	lexTildeSlash               // ~/
	lexURLService               // rosservice://
	lexURLTopic                 // rostopic://
	lexColon                    // :
	lexNode                     // __node or __name
	lexNS                       // __ns
	lexSeparator                // :=
	lexBackref                  // \1 … \9
	lexToken                    // a name token: (([a-zA-Z]_?)|_)([0-9a-zA-Z]_?)*
	lexSlash                    // /
	lexWildOne                  // *
	lexWildMulti                // **
	lexDot                      // .
)

var lexemeNames = [...]string{
	lexNone:       "invalid character",
	lexEOF:        "end of rule",
	lexTildeSlash: "'~/'",
	lexURLService: "'rosservice://'",
	lexURLTopic:   "'rostopic://'",
	lexColon:      "':'",
	lexNode:       "'__node'",
	lexNS:         "'__ns'",
	lexSeparator:  "':='",
	lexBackref:    "back-reference",
	lexToken:      "name",
	lexSlash:      "'/'",
	lexWildOne:    "'*'",
	lexWildMulti:  "'**'",
	lexDot:        "'.'",
}

func (l lexeme) String() string {
	if int(l) < len(lexemeNames) {
		return lexemeNames[l]
	}
	return "unknown lexeme"
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// Lexer states, numbered as in rcl's state diagram.
const (
	st0 = iota
	st1
	st2
	st3
	st4
	st5
	st6
	st7
	st8
	st9
	st10
	st11
	st12
	st13
	st14
	st15
	st16
	st17
	st18
	st19
	st20
	st21
	st22
	st23
	st24
	st25
	st26
	st27
	st28
	st29
	st30
	st31
)

// keyword spells the characters that lead from st11 ("r") through
// "rostopic:" (st12…st18) and "rosservice:" (st21…st27); any other character
// falls back to st9 and the text so far is an ordinary name token.
var keyword = map[int]struct {
	c    byte
	next int
}{
	st11: {'o', st12}, st12: {'s', st13},
	st14: {'o', st15}, st15: {'p', st16}, st16: {'i', st17}, st17: {'c', st18}, st18: {':', st19},
	st21: {'e', st22}, st22: {'r', st23}, st23: {'v', st24}, st24: {'i', st25}, st25: {'c', st26},
	st26: {'e', st27}, st27: {':', st28},
}

// lex returns the lexeme at the start of s and its length in bytes. The
// length of lexNone includes the character that made a lexeme impossible, so
// it is never zero for a non-empty s.
func lex(s string) (lexeme, int) {
	if s == "" {
		return lexEOF, 0
	}
	n, st := 0, st0
	for {
		end := n >= len(s)
		var c byte
		if !end {
			c = s[n]
		}
		// none ends the scan with lexNone, consuming the offending character.
		none := func() (lexeme, int) {
			if end {
				return lexNone, n
			}
			return lexNone, n + 1
		}
		switch st {
		case st0:
			switch {
			case c == '/':
				return lexSlash, n + 1
			case c == '.':
				return lexDot, n + 1
			case c == '\\':
				st = st1
			case c == '~':
				st = st2
			case c == '_':
				st = st3
			case c == 'r':
				st = st11
			case isAlpha(c):
				st = st9
			case c == '*':
				st = st30
			case c == ':':
				st = st31
			default:
				return none()
			}
			n++
		case st1:
			if c >= '1' && c <= '9' {
				return lexBackref, n + 1
			}
			return none()
		case st2:
			if c == '/' {
				return lexTildeSlash, n + 1
			}
			return none()
		case st3:
			if c == '_' {
				st = st4
				n++
			} else {
				st = st10 // look at the same character again
			}
		case st4:
			if c != 'n' {
				return none()
			}
			st = st5
			n++
		case st5:
			switch c {
			case 's':
				return lexNS, n + 1
			case 'o':
				st = st6
			case 'a':
				st = st7
			default:
				return none()
			}
			n++
		case st6, st7:
			want := byte('d')
			if st == st7 {
				want = 'm'
			}
			if c != want {
				return none()
			}
			st = st8
			n++
		case st8:
			if c == 'e' {
				return lexNode, n + 1
			}
			return none()
		case st9:
			switch {
			case isAlnum(c):
				n++
			case c == '_':
				st = st10
				n++
			default:
				return lexToken, n
			}
		case st10:
			if !isAlnum(c) {
				return lexToken, n
			}
			st = st9
			n++
		case st13:
			switch c {
			case 't':
				st = st14
				n++
			case 's':
				st = st21
				n++
			default:
				st = st9
			}
		case st19, st28:
			if c == '/' {
				st++ // st20 or st29
				n++
			} else {
				st = st9
				n-- // back to the ':'
			}
		case st20, st29:
			if c == '/' {
				if st == st20 {
					return lexURLTopic, n + 1
				}
				return lexURLService, n + 1
			}
			st = st9
			n -= 2 // back to the ':'
		case st30:
			if c == '*' {
				return lexWildMulti, n + 1
			}
			return lexWildOne, n
		case st31:
			if c == '=' {
				return lexSeparator, n + 1
			}
			return lexColon, n
		default: // st11, st12, st14…st18, st21…st27
			k := keyword[st]
			if c == k.c {
				st = k.next
				n++
			} else {
				st = st9
			}
		}
	}
}

// scanner is rcl's two-lexeme lookahead over one rule.
type scanner struct {
	s   string
	pos int
}

// peek returns the next lexeme and its length without consuming it.
func (p *scanner) peek() (lexeme, int) { return lex(p.s[p.pos:]) }

// peek2 returns the next two lexemes.
func (p *scanner) peek2() (lexeme, lexeme) {
	l1, n1 := p.peek()
	if l1 == lexEOF {
		return lexEOF, lexEOF
	}
	l2, _ := lex(p.s[p.pos+n1:])
	return l1, l2
}

// accept consumes the next lexeme and returns its text.
func (p *scanner) accept() string {
	_, n := p.peek()
	t := p.s[p.pos : p.pos+n]
	p.pos += n
	return t
}

// expect consumes the next lexeme if it is of kind k.
func (p *scanner) expect(k lexeme) (string, bool) {
	if l, _ := p.peek(); l != k {
		return "", false
	}
	return p.accept(), true
}

// rest is the unconsumed text.
func (p *scanner) rest() string { return p.s[p.pos:] }
