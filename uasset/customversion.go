package uasset

import (
	"sync"

	"github.com/upkg/upkg/ue"
)

// customVersionNames names the custom version GUIDs the engine and its
// plugins register (FDevVersionRegistration / FCustomVersionRegistration in
// the Dev*ObjectVersion.cpp files) to their names without the F prefix.
// Packages saved with LegacyFileVersion -3 … -5 also store the names, which
// CustomVersion.Name falls back to. A list, not a map: static data rather
// than code that fills a map (the page's WebAssembly has a size budget).
var customVersionNames = []struct {
	key  ue.Guid
	name string
}{
	{ue.AnimObjectVersion, "AnimObjectVersion"},
	{ue.AnimPhysObjectVersion, "AnimPhysObjectVersion"},
	{ue.Guid{0x2EB5FDBD, 0x01AC4D10, 0x8136F38F, 0x3393A5DA}, "AnimationCustomVersion"},
	{ue.Guid{0x717F9EE7, 0xE9B0493A, 0x88B39132, 0x1B388107}, "AssetRegistryVersion"},
	{ue.Guid{0x0DF73D61, 0xA23F47EA, 0xB72789E9, 0x0C41499A}, "AutomationObjectVersion"},
	{ue.BlueprintsObjectVersion, "BlueprintsObjectVersion"},
	{ue.Guid{0xE1C64328, 0xA22C4D53, 0xA36C8E86, 0x6417BD8C}, "BuildObjectVersion"},
	{ue.Guid{0xB2E18506, 0x4273CFC2, 0xA54EF4BB, 0x758BBA07}, "CineCameraObjectVersion"},
	{ue.Guid{0xFB680AF2, 0x59EF4BA3, 0xBAA819B5, 0x73C8443D}, "ClothingAssetCustomVersion"},
	{ue.ControlRigObjectVersion, "ControlRigObjectVersion"},
	{ue.CoreObjectVersion, "CoreObjectVersion"},
	{ue.Guid{0xA26D36AE, 0x26935388, 0xA8C5CB96, 0x2B95B4AF}, "CurveExpressionCustomVersion"},
	{ue.Guid{0xC12F0537, 0x7346D9C5, 0x336FBBA3, 0x738AB145}, "DDGICustomVersion"},
	{ue.Guid{0x9DE7BD98, 0x67D445B2, 0x8C0E9D73, 0xFDE1E367}, "DNAAssetCustomVersion"},
	{ue.Guid{0x174F1F0B, 0xB4C645A5, 0xB13F2EE8, 0xD0FB917D}, "DestructionObjectVersion"},
	{ue.EditorObjectVersion, "EditorObjectVersion"},
	{ue.Guid{0x9DFFBCD6, 0x494F0158, 0xE2211282, 0x3C92A888}, "EnterpriseObjectVersion"},
	{ue.Guid{0x35F94A83, 0xE258406C, 0xA31809F5, 0x9610247C}, "ExternalPhysicsCustomObjectVersion"},
	{ue.Guid{0xB68FC16E, 0x8B1B42E2, 0xB453215C, 0x058844FE}, "ExternalPhysicsMaterialCustomObjectVersion"},
	{ue.Guid{0x430C4D19, 0x71544970, 0x87699B69, 0xDF90B0E5}, "FoliageCustomVersion"},
	{ue.FortniteMainBranchObjectVersion, "FortniteMainBranchObjectVersion"},
	{ue.Guid{0x8DBC2C5B, 0x54A743E0, 0xA768FCBB, 0x7DA29060}, "FortniteValkyrieBranchObjectVersion"},
	{ue.Guid{0xE7086368, 0x6B234C58, 0x84391B70, 0x16265E91}, "FortniteReleaseBranchCustomObjectVersion"},
	{ue.Guid{0x5B4C06B7, 0x24634AF8, 0x805BBF70, 0xCDF5D0DD}, "FortniteSeasonBranchObjectVersion"},
	{ue.FrameworkObjectVersion, "FrameworkObjectVersion"},
	{ue.Guid{0x6EACA3D4, 0x40EC4CC1, 0xB7868BED, 0x09428FC5}, "GeometryObjectVersion"},
	{ue.InstancedStructCustomVersion, "InstancedStructCustomVersion"},
	{ue.Guid{0xAB965196, 0x45D808FC, 0xB7D7228D, 0x78AD569E}, "LiveLinkCustomVersion"},
	{ue.Guid{0xC2A15278, 0xBFE74AFE, 0x6C1790FF, 0x531DF755}, "LoadTimesObjectVersion"},
	{ue.Guid{0x6F0ED827, 0xA6094895, 0x9C91998D, 0x90180EA4}, "MediaFrameworkObjectVersion"},
	{ue.Guid{0xB02B49B5, 0xBB2044E9, 0xA30432B7, 0x52E40360}, "MobileObjectVersion"},
	{ue.NNEModelDataVersion, "NNEModelDataVersion"},
	{ue.Guid{0xA4E4105C, 0x59A149B5, 0xA7C540C4, 0x547EDFEE}, "NetworkingObjectVersion"},
	{ue.Guid{0xFCF57AFA, 0x50764283, 0xB9A9E658, 0xFFA02D32}, "NiagaraCustomVersion"},
	{ue.Guid{0xF2AED0AC, 0x9AFE416F, 0x8664AA7F, 0xFA26D6FC}, "NiagaraObjectVersion"},
	{ue.Guid{0x39C831C9, 0x5AE647DC, 0x9A449C17, 0x3E1C8E7C}, "OnlineObjectVersion"},
	{ue.Guid{0x612FBE52, 0xDA53400B, 0x910D4F91, 0x9FB1857C}, "OverlappingVerticesCustomVersion"},
	{ue.Guid{0x5426C227, 0x4B3145B2, 0x9B9BED1F, 0x327FB126}, "OverridablePropertyBagCustomVersion"},
	{ue.Guid{0x2763920D, 0x0F784B39, 0x986E4BB3, 0xA88D666D}, "PCGCustomVersion"},
	{ue.Guid{0x4A56EB40, 0x10F511DC, 0x92D3347E, 0xB2C96AE7}, "ParticleSystemCustomVersion"},
	{ue.Guid{0x78F01B33, 0xEBEA4F98, 0xB9B484EA, 0xCCB95AA2}, "PhysicsObjectVersion"},
	{ue.Guid{0x6631380F, 0x2D4D43E0, 0x8009CF27, 0x6956A95A}, "PlatformObjectVersion"},
	{ue.Guid{0xAFE08691, 0x3A0D4952, 0xB673673B, 0x7CF22D1E}, "PoseDriverCustomVersion"},
	{ue.Guid{0xAAFE32BD, 0x53954C14, 0xB66A5E25, 0x1032D1DD}, "ProceduralFoliageCustomVersion"},
	{ue.Guid{0x134A157E, 0xD5E249A3, 0x8D4E843C, 0x98FE9E31}, "PropertyBagCustomVersion"},
	{ue.Guid{0x5579F886, 0x933A4C1F, 0x83BA087B, 0x6361B92F}, "RecomputeTangentCustomVersion"},
	{ue.Guid{0x6B266CEC, 0x1EC74B8F, 0xA30BE4D9, 0x0942FC07}, "ReflectionCaptureObjectVersion"},
	{ue.ReleaseObjectVersion, "ReleaseObjectVersion"},
	{ue.Guid{0x12F88B9F, 0x88754AFC, 0xA67CD90C, 0x383ABD29}, "RenderingObjectVersion"},
	{ue.RigVMObjectVersion, "RigVMObjectVersion"},
	{ue.SequencerObjectVersion, "SequencerObjectVersion"},
	{ue.Guid{0xD78A4A00, 0xE8584697, 0xBAA819B5, 0x487D46B4}, "SkeletalMeshCustomVersion"},
	{ue.Guid{0x60C4F0DE, 0x8B264C34, 0xAA937201, 0x5DFF09CC}, "StateTreeInstanceStorageCustomVersion"},
	{ue.Guid{0xCB8AB0CD, 0xE78C4BDE, 0xA8621393, 0x14E9EF62}, "TempCustomVersion"},
	{ue.Guid{0x30D58BE3, 0x95EA4282, 0xA6E3B159, 0xD8EBB06A}, "UE5LWCRenderingStreamObjectVersion"},
	{ue.UE5MainStreamObjectVersion, "UE5MainStreamObjectVersion"},
	{ue.UE5ReleaseStreamObjectVersion, "UE5ReleaseStreamObjectVersion"},
	{ue.Guid{0x59DA5D52, 0x12324948, 0xB8785978, 0x70B8E98B}, "UE5SpecialProjectStreamObjectVersion"},
	{ue.Guid{0xD7296918, 0x1DD64BDD, 0x9DE264A8, 0x3CC13884}, "VRObjectVersion"},
	{ue.Guid{0x24BB7AF3, 0x56464F83, 0x1F2F2DC2, 0x49AD96FF}, "VariantManagerObjectVersion"},
	{ue.Guid{0x64F58936, 0xFD1B42BA, 0xBA967289, 0xD5D0FA4E}, "VirtualProductionObjectVersion"},
	{ue.Guid{0x2C28AC22, 0x15CF46FE, 0xBD19F011, 0x652A3C05}, "WorldConditionCustomVersion"},
	{ue.InterchangeCustomVersion, "InterchangeCustomVersion"},
	{ue.Guid{0x1ED048F4, 0x2F2E4C68, 0x89D053A4, 0xF18F102D}, "WorldSettingCustomVersion"},
	{ue.Guid{0xB6E31B1C, 0xD29F11EC, 0x857E9F85, 0x6F9970E2}, "ShapeComponentCustomVersion"},
	{ue.Guid{0xF6DFBB78, 0xBB50A0E4, 0x4018B84D, 0x60CBAF23}, "IKRigObjectVersion"},
	{ue.Guid{0xA462B7EA, 0xF4994E3A, 0x99C1EC1F, 0x8224E1B2}, "MovieSceneEvaluationCustomVersion"},
	{ue.Guid{0x40D2FBA7, 0x4B484CE5, 0xB0385A75, 0x884E499E}, "WaterCustomVersion"},
	{ue.Guid{0xC1270362, 0xAB230A1F, 0xCB1EC736, 0x71275FAB}, "DataHierarchyElementCustomVersion"},
	{ue.Guid{0, 0, 0, 0xF99D40C1}, "UnusedCustomVersionKey"},
}

