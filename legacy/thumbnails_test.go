package legacy

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// TestThumbnails reads the editor thumbnails of UE3 packages: the table's
// entries and each image's header and bytes; packages before version 584,
// and those saved without a table, have none.
func TestThumbnails(t *testing.T) {
	for _, tt := range []struct {
		rel  string
		want []string // "Class Path format WxH size"
	}{
		{"Martinii89+Unreal-Library/010-Stuff/Stars_UDK.upk", []string{"StaticMesh Stars_2 png 256x256 4621"}},
		{"RossM+XCOM2ShadowOps/Content/UILibrary_BlackOps.upk", []string{"Texture2D UIPerk_AWC png 32x32 922", "Texture2D UIPerk_scrounger png 32x32 101"}},
		{"provokingastorm+Tarp/UDKGame/Content/TestPackages/UDNExamples/KismetExamples.upk", []string{"ParticleSystem PS_HitEffect png 256x256 6163", "SoundCue homing_beacon_Cue empty 0x0 0", ""}},
		{"Deaod+UT99/System/Engine.u", nil},
	} {
		t.Run(tt.rel, func(t *testing.T) {
			f, err := Open(corpus.Path(t, "legacy_ue123", tt.rel))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			thumbs, err := f.Thumbnails()
			if err != nil {
				t.Fatal(err)
			}
			if len(thumbs) != len(tt.want) {
				t.Fatalf("%d thumbnails, want %d: %+v", len(thumbs), len(tt.want), thumbs)
			}
			for i, th := range thumbs {
				got := fmt.Sprintf("%s %s %s %dx%d %d", th.ObjectClassName, th.ObjectPath, th.Format, th.Width, th.Height, th.DataSize)
				if tt.want[i] != "" && got != tt.want[i] {
					t.Errorf("thumbnail %d: %s, want %s", i, got, tt.want[i])
				}
				data, err := f.ThumbnailData(th)
				if err != nil || int64(len(data)) != th.DataSize {
					t.Fatalf("thumbnail %d: %d bytes, %v", i, len(data), err)
				}
				if th.Format == "png" && !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
					t.Errorf("thumbnail %d: not a PNG: % x", i, data[:8])
				}
			}
		})
	}
}
