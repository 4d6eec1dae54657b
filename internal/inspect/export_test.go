package inspect

// CorpusKeys gives the external tests corpusKeys.
const CorpusKeys = corpusKeys
