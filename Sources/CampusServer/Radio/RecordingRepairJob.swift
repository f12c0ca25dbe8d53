extension SharedJob {
    /// Completes the recordings an instance left unfinished when it stopped or was lost (its
    /// station no longer announced by anyone), on one instance at a time, every half minute.
    static func recordingRepair(_ liveRadio: LiveRadio) -> SharedJob {
        SharedJob(name: "radio-recordings", interval: .seconds(30)) {
            await liveRadio.recordings.repairUnfinished { mount in await liveRadio.announcement(of: mount) != nil }
        }
    }
}
