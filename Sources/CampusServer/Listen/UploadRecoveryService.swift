import ServiceLifecycle

/// Runs once as the server starts: catches the catalogue up with the uploads folder (see
/// ``ListenService/recoverUploads()``), then waits for shutdown, as a service of the group must.
struct UploadRecoveryService: NamedService {
    let listen: ListenService

    func run() async throws {
        await listen.recoverUploads()
        try? await gracefulShutdown()
    }
}
