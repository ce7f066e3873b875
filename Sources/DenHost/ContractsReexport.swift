// DenHost's API takes and throws the contract types (`StorageEngine`, `ServiceFailure`): an
// embedder that imports DenHost gets them with it, as before they moved to DenLibraryContracts.
@_exported import DenLibraryContracts