// CustomVersionName returns the registered name of a custom version GUID
// ("EditorObjectVersion"), or "".
func CustomVersionName(g ue.Guid) string {
	for _, c := range customVersionNames {
		if c.key == g {
			return c.name
		}
	}
	return ""
}

// CustomVersionKey returns the GUID registered under name (with or without
// the F prefix), and whether there is one.
func CustomVersionKey(name string) (ue.Guid, bool) {
	if len(name) > 1 && name[0] == 'F' && name[1] >= 'A' && name[1] <= 'Z' {
		name = name[1:]
	}
	for _, c := range customVersionNames {
		if c.name == name {
			return c.key, true
		}
	}
	return ue.Guid{}, false
}

// engineCustomVersionColumn returns the release's column in
// engineCustomVersionTable, or -1.
func engineCustomVersionColumn(name string) int {
	col := -1
	for i, n := range engineCustomVersionNames {
		if n == name {
			col = i
		}
	}
	return col
}

// engineCustomVersion returns the version of key the release name writes,
// and whether its table has the key.
func engineCustomVersion(name string, key ue.Guid) (int32, bool) {
	col := engineCustomVersionColumn(name)
	if col < 0 {
		return 0, false
	}
	for _, row := range engineCustomVersionTable {
		if row.key == key {
			return row.values[col], true
		}
	}
	return 0, false
}

// engineCustomVersions returns the custom versions the release name writes,
// for reading unversioned packages as that release. The list is built once
// per release and shared (engine inference asks for it per candidate
// reading of every package): callers must not modify it; its capacity is
// its length, so an append copies.
func engineCustomVersions(name string) []CustomVersion {
	col := engineCustomVersionColumn(name)
	if col < 0 {
		return nil
	}
	engineCustomVersionLists.once.Do(func() {
		lists := make([][]CustomVersion, len(engineCustomVersionNames))
		for c := range lists {
			out := make([]CustomVersion, 0, len(engineCustomVersionTable))
			for _, row := range engineCustomVersionTable {
				out = append(out, CustomVersion{Key: row.key, Version: row.values[c]})
			}
			lists[c] = out[:len(out):len(out)]
		}
		engineCustomVersionLists.byColumn = lists
	})
	return engineCustomVersionLists.byColumn[col]
}

// engineCustomVersionLists holds engineCustomVersions' lists by column.
var engineCustomVersionLists struct {
	once     sync.Once
	byColumn [][]CustomVersion
}
