import Foundation
import InputRules
import Listen
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Storage

/// Live radio across instances: which feed each station's broadcast has here (its source, its
/// fallback, or a relay of the instance that holds its source), what the database says about
/// every mount's source, and its recordings. One instance holds a mount's source and says so
/// in the database every ``renewal`` (its heartbeat); the others relay its stream to their
/// listeners, as an Icecast relay does, and a second source on any instance is refused. When the
/// holder is lost, the others keep their listeners (LiveRadio+Failover.swift).
final class LiveRadio: Service, Sendable {
    let hub: RadioHub
    let database: Database
    let recordings: RadioRecordings
    let slots: TranscodeSlots
    let logger: Logger
    let now: @Sendable () -> Date
    /// This instance's name for itself in `radio_sources` (``InstanceName``).
    let instance: String
    /// Tells a station's listeners it went on the air.
    let notices: RadioNotices?
    /// What stations with playlists play by themselves.
    let autoDJ: StationAutoDJ
    /// Each station's HLS, made on demand.
    let hls: RadioHLS
    /// Where other instances reach this one: configured, or learnt when the server listens.
    private let relayBase: NIOLockedValueBox<String?>
    let fallbacks = NIOLockedValueBox<[String: RadioFallback]>([:])
    let relays = NIOLockedValueBox<[String: RadioRelay]>([:])
    /// Stations played as silence after their holder was lost, and until when at most.
    let silences = NIOLockedValueBox<[String: ContinuousClock.Instant]>([:])
    /// Listening sessions that ended and are not written yet (LiveRadio+Statistics.swift).
    let endedSessions = NIOLockedValueBox<[RadioStore.SessionRecord]>([])
    /// What followers of mounts held elsewhere last heard, to tell them when it changes.
    private let heard = NIOLockedValueBox<[String: String]>([:])
    /// Work started when a source ends (its recording completed, the fallback started), which
    /// shutdown waits for before the database closes; once closed, nothing new starts (an
    /// unfinished recording is completed at the next start).
    private let work = NIOLockedValueBox<(closed: Bool, next: Int, tasks: [Int: Task<Void, Never>])>(
        (false, 0, [:]))

    /// How often the holder says it still holds its mounts (its heartbeat), and relays look again.
    static let renewal = Duration.milliseconds(500)
    /// An announcement older than this is from an instance that stopped or was lost.
    static let freshness: TimeInterval = 2

    init(
        hub: RadioHub, database: Database, recordings: RadioRecordings, slots: TranscodeSlots, relayBase: String?,
        instance: String = InstanceName.make(), notices: RadioNotices? = nil, timeZone: TimeZone = .gmt,
        logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.instance = instance
        self.autoDJ = StationAutoDJ(database: database, timeZone: timeZone, logger: logger, now: now)
        self.hls = RadioHLS(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("campus-hls-\(instance)"),
            logger: logger)
        self.notices = notices
        self.hub = hub
        self.database = database
        self.recordings = recordings
        self.slots = slots
        self.relayBase = NIOLockedValueBox(relayBase)
        self.logger = logger
        self.now = now
    }

    /// The server listens at `port` (on `host`): other instances relay from there unless an
    /// address was configured.
    func serving(host: String, port: Int) {
        let base = relayBase.withLockedValue { base in
            if base == nil { base = "http://\(host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host):\(port)" }
            return base
        }
        perform { [self] in
            // What this address announced before a restart is no longer true: its sources are gone.
            if let base {
                let instance = self.instance
                _ = try? await database.write { db in
                    try await RadioStore(db).withdrawAll(relayURL: base, except: instance)
                }
            }
        }
    }

    // MARK: Sources

