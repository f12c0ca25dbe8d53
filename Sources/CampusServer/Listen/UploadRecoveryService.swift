import ServiceLifecycle

/// Runs once as the server starts: catches the catalogue up with the uploads folder (see
/// ``LibraryService/recoverUploads()``), then waits for shutdown, as a service of the group must.
struct UploadRecoveryService: NamedService {
    let library: LibraryService

    func run() async throws {
        await library.recoverUploads()
        try? await gracefulShutdown()
    }
}
