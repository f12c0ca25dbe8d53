import Foundation
import Listen
import NIOCore
import NIOPosix
import Storage

/// What the other instances do when the instance holding a station's source is lost (killed,
/// its machine gone): their listeners stay connected. The relay's stream breaks at once (or the
/// holder's heartbeat stops: ``freshness``); one instance takes the station over — announced,
/// not live — and plays its programme (or silence, for at most ``silenceLimit``, when it has
/// none), which the others relay; the source, reconnecting to any instance, is taken at once
/// (`connect` asks the lost holder, which does not answer) and every instance follows it.
extension LiveRadio {
    /// How long a station without a programme plays silence after its holder was lost, waiting
    /// for its source; then it goes off the air, as when its source leaves.
    static let silenceLimit = Duration.seconds(300)

    /// Relays the holder's stream into the mount's broadcast here: the one on the air when
    /// `joining` (its listeners stay, if the holder sends the same format), else a new one (nil
    /// when the station is on the air here already: that one is returned).
    @discardableResult
    func relay(_ station: Station, from holder: RadioStore.Announcement, joining: Bool) -> Broadcast? {
        let mount = station.mount
        let lost = holder.instance
        return relays.withLockedValue { relays -> Broadcast? in
            if !joining, let running = hub.broadcast(mount: mount) { return running }
            guard let (broadcast, token) = hub.take(station, contentType: holder.contentType, feed: .relay) else {
                return nil
            }
            fallbacks.withLockedValue { $0.removeValue(forKey: mount) }?.stop()
            silences.withLockedValue { _ = $0.removeValue(forKey: mount) }
            broadcast.setTitle(holder.title)
            relays.removeValue(forKey: mount)?.stop()
            relays[mount] = RadioRelay.start(
                from: holder.relayURL + RadioRoutes.prefix + mount, into: broadcast, token: token, logger: logger
            ) { [self] ending in
                perform { [self] in await relayEnded(broadcast, token: token, holder: lost, ending: ending) }
            }
            return broadcast
        }
    }

    /// A relay's stream ended by itself. The holder withdrew its announcement (it ended the
    /// broadcast: the station is off the air), another instance holds the mount now (relayed
    /// instead), the holder answers (its stream was cut on the way: relayed again), or it is lost
    /// (taken over).
    func relayEnded(_ broadcast: Broadcast, token: Int, holder lost: String, ending: RadioRelay.Ending) async {
        guard broadcast.feedToken == token, broadcast.feed == .relay, !broadcast.hasEnded else { return }
        let mount = broadcast.station.mount
        let current: RadioStore.Announcement?
        do {
            current = try await database.read { db in try await RadioStore(db).announcement(mount: mount) }
        } catch {
            broadcast.finish()
            return
        }
        guard let current, ending == .cut else {
            relays.withLockedValue { _ = $0.removeValue(forKey: mount) }
            broadcast.finish()
            return
        }
        let fresh = current.seenAt >= now().addingTimeInterval(-Self.freshness)
        if current.instance != lost, current.instance != instance, fresh {
            relay(broadcast.station, from: current, joining: true)
        } else if current.instance == lost, fresh, await isAlive(current) {
            try? await Task.sleep(for: .milliseconds(500))
            if broadcast.feedToken == token { relay(broadcast.station, from: current, joining: true) }
        } else if current.instance != instance {
            await takeOver(broadcast, from: current.instance)
        }
    }

    /// The holder is lost: this instance holds the mount (announced, not live) and plays the
    /// programme or silence into the broadcast its listeners have, until a source connects; when
    /// another instance took it over first, that one is relayed.
    func takeOver(_ broadcast: Broadcast, from lost: String) async {
        let station = broadcast.station
        let mount = station.mount
        let claimed =
            (try? await announce(mount, contentType: broadcast.contentType, live: false, replacing: lost)) ?? false
        guard claimed else {
            if let holder = await announcement(of: mount), holder.instance != instance {
                relay(station, from: holder, joining: true)
            } else {
                broadcast.finish()
            }
            return
        }
        guard let token = broadcast.attach(.fallback) else {
            await withdrawMount(mount)
            return
        }
        relays.withLockedValue { $0.removeValue(forKey: mount) }?.stop()
        var programme = await programme(for: station)
        let silent = programme == nil
        if silent, let silence = Self.silence() { programme = .looping([silence]) }
        guard let programme, await playFallback(programme, on: mount, into: broadcast, token: token) else {
            await withdrawMount(mount)
            broadcast.finish()
            return
        }
        if silent { silences.withLockedValue { $0[mount] = .now + Self.silenceLimit } }
        logger.warning(
            "took over a station whose instance was lost",
            metadata: ["mount": "\(mount)", "lost": "\(lost)", "playing": "\(silent ? "silence" : "programme")"])
    }

    /// Whether the instance that announced `holder` takes connections at its address (within a
    /// second). A connection, not an HTTP request: HTTPClient's pool tries a refused connection
    /// again until the deadline, and a lost instance's port refuses at once.
    func isAlive(_ holder: RadioStore.Announcement) async -> Bool {
        guard let url = URL(string: holder.relayURL), let host = url.host else { return false }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(1)).connect(host: host, port: port).get()
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }

    /// A station whose holder's heartbeat stopped although its relay's stream goes on (its
    /// machine lost without closing connections): taken over, unless the holder answers.
    func holderSilent(_ broadcast: Broadcast) async {
        let mount = broadcast.station.mount
        guard let current = try? await database.read({ db in try await RadioStore(db).announcement(mount: mount) })
        else {
            stopFeeds(mount)
            broadcast.finish()
            return
        }
        guard current.instance != instance, await !isAlive(current) else { return }
        await takeOver(broadcast, from: current.instance)
    }

    /// Silence ends a station played after its holder was lost once ``silenceLimit`` passed.
    func endLongSilences() async {
        let now = ContinuousClock.now
        let over = silences.withLockedValue { silences in
            let over = silences.filter { $0.value <= now }.map(\.key)
            for mount in over { silences.removeValue(forKey: mount) }
            return over
        }
        for mount in over {
            guard let broadcast = hub.broadcast(mount: mount), broadcast.feed == .fallback else { continue }
            logger.notice("no source came back: the station is off the air", metadata: ["mount": "\(mount)"])
            stopFeeds(mount)
            await withdrawMount(mount)
            broadcast.finish()
        }
    }

    /// Half a minute of silence (16-bit mono PCM at 8 kHz in a WAV file, made once), which
    /// ``RadioFallback`` encodes in the broadcast's format as it would an episode.
    static func silence() -> RadioFallback.Episode? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("campus-silence-30s.wav")
        if !FileManager.default.fileExists(atPath: file.path) {
            let rate: UInt32 = 8000
            let samples = rate * 30
            var wav = Data("RIFF".utf8)
            func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) } }
            func append(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) } }
            append(36 + samples * 2)
            wav.append(contentsOf: Array("WAVEfmt ".utf8))
            append(UInt32(16))
            append(UInt16(1))  // PCM
            append(UInt16(1))  // mono
            append(rate)
            append(rate * 2)  // bytes a second
            append(UInt16(2))  // bytes a frame
            append(UInt16(16))  // bits a sample
            wav.append(contentsOf: Array("data".utf8))
            append(samples * 2)
            wav.append(Data(count: Int(samples) * 2))
            let partial = file.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).wav")
            guard (try? wav.write(to: partial)) != nil, rename(partial.path, file.path) == 0 else { return nil }
        }
        return RadioFallback.Episode(title: "", path: file.path)
    }
}