    /// A source for `station` connects: the mount becomes this instance's (403 while a source
    /// sends to it here or on another instance) and its broadcast takes the source as its feed; a
    /// DJ's `show` is recorded into its programme.
    func connect(_ station: Station, contentType: String, show: RadioShow? = nil) async throws -> SourceFeed {
        let mount = station.mount
        // RadioRoutes closes the source's connection on any refusal.
        let refused = Refusal.notAllowed("{mount} is on the air already: one source at a time.", ["mount": mount])
        if hub.broadcast(mount: mount)?.feed == .source { throw refused }
        if try await !announce(mount, contentType: contentType, live: true) {
            // A source that comes back after its instance was lost is taken at once: the holder's
            // heartbeat may look fresh for two more seconds, but it does not answer.
            guard let holder = await announcement(of: mount), holder.instance != instance, holder.live,
                await !isAlive(holder),
                try await announce(mount, contentType: contentType, live: true, replacing: holder.instance)
            else { throw refused }
        }
        guard let (broadcast, token) = hub.take(station, contentType: contentType, feed: .source) else {
            throw refused
        }
        stopFeeds(mount)
        silences.withLockedValue { _ = $0.removeValue(forKey: mount) }
        // What the source said between the announcement and here was written to the database only
        // (`setTitle(mount:_:)` found no broadcast yet): the broadcast takes it, unless said since.
        let changes = broadcast.titleChanges
        if let said = await announcement(of: mount)?.title, !said.isEmpty {
            broadcast.setTitle(said, ifUnchangedSince: changes)
        }
        // A show's broadcast is recorded into the show's programme (issue 42), else as the station records.
        var recorded = station
        if let programme = show?.programmeID {
            recorded.programmeID = programme
            recorded.recordsBroadcasts = true
        }
        let recorder = await recordings.begin(recorded, contentType: contentType)
        if let notices {
            perform { [self] in
                do {
                    try await database.write { db in try await notices.wentOnAir(station, in: db, now: self.now()) }
                } catch {
                    logger.error(
                        "telling that a station is on the air failed",
                        metadata: ["mount": "\(mount)", "error": "\(error)"])
                }
            }
        }
        return SourceFeed(broadcast: broadcast, token: token, recording: recorder) { [self] in
            let titles = broadcast.titlesSaid
            perform { [self] in await sourceEnded(broadcast, token: token, recorder: recorder, titles: titles) }
        }
    }

