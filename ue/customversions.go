package ue

// Custom version keys (the FGuid each engine module registers with
// FDevVersionRegistration / FCustomVersionRegistration in its
// *ObjectVersion.cpp) that the readers branch on, named as the engine's
// structs without the F prefix. uasset's registry names these and the rest.
var (
	AnimObjectVersion               = Guid{0xAF43A65D, 0x7FD34947, 0x98733E8E, 0xD9C1BB05}
	AnimPhysObjectVersion           = Guid{0x29E575DD, 0xE0A34627, 0x9D10D276, 0x232CDCEA}
	BlueprintsObjectVersion         = Guid{0xB0D832E4, 0x1F894F0D, 0xACCF7EB7, 0x36FD4AA2}
	ControlRigObjectVersion         = Guid{0xA7820CFB, 0x20A74359, 0x8C542C14, 0x9623CF50}
	CoreObjectVersion               = Guid{0x375EC13C, 0x06E448FB, 0xB50084F0, 0x262A717E}
	EditorObjectVersion             = Guid{0xE4B068ED, 0xF49442E9, 0xA231DA0B, 0x2E46BB41}
	FortniteMainBranchObjectVersion = Guid{0x601D1886, 0xAC644F84, 0xAA16D3DE, 0x0DEAC7D6}
	FrameworkObjectVersion          = Guid{0xCFFC743F, 0x43B04480, 0x939114DF, 0x171D2073}
	InstancedStructCustomVersion    = Guid{0xE21E1CAA, 0xAF47425E, 0x89BF6AD4, 0x4C44A8BB}
	InterchangeCustomVersion        = Guid{0x92738C43, 0x29884D9C, 0x9A3D9BBE, 0x6EFF9FC0}
	NNEModelDataVersion             = Guid{0x9513202E, 0xEBA1B279, 0xF17FE5BA, 0xAB90C3F2}
	ReleaseObjectVersion            = Guid{0x9C54D522, 0xA8264FBE, 0x94210746, 0x61B482D0}
	RigVMObjectVersion              = Guid{0xDC49959B, 0x53C04DE7, 0x9156EA88, 0x5E7C5D39}
	SequencerObjectVersion          = Guid{0x7B5AE74C, 0xD2704C10, 0xA9585798, 0x0B212A5A}
	SkeletalMeshCustomVersion       = Guid{0xD78A4A00, 0xE8584697, 0xBAA819B5, 0x487D46B4}
	UE5MainStreamObjectVersion      = Guid{0x697DD581, 0xE64F41AB, 0xAA4A51EC, 0xBEB7B628}
	UE5ReleaseStreamObjectVersion   = Guid{0xD89B5E42, 0x24BD4D46, 0x8412ACA8, 0xDF641779}
)
