// DenHost's API takes and throws the contract types (`StorageEngine`, `ServiceFailure`): an
// embedder that imports DenHost gets them with it, as before they moved to DenLibraryContracts.
@_exported import DenLibraryContracts

// Module calls and their observers (`ModuleCall`, `ModuleCallObserver`, …) are DenObservation's:
// an embedder or a front-end that imports DenHost names them as before.
@_exported import DenObservation
