package uasset

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// WorldTileInfo is FWorldTileInfo from WorldCompositionUtility.h: where a
// level of a world composition lies, stored at WorldTileInfoDataOffset of
// its .umap. The section's bytes are also kept raw (File.WorldTileInfo) for
// the header rewrite.
type WorldTileInfo struct {
	// Position is the tile's offset from its parent: an FIntVector, an
	// FIntPoint (Z 0) before FortniteMainBranchObjectVersion
	// WorldCompositionTile3DOffset (1).
	Position [3]int32 `json:"position"`
	// Bounds is the tile's FBox: float components before UE5
	// LARGE_WORLD_COORDINATES (1004), double after.
	BoundsMin     [3]float64     `json:"bounds_min"`
	BoundsMax     [3]float64     `json:"bounds_max"`
	BoundsIsValid bool           `json:"bounds_is_valid"`
	Layer         WorldTileLayer `json:"layer"`
	// HideInTileView and ParentTilePackageName:
	// VER_UE4_WORLD_LEVEL_INFO_UPDATED (268).
	HideInTileView        bool   `json:"hide_in_tile_view"`
	ParentTilePackageName string `json:"parent_tile_package_name"`
	// LODList: VER_UE4_WORLD_LEVEL_INFO_LOD_LIST (316).
	LODList []WorldTileLODInfo `json:"lod_list"`
	// ZOrder: VER_UE4_WORLD_LEVEL_INFO_ZORDER (319).
	ZOrder int32 `json:"z_order"`
	// Size is the number of bytes the structure took.
	Size int64 `json:"size"`
}

// WorldTileLayer is FWorldTileLayer: the layer a tile is assigned to.
type WorldTileLayer struct {
	Name      string   `json:"name"`
	Reserved0 int32    `json:"reserved0"`
	Reserved1 [2]int32 `json:"reserved1"` // FIntPoint
	// StreamingDistance: VER_UE4_WORLD_LEVEL_INFO_UPDATED (268).
	StreamingDistance int32 `json:"streaming_distance"`
	// DistanceStreamingEnabled: VER_UE4_WORLD_LAYER_ENABLE_DISTANCE_STREAMING (329).
	DistanceStreamingEnabled bool `json:"distance_streaming_enabled"`
}

// WorldTileLODInfo is FWorldTileLODInfo: one LOD level of a tile.
type WorldTileLODInfo struct {
	RelativeStreamingDistance int32   `json:"relative_streaming_distance"`
	Reserved0                 float32 `json:"reserved0"`
	Reserved1                 float32 `json:"reserved1"`
	Reserved2                 int32   `json:"reserved2"`
	Reserved3                 int32   `json:"reserved3"`
}

// fortniteMainBranchObjectVersion is the key of FFortniteMainBranchObjectVersion.
var fortniteMainBranchObjectVersion = ue.Guid{0x601D1886, 0xAC644F84, 0xAA16D3DE, 0x0DEAC7D6}

// fnmWorldCompositionTile3DOffset is FFortniteMainBranchObjectVersion::
// WorldCompositionTile3DOffset: tile positions became FIntVector.
const fnmWorldCompositionTile3DOffset = 1

// customVersion returns the custom version in effect while the header is
// read: the recorded one for a versioned package, the assumed engine's for
// an unversioned one; 0 when absent.
func (f *File) customVersion(key ue.Guid) int32 {
	list := f.Versions.Custom
	if !f.Summary.Unversioned() {
		list = f.Summary.CustomVersions
	}
	for _, c := range list {
		if c.Key == key {
			return c.Version
		}
	}
	return 0
}

// decodeWorldTile decodes the world tile info kept in raw. A failure is
// the section's error: the bytes do not hold an FWorldTileInfo of this
// engine version (for inference, a sign of the wrong layout).
func (f *File) decodeWorldTile(raw *RawSection) (*WorldTileInfo, error) {
	br := binread.FromBytes(raw.Data)
	if f.BigEndian {
		br.SetOrder(binary.BigEndian)
	}
	v := &f.Versions
	t := &WorldTileInfo{}
	t.Position[0] = br.I32("WorldTileInfo.Position.X")
	t.Position[1] = br.I32("WorldTileInfo.Position.Y")
	if f.customVersion(fortniteMainBranchObjectVersion) >= fnmWorldCompositionTile3DOffset {
		t.Position[2] = br.I32("WorldTileInfo.Position.Z")
	}
	for _, vec := range []*[3]float64{&t.BoundsMin, &t.BoundsMax} {
		for i := range vec {
			if v.UE5 >= VerUE5LargeWorldCoordinates {
				vec[i] = br.F64("WorldTileInfo.Bounds")
			} else {
				vec[i] = float64(br.F32("WorldTileInfo.Bounds"))
			}
		}
	}
	switch b := br.U8("WorldTileInfo.Bounds.IsValid"); b {
	case 0, 1:
		t.BoundsIsValid = b == 1
	default:
		br.Fail("WorldTileInfo.Bounds.IsValid", fmt.Errorf("%d is neither 0 nor 1", b))
	}
	t.Layer.Name = br.FString("WorldTileLayer.Name")
	t.Layer.Reserved0 = br.I32("WorldTileLayer.Reserved0")
	t.Layer.Reserved1[0] = br.I32("WorldTileLayer.Reserved1.X")
	t.Layer.Reserved1[1] = br.I32("WorldTileLayer.Reserved1.Y")
	if v.UE4 >= VerUE4WorldLevelInfoUpdated {
		t.Layer.StreamingDistance = br.I32("WorldTileLayer.StreamingDistance")
	}
	if v.UE4 >= VerUE4WorldLayerEnableDistanceStreaming {
		t.Layer.DistanceStreamingEnabled = br.Bool32("WorldTileLayer.DistanceStreamingEnabled")
	}
	if v.UE4 >= VerUE4WorldLevelInfoUpdated {
		t.HideInTileView = br.Bool32("WorldTileInfo.bHideInTileView")
		t.ParentTilePackageName = br.FString("WorldTileInfo.ParentTilePackageName")
	}
	if v.UE4 >= VerUE4WorldLevelInfoLODList {
		n := br.Count("WorldTileInfo.LODList", 20)
		t.LODList = make([]WorldTileLODInfo, 0, binread.SliceCap(n))
		for i := 0; i < n && br.Err() == nil; i++ {
			t.LODList = append(t.LODList, WorldTileLODInfo{
				RelativeStreamingDistance: br.I32("WorldTileLODInfo.RelativeStreamingDistance"),
				Reserved0:                 br.F32("WorldTileLODInfo.Reserved0"),
				Reserved1:                 br.F32("WorldTileLODInfo.Reserved1"),
				Reserved2:                 br.I32("WorldTileLODInfo.Reserved2"),
				Reserved3:                 br.I32("WorldTileLODInfo.Reserved3"),
			})
		}
	}
	if v.UE4 >= VerUE4WorldLevelInfoZOrder {
		t.ZOrder = br.I32("WorldTileInfo.ZOrder")
	}
	if err := br.Err(); err != nil {
		var be *binread.Error
		if errors.As(err, &be) {
			// The cursor counted from the section start.
			err = &binread.Error{Offset: raw.Offset + be.Offset, Field: be.Field, Err: be.Err}
		}
		return nil, formatErr("world tile info", err)
	}
	t.Size = br.Offset()
	return t, nil
}
