import Foundation
import Listen

/// Stations that play by themselves (issue 42): AutoDJ is a station's fallback while it has a
/// playlist with a track, and keeps it on the air whenever no source is.
extension LiveRadio {
    /// What the station plays while no source sends: its AutoDJ when a playlist of it holds a
    /// track, else its programme's episodes in a loop; nil when it has neither.
    func programme(for station: Station) async -> RadioFallback.Programme? {
        if let autoDJ = await autoDJ.programme(for: station) { return autoDJ }
        return RadioFallback.Programme.looping(await fallbackEpisodes(station))
    }

    /// The station's playlists changed (or the server started): a station off the air goes on
    /// with its AutoDJ; one whose fallback here plays its programme's episodes switches to AutoDJ,
    /// and one whose AutoDJ has nothing left to play goes off the air. A station a source sends
    /// to, or another instance plays, is left as it is (AutoDJ reads the playlists at every track).
    func playlistsChanged(_ station: Station) async {
        let mount = station.mount
        guard let broadcast = hub.broadcast(mount: mount) else {
            if await autoDJ.programme(for: station) != nil {
                _ = await playProgramme(station)
            }
            return
        }
        guard broadcast.feed == .fallback else { return }
        let playing = fallbacks.withLockedValue { $0[mount] }
        let programme = await programme(for: station)
        if let programme, let playing, playing.isAutoDJ == programme.isAutoDJ { return }
        guard let programme, let token = broadcast.attach(.fallback) else {
            logger.notice("AutoDJ has nothing to play: the station is off the air", metadata: ["mount": "\(mount)"])
            stopFeeds(mount)
            await withdrawMount(mount)
            broadcast.finish()
            return
        }
        fallbacks.withLockedValue { $0.removeValue(forKey: mount) }?.stop()
        _ = await playFallback(programme, on: mount, into: broadcast, token: token)
    }

    /// Every station with an AutoDJ playlist goes on the air (when the server starts).
    func startAutoDJ(_ stations: [Station]) async {
        for station in stations where hub.broadcast(mount: station.mount) == nil {
            await playlistsChanged(station)
        }
    }
}
