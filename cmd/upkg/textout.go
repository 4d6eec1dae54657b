package main

import (
	"io"
	"strings"
	"unicode/utf8"
)

// textCommands print text made of what files hold (names, paths, property
// values): their standard output escapes control characters, so that a
// name in a damaged or hostile file cannot drive the terminal (an escape
// sequence, a carriage return over a line). Newlines and tabs, which lay
// the output out, are kept. In JSON output the encoder has escaped C0
// already; DEL and C1, which it writes raw, are escaped as \u00NN, which
// is also a JSON escape (a \xNN inside a string made the JSON invalid).
// cat, export and thumbnail write file bytes and are not among them.
var textCommands = map[string]bool{
	"info": true, "names": true, "imports": true, "exports": true, "tree": true,
	"props": true, "dump": true, "ls": true, "verify": true, "extract": true,
}

// controlEscaper writes what it is given to w with control characters
// written as \xNN (C0 but tab and newline) or \u00NN (DEL, C1).
type controlEscaper struct{ w io.Writer }

func (e controlEscaper) Write(p []byte) (int, error) {
	clean := true
	for i := 0; i < len(p); i++ {
		if isControl(p, i) {
			clean = false
			break
		}
	}
	if clean {
		return e.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		switch {
		case p[i] == 0x7f:
			out = append(out, '\\', 'u', '0', '0', '7', 'f')
			i++
		case p[i] < utf8.RuneSelf && isControl(p, i):
			out = append(out, '\\', 'x', hexDigit[p[i]>>4], hexDigit[p[i]&15])
			i++
		case isControl(p, i): // U+0080..U+009F, two bytes
			out = append(out, '\\', 'u', '0', '0', hexDigit[p[i+1]>>4], hexDigit[p[i+1]&15])
			i += 2
		default:
			out = append(out, p[i])
			i++
		}
	}
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

const hexDigit = "0123456789abcdef"

// isControl reports whether p[i] starts a control character to escape.
func isControl(p []byte, i int) bool {
	c := p[i]
	switch {
	case c == '\t' || c == '\n':
		return false
	case c < 0x20 || c == 0x7f:
		return true
	case c == 0xc2 && i+1 < len(p):
		return p[i+1] >= 0x80 && p[i+1] <= 0x9f
	}
	return false
}

// appendField appends s, text from a file (a name, a path, an error that
// quotes them), to a line of output with its line breaks and tabs written
// as \n, \r and \t: a name holding a newline cannot forge a line (a
// "FAIL other" line under an ok one). The control escaper, which keeps
// them for the layout, escapes the rest.
func appendField(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, c)
		}
	}
	return b
}

// field is appendField as a string.
func field(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return string(appendField(nil, s))
}