    /// Runs `body` unless the radio has stopped; ``finishWork()`` waits for it.
    func perform(_ body: @escaping @Sendable () async -> Void) {
        work.withLockedValue { work in
            guard !work.closed else { return }
            let id = work.next
            work.next += 1
            work.tasks[id] = Task { [weak self] in
                await body()
                _ = self?.work.withLockedValue { $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Stops new work and waits for what runs.
    func finishWork() async {
        let running = work.withLockedValue { work in
            work.closed = true
            return Array(work.tasks.values)
        }
        for task in running { await task.value }
    }

    /// The source is gone: its recording is completed, and listeners go on with the station's
    /// fallback (which plays while somebody listens: with nobody, it waits for the next one), or
    /// their streams end.
    private func sourceEnded(_ broadcast: Broadcast, token: Int, recorder: BroadcastRecorder?, titles: [String]) async {
        let mount = broadcast.station.mount
        logger.notice("source gone", metadata: ["mount": "\(mount)"])
        if let recorder { await recordings.finish(recorder, titles: titles) }
        guard broadcast.feedToken == token else { return }  // Another feed took over already.
        if let programme = await programme(for: broadcast.station), let fallbackToken = broadcast.attach(.fallback) {
            // Announced first, so that what the fallback says playing is written after it.
            _ = try? await announce(mount, contentType: broadcast.contentType, live: false)
            let said: @Sendable (String) -> Void = { [self] title in
                perform { [self] in _ = try? await setTitle(mount: mount, title) }
            }
            if let fallback = RadioFallback.start(
                programme, into: broadcast, token: fallbackToken, slots: slots, said: said, logger: logger)
            {
                fallbacks.withLockedValue { $0[mount] = fallback }
                logger.notice("fallback on the air", metadata: ["mount": "\(mount)"])
                return
            }
        }
        guard broadcast.feedToken == token || broadcast.feed == .fallback else { return }
        await withdrawMount(mount)
        broadcast.finish()
    }

    /// The programme's episodes that have a file here, newest first (at most 50).
    func fallbackEpisodes(_ station: Station) async -> [RadioFallback.Episode] {
        guard let programmeID = station.programmeID else { return [] }
        do {
            return try await database.read { db in
                let store = ListenStore(db)
                var episodes: [RadioFallback.Episode] = []
                for item in try await store.children(of: programmeID, kind: .programme).prefix(50) {
                    if let file = try await store.mediaFile(id: item.id), file.size > 0 {
                        episodes.append(.init(title: item.title, path: file.path))
                    }
                }
                return episodes
            }
        } catch {
            logger.error(
                "cannot read a station's fallback",
                metadata: ["mount": "\(station.mount)", "error": "\(ErrorLog.text(error))"])
            return []
        }
    }

    /// Writes that this instance holds `mount`; false when another instance's live source does
    /// (unless it is `lost`).
    func announce(_ mount: String, contentType: String, live: Bool, replacing lost: String? = nil) async throws -> Bool
    {
        guard let base = relayBase.withLockedValue({ $0 }) else { return true }
        let now = now()
        let announcement = RadioStore.Announcement(
            mount: mount, instance: instance, relayURL: base, contentType: contentType, live: live, title: "",
            startedAt: now, seenAt: now)
        let fresh = now.addingTimeInterval(-Self.freshness)
        do {
            return try await database.write { db in
                try await RadioStore(db).announce(announcement, freshSince: fresh, replacing: lost)
            }
        } catch {
            // Two instances announcing at once: the one whose row is there holds the mount.
            let holder = try await database.read { db in try await RadioStore(db).announcement(mount: mount) }
            return holder?.instance == instance
        }
    }

    func withdrawMount(_ mount: String) async {
        let instance = self.instance
        _ = try? await database.write { db in try await RadioStore(db).withdraw(mount: mount, instance: instance) }
    }

    /// A station was removed: its broadcast here ends (its source is let go, its listeners' streams
    /// end) and its mount is free.
    func stationRemoved(_ mount: String) async {
        stopFeeds(mount)
        if let broadcast = hub.broadcast(mount: mount) {
            if broadcast.feed != .relay { await withdrawMount(mount) }
            broadcast.finish()
        }
        hub.changed(mount)
    }

    /// Stops what fed the mount's broadcast before (a fallback, a relay).
    func stopFeeds(_ mount: String) {
        silences.withLockedValue { _ = $0.removeValue(forKey: mount) }
        fallbacks.withLockedValue { $0.removeValue(forKey: mount) }?.stop()
        relays.withLockedValue { $0.removeValue(forKey: mount) }?.stop()
    }

    /// Keeps what was heard of a mount held elsewhere; returns what was heard before.
    func rememberHeard(_ mount: String, _ now: String) -> String? {
        heard.withLockedValue { heard in
            defer { heard[mount] = now }
            return heard[mount]
        }
    }

    // MARK: Listeners and now-playing

    /// The broadcast a listener of `station` joins: this instance's, or a relay of the instance
    /// holding the source; nil when the station is off the air.
    func broadcast(for station: Station) async -> Broadcast? {
        if let local = hub.broadcast(mount: station.mount) { return local }
        guard let holder = await announcement(of: station.mount), holder.instance != instance else { return nil }
        return relay(station, from: holder, joining: false)
    }

    /// A fresh announcement of the mount's source, by any instance (none when the database
    /// cannot be read: the mount looks off the air here until it can).
    func announcement(of mount: String) async -> RadioStore.Announcement? {
        let announcement = try? await database.read { db in try await RadioStore(db).announcement(mount: mount) }
        guard let announcement, announcement.seenAt >= now().addingTimeInterval(-Self.freshness) else { return nil }
        return announcement
    }

    /// The source says what plays (on any instance): the holder's broadcast and the relays show it,
    /// as the station keeps a title (``Station/nowPlaying(said:)``: one line, without control
    /// characters, which the recording's name, the API and Subsonic's XML repeat).
    /// Written to the announcement before it is set here: a renewal that read the old title before
    /// this write finds the title changed here since, and keeps it
    /// (`Broadcast.setTitle(_:ifUnchangedSince:)`). The two orders of a source's connection here
    /// (announced, then its broadcast taken, then the announced title read) and this update (written,
    /// then the broadcast looked up) leave the title in both places: a write that comes before the
    /// announcement finds no row, but then the broadcast it finds was taken after the announcement,
    /// and the title is written again; a write between the two is read by `connect`.
    func setTitle(mount: String, _ said: String) async throws -> Bool {
        let title = Station.nowPlaying(said: said)
        let fresh = now().addingTimeInterval(-Self.freshness)
        let write = { [database] in
            try await database.write { db in try await RadioStore(db).setTitle(mount: mount, title, freshSince: fresh) }
        }
        var written = try await write()
        let local = hub.broadcast(mount: mount).flatMap { $0.feed == .relay ? nil : $0 }
        if local != nil, !written { written = try await write() }
        local?.setTitle(title)
        return written || local != nil
    }

    /// What the API and the pages show of a station's broadcast.
    struct Status: Sendable {
        var onAir: Bool
        /// A source sends (false: the fallback plays).
        var live: Bool
        var listeners: Int
        var title: String
        var since: Date?
    }

    func status(of mount: String) async -> Status {
        if let local = hub.broadcast(mount: mount), local.feed != .relay {
            return Status(
                onAir: true, live: local.feed == .source, listeners: local.listenerCount, title: local.title,
                since: local.startedAt)
        }
        // This instance's own announcement without its broadcast is one being withdrawn.
        guard let holder = await announcement(of: mount), holder.instance != instance else {
            return Status(onAir: false, live: false, listeners: 0, title: "")
        }
        return Status(
            onAir: true, live: holder.live, listeners: hub.broadcast(mount: mount)?.listenerCount ?? 0,
            title: holder.title, since: holder.startedAt)
    }
}

extension LiveRadio {
    /// Puts a station that no source sends to on the air with its AutoDJ or programme, as if a
    /// source had just left it (the demo's station, issue 35; a station with AutoDJ playlists): MP3 at 128 kbit/s until a source connects and
    /// takes the listeners over. False when the station is on the air already, here or on another
    /// instance, or has nothing to play (no track or episode with a file, no ffmpeg, no slot).
    func playProgramme(_ station: Station) async -> Bool {
        let mount = station.mount
        guard hub.broadcast(mount: mount) == nil, await announcement(of: mount) == nil else { return false }
        guard let programme = await programme(for: station),
            let (broadcast, token) = hub.take(station, contentType: "audio/mpeg", feed: .fallback)
        else { return false }
        guard (try? await announce(mount, contentType: broadcast.contentType, live: false)) ?? false else {
            broadcast.finish()
            return false
        }
        guard await playFallback(programme, on: mount, into: broadcast, token: token) else { return false }
        logger.notice("programme playing", metadata: ["mount": "\(mount)"])
        return true
    }

    /// Plays the programme into the mount's `broadcast`, saying each title; when it cannot
    /// start, withdraws the mount and ends the broadcast (false).
    func playFallback(_ programme: RadioFallback.Programme, on mount: String, into broadcast: Broadcast, token: Int)
        async
        -> Bool
    {
        let said: @Sendable (String) -> Void = { [self] title in
            perform { [self] in _ = try? await setTitle(mount: mount, title) }
        }
        guard
            let fallback = RadioFallback.start(
                programme, into: broadcast, token: token, slots: slots, said: said, logger: logger)
        else {
            await withdrawMount(mount)
            broadcast.finish()
            return false
        }
        fallbacks.withLockedValue { $0[mount] = fallback }
        return true
    }
}
