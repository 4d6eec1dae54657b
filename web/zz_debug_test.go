package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestZZDebug(t *testing.T) {
	pg := newPage(t)
	bp := "/work/shared/corpus/uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/BP_WorldChunk.uasset"
	pg.drop(bp)
	pg.tab("thumbs")
	pg.do(chromedp.Sleep(2 * time.Second))
	t.Log(pg.text("#view"))
	t.Log(js[string](pg, `document.querySelector('.thumbs').innerHTML`))
}
