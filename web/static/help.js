// Explanations shown as tooltips and help text: what each header field,
// flag and section means, in words a technical artist can use. Facts come
// from the engine's own headers (PackageFileSummary.h, ObjectMacros.h,
// ObjectResource.h); the wording is upkg's.
'use strict';

const HELP = {
  fields: {
    Tag: 'Magic number 0x9E2A83C1 that marks an Unreal package.',
    LegacyFileVersion: 'Negative number telling which layout of the header follows (-7 is UE4.x, -8 UE5.0–5.x, -9 newer UE5).',
    FileVersion: 'Package file version of a UE1–UE3 package: about 61–69 for Unreal and UT99, 100–129 for UE2 games such as UT2004, several hundred for UE3.',
    LicenseeVersion: 'Version number a studio with a modified engine (a licensee) can bump. 0 for stock engines.',
    LegacyUE3Version: 'Leftover UE3 version field, kept for compatibility; usually 864 or 0.',
    FileVersionUE4: 'Object version of the engine that saved the file (the UE4 numbering). 0 means "unversioned": a cooked file that does not say which engine made it.',
    FileVersionUE5: 'UE5 object version: grows with every format change in UE5 (1000 = UE5.0, 1017 = UE5.6…). 0 for UE4 files and unversioned cooked files.',
    FileVersionLicenseeUE: 'Version number a studio with a modified engine (a licensee) can bump. 0 for stock engines.',
    CustomVersions: 'Per-subsystem version numbers (rendering, animation, Niagara…). Each engine module bumps its own number when its data layout changes.',
    SavedHash: 'Hash of the package as saved (UE5.6 and later; it replaced the Guid).',
    TotalHeaderSize: 'Size in bytes of everything before the export data: the summary, name map, imports, exports and other tables.',
    PackageName: 'The package path the editor saved under, e.g. /Game/Characters/BP_Hero.',
    FolderName: 'The package path the editor saved under, e.g. /Game/Characters/BP_Hero.',
    PackageFlags: 'Package-wide flags (see the explanation of each flag).',
    Name: 'Name map: every text name used in the package (object names, class names, property names) is stored once here and referenced by number.',
    SoftObjectPaths: 'Table of soft object paths (references by path that are loaded on demand).',
    LocalizationId: 'Identifier used by the localisation system for this package\'s text.',
    GatherableTextData: 'Text the localisation gatherer collects from this package (FText values).',
    Export: 'Export table: the objects stored in this package.',
    Import: 'Import table: objects this package uses from other packages (engine classes, other assets).',
    CellExport: 'Verse cell exports (UE5.5+).',
    CellImport: 'Verse cell imports (UE5.5+).',
    MetaData: 'Editor metadata stored with the package.',
    Depends: 'For every export, the objects it must wait for when loading.',
    DependsMap: 'For every export, the objects it needs loaded first ("A -> B": A depends on B).',
    PreloadDependencies: 'Cooked packages: what each export must have created or serialized before it loads.',
    GatherableText: 'Localisable text (FText) the localisation gatherer collects from this package.',
    PackageBuildDependencies: 'Other packages the editor must build (cook) together with this one, recorded by the asset registry.',
    SoftPackageReferences: 'Packages referenced by path only (soft references): needed by the game but not loaded together with this one.',
    SearchableNames: 'Names the editor indexes so it can find where this package refers to them.',
    ThumbnailTable: 'Small preview images shown in the Content Browser.',
    Guid: 'Random identifier of this save of the package (changes on every save).',
    PersistentGuid: 'Identifier that stays the same across saves of the package.',
    OwnerPersistentGuid: 'Persistent identifier of the package that owns this one (world-partition actors).',
    Generations: 'History of export/name counts for each time the package was saved (mostly unused).',
    SavedByEngineVersion: 'Version of the editor that saved this file, e.g. 5.7.1-48512491+++UE5+Release-5.7.',
    CompatibleWithEngineVersion: 'Oldest engine version this file stays compatible with (a hotfix release can load it).',
    CompressionFlags: 'Compression of the whole package (old UE4 only; normally none).',
    CompressedChunks: 'Compressed chunks of the whole package (old UE4 only; normally none).',
    PackageSource: 'Hash-like value recording where the package came from (editor vs. mod/DLC).',
    AdditionalPackagesToCook: 'Extra packages the cooker should include with this one.',
    AssetRegistryData: 'Tags the Content Browser shows and filters on, without loading the asset.',
    BulkDataStart: 'Where bulk data (texture mips, audio…) stored at the end of the file begins.',
    WorldTileInfoData: 'World composition tile information (levels only).',
    ChunkIDs: 'Chunk (download / DLC piece) assignments used when cooking.',
    PreloadDependency: 'Cooked packages: the list of what each export must have loaded first.',
    NamesReferencedFromExportData: 'How many names at the start of the name map are used by export data (the rest are only for the header).',
    PayloadToc: 'Table of contents of the package trailer (UE5 editor bulk data payloads).',
    DataResource: 'Table describing each bulk data blob (UE5.2+).',
    HeaderSize: 'Size in bytes of the package header (names, imports, exports and other tables) before the export data.',
    CookedHeaderSize: 'Size the header had as a regular cooked .uasset before it was converted to a Zen package.',
    ExportBundleEntries: 'Zen packages: the order in which exports are created and serialized when loading.',
    ZenVersion: 'Version of the Zen package header layout.',
    HasVersioningInfo: 'Whether the package records its engine versions (1) or relies on the game\'s (0).',
    Names: 'Number of names in the name map.',
    Imports: 'Number of imports.',
    Exports: 'Number of exports.',
    ImportTypeHierarchies: 'Class hierarchy of imported types (UE5.5+ editor packages).',
  },
  // Package flags (EPackageFlags).
  pkgFlags: {
    PKG_NewlyCreated: 'Created in this editor session, never saved.',
    PKG_ClientOptional: 'Optional for clients.',
    PKG_ServerSideOnly: 'Only needed on the server.',
    PKG_CompiledIn: 'Belongs to C++ code compiled into the engine or game (a /Script/ package).',
    PKG_ForDiffing: 'Loaded only to compare versions.',
    PKG_EditorOnly: 'Editor-only: never cooked into the game.',
    PKG_Developer: 'Developer-only package.',
    PKG_UncookedOnly: 'Only used in uncooked (editor) builds.',
    PKG_Cooked: 'Cooked for a game build (editor-only data removed).',
    PKG_ContainsNoAsset: 'Holds no asset (for example a package of redirectors or external objects only).',
    PKG_NotExternallyReferenceable: 'Other packages may not reference objects in it.',
    PKG_UnversionedProperties: 'Properties are stored without names (cooked, compact); reading them needs the game\'s class layouts (mappings).',
    PKG_ContainsMapData: 'Contains world/level data.',
    PKG_IsSaving: 'Was being saved.',
    PKG_Compiling: 'Was being compiled.',
    PKG_ContainsMap: 'This package is a level (map).',
    PKG_RequiresLocalizationGather: 'Has text the localisation gatherer must collect.',
    PKG_PlayInEditor: 'A temporary copy made for Play In Editor.',
    PKG_ContainsScript: 'Contains Blueprint-generated classes or script.',
    PKG_DisallowExport: 'May not be exported.',
    PKG_CookGenerated: 'Generated by the cooker.',
    PKG_DynamicImports: 'Imports are resolved dynamically.',
    PKG_RuntimeGenerated: 'Generated at runtime.',
    PKG_ReloadingForCooker: 'Reloaded by the cooker.',
    PKG_FilterEditorOnly: 'Editor-only data was stripped out (a cooked package).',
  },
  // Object flags (EObjectFlags) as shown on exports.
  objFlags: {
    RF_Public: 'Other packages can reference this object.',
    RF_Standalone: 'Kept even when nothing references it (typical for assets).',
    RF_MarkAsNative: 'Marked as native.',
    RF_Transactional: 'Takes part in undo/redo in the editor.',
    RF_ClassDefaultObject: 'The class default object (CDO): the template holding the class\'s default values.',
    RF_ArchetypeObject: 'A template other objects are created from.',
    RF_Transient: 'Not saved.',
    RF_MarkAsRootSet: 'Never garbage collected.',
    RF_TagGarbageTemp: 'Temporary garbage-collection flag.',
    RF_NeedInitialization: 'Still being initialised.',
    RF_NeedLoad: 'Still to be loaded.',
    RF_KeepForCooker: 'Kept for the cooker.',
    RF_NeedPostLoad: 'Needs post-load processing.',
    RF_NeedPostLoadSubobjects: 'Sub-objects need post-load processing.',
    RF_NewerVersionExists: 'A newer version replaced it.',
    RF_BeginDestroyed: 'Being destroyed.',
    RF_FinishDestroyed: 'Destroyed.',
    RF_BeingRegenerated: 'Being regenerated (Blueprint compile).',
    RF_DefaultSubObject: 'A default sub-object created by its owner\'s constructor (a component, for example).',
    RF_WasLoaded: 'Was loaded from disk.',
    RF_TextExportTransient: 'Not copied when exporting to text.',
    RF_LoadCompleted: 'Loading finished.',
    RF_InheritableComponentTemplate: 'A component template a Blueprint child class can inherit.',
    RF_DuplicateTransient: 'Not duplicated.',
    RF_StrongRefOnFrame: 'Strong reference in script frames.',
    RF_NonPIEDuplicateTransient: 'Not duplicated except for Play In Editor.',
    RF_Dynamic: 'Dynamically generated.',
    RF_WillBeLoaded: 'About to be loaded.',
    RF_HasExternalPackage: 'Saved in its own external package (One File Per Actor).',
    RF_MirroredGarbage: 'Marked as garbage.',
    RF_AllocatedInSharedPage: 'Allocated in a shared memory page.',
  },
  // Export flags and other per-export booleans.
  exportFlags: {
    bForcedExport: 'An object from another package forced into this one.',
    bNotForClient: 'Not loaded on clients.',
    bNotForServer: 'Not loaded on dedicated servers.',
    bNotAlwaysLoadedForEditorGame: 'Not always loaded in the editor game.',
    bIsAsset: 'The asset itself (what the Content Browser shows).',
    bIsInheritedInstance: 'Inherited from a parent Blueprint.',
    bGeneratePublicHash: 'Gets a public hash (IoStore).',
    EF_ForcedExport: 'An object from another package forced into this one.',
    EF_ScriptCore: 'Core script object.',
  },
  engineSource: {
    header: 'Read from the file header: the editor recorded it when saving.',
    flag: 'Given by you (the --engine option of the command line).',
    detected: 'Worked out by upkg from the file\'s layout: cooked, unversioned files do not record their engine version.',
  },
  tabs: {
    summary: 'The package header: versions, flags, and where each table sits in the file.',
    names: 'Every name the package uses, stored once and referenced by number.',
    imports: 'What this package uses from elsewhere: engine classes and other assets.',
    exports: 'The objects stored in this package; the asset itself is highlighted.',
    tree: 'Objects arranged by their Outer (the object that contains them).',
    deps: 'What this package needs: hard references (imports), soft references by path, searchable names.',
    thumbs: 'Preview images the editor stored for the Content Browser.',
    text: 'Gatherable text: localisable text (FText) the localisation gatherer collects from this package.',
    registry: 'Asset registry tags: what the Content Browser knows and filters on without loading the asset.',
    bulk: 'Bulk data (texture mips, audio…) and the UE5 package trailer.',
    props: 'The property values of an export, decoded.',
    container: 'The files stored in the container.',
    content: 'Textures, sounds, music and scripts stored in the package, converted to ordinary files.',
    hex: 'The raw bytes of the file with the selected part highlighted.',
    model: 'The full model: everything upkg read, as a JSON tree (the same as `upkg dump --json`).',
  },
};

