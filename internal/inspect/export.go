package inspect

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ContentFile is one file an exporter makes from a package's content: a
// texture as PNG, a sound as WAV, a music module, script source.
type ContentFile struct {
	Export int    // 0-based export index
	Object string // full object path
	Class  string
	// Name is the relative output path ("Group/Object.png"), using "/" and
	// made only of the object's own names; the caller still confines it to
	// its output directory.
	Name string
	Kind string // "texture", "sound", "music", "script", "text", "raw"
	Data []byte
	Note string // e.g. a substitution made while converting
}

// ExportFilter selects exports by name or path (Export) and class name
// (Class), both case-insensitive; empty selects everything with content.
type ExportFilter struct {
	Export string
	Class  string
}

// Exporter converts the selected exports of one package format. It calls
// emit once per selected export, with the file or the reason it could not
// be made; emit's error stops the export.
type Exporter func(in *Input, opts *Options, filter ExportFilter, emit func(ContentFile, error) error) error

var exporters = map[string]Exporter{}

// RegisterExporter adds the content exporter of a package format (the
// Opener's Format name).
func RegisterExporter(format string, fn Exporter) {
	mu.Lock()
	exporters[format] = fn
	mu.Unlock()
}

// ErrNoExporter reports a format without a content exporter.
var ErrNoExporter = errors.New("no content exporter for this format")

// SniffFormat returns the Format of the first opener that matches in.
func SniffFormat(in *Input) (string, error) {
	head := make([]byte, min(64, in.Size))
	if _, err := in.R.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s: %w", in.Name, err)
	}
	mu.RLock()
	defer mu.RUnlock()
	for _, o := range openers {
		if o.Match(head, in.Name) {
			return o.Format, nil
		}
	}
	return "", fmt.Errorf("%s: %w", in.Name, ErrUnknownFormat)
}

// ExportContent runs the exporter of in's format.
func ExportContent(in *Input, opts *Options, filter ExportFilter, emit func(ContentFile, error) error) error {
	format, err := SniffFormat(in)
	if err != nil {
		return err
	}
	mu.RLock()
	fn := exporters[format]
	mu.RUnlock()
	if fn == nil {
		return fmt.Errorf("%s: %w (%s)", in.Name, ErrNoExporter, format)
	}
	return fn(in, opts, filter, emit)
}

// Matches reports whether an object (the index-th export, 0-based; full
// path, name, class) is selected. A class is named alone ("Texture") or
// with its package, as exports prints it ("Engine.Texture"); an export by
// name, path or 1-based index, as props takes it.
func (flt ExportFilter) Matches(index int, path, name, class string) bool {
	if flt.Class != "" && !strings.EqualFold(flt.Class, class) &&
		!strings.EqualFold(flt.Class[strings.LastIndexByte(flt.Class, '.')+1:], class[strings.LastIndexByte(class, '.')+1:]) {
		return false
	}
	if flt.Export != "" && !strings.EqualFold(flt.Export, name) && !strings.EqualFold(flt.Export, path) &&
		!strings.HasSuffix(strings.ToLower(path), "."+strings.ToLower(flt.Export)) && flt.Export != strconv.Itoa(index+1) {
		return false
	}
	return true
}