// fieldHelp finds the explanation of a header field, trying the name
// without its Count/Offset/Size suffix too ("NameCount" → "Name").
function fieldHelp(key) {
  if (HELP.fields[key]) return HELP.fields[key];
  if (/\s*\(.*\)$/.test(key)) return fieldHelp(key.replace(/\s*\(.*\)$/, ''));
  if (key.includes('_') || /^[a-z]/.test(key)) {
    // snake_case keys (Zen packages, containers): try the engine's spelling.
    const camel = key.split(/[_\s]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
    if (camel !== key) { const h = fieldHelp(camel); if (h) return h; }
  }
  const m = /^(.*?)(Count|Offset|Size|Num)$/.exec(key);
  if (m && HELP.fields[m[1]]) {
    const what = { Count: 'Number of entries. ', Offset: 'File offset of the table. ', Size: 'Size in bytes. ', Num: 'Number of entries. ' }[m[2]];
    return what + HELP.fields[m[1]];
  }
  return '';
}

// flagHelp explains one flag name from any of the flag families.
function flagHelp(name) {
  return HELP.pkgFlags[name] || HELP.objFlags[name] || HELP.exportFlags[name] ||
    HELP.pkgFlags['PKG_' + name] || HELP.objFlags['RF_' + name] || '';
}
