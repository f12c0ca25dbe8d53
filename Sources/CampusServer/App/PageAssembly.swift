import CampusHTTP

/// The one place that knows which services each page collection gets: each is given only what it
/// uses, never `Services` (docs/ARCHITECTURE.md, "A new service").
extension CampusApp {
    static func registerPages(services s: Services, documentation: APIDocumentation, on pages: PageRouter) {
        let builder = SchedulePageBuilder(myTimetable: s.myTimetable, now: s.now, timetable: s.timetable)
        let personal = MyTimetablePages(
            configuration: s.configuration, directory: s.directory, myTimetable: s.myTimetable, now: s.now,
            timetable: s.timetable)
        let shared = SharedPages(catalogue: s.catalogue, configuration: s.configuration)
        SitePages(accounts: s.accounts, personal: personal, documentation: documentation).register(on: pages)
        OfflinePages(myTimetable: s.myTimetable).register(on: pages)
        SignInPages(accounts: s.accounts, configuration: s.configuration, languages: s.languages, signOn: s.signOn)
            .register(on: pages)
        if let signOn = s.signOn { SingleSignOnPages(signOn: signOn, languages: s.languages).register(on: pages) }
        ProfilePages(accounts: s.accounts).register(on: pages)
        PlayerAccessPages(appCredentials: s.appCredentials, configuration: s.configuration).register(on: pages)
        AdminPages(accounts: s.accounts).register(on: pages)
        AuditPages(audit: s.audit, timeZone: s.configuration.timeZone).register(on: pages)
        OverviewPages(overview: s.overview, timeZone: s.configuration.timeZone, version: documentation.version)
            .register(on: pages)
        TwoFactorPages(accounts: s.accounts).register(on: pages)
        TimetablePages(
            configuration: s.configuration, directory: s.directory, myTimetable: s.myTimetable, timetable: s.timetable,
            builder: builder
        ).register(on: pages)
        RoomUsePages(directory: s.directory, timetable: s.timetable).register(on: pages)
        ElectivesPages(directory: s.directory, myTimetable: s.myTimetable).register(on: pages)
        personal.register(on: pages)
        MyTeachersPages(myTimetable: s.myTimetable, timetable: s.timetable).register(on: pages)
        MyNotesPages(myTimetable: s.myTimetable).register(on: pages)
        MyTasksPages(myTimetable: s.myTimetable, now: s.now, timetable: s.timetable).register(on: pages)
        MyTouchesPages(directory: s.directory, myTimetable: s.myTimetable).register(on: pages)
        MySchedulesPages(configuration: s.configuration, myTimetable: s.myTimetable, builder: builder).register(
            on: pages)
        TeacherCardPages(myTimetable: s.myTimetable).register(on: pages)
        CompetePages(compete: s.compete, configuration: s.configuration, leaderboards: s.leaderboards).register(
            on: pages)
        CompetitionFormPages(compete: s.compete, configuration: s.configuration).register(on: pages)
        LiveTrackingPages(compete: s.compete).register(on: pages)
        CategoryPages(compete: s.compete).register(on: pages)
        LapPages(compete: s.compete).register(on: pages)
        ReviewPages(compete: s.compete).register(on: pages)
        ChallengePages(compete: s.compete, configuration: s.configuration).register(on: pages)
        ChatPages(compete: s.compete, configuration: s.configuration).register(on: pages)
        FriendPages(friends: s.friends, compete: s.compete, configuration: s.configuration).register(on: pages)
        ListenPages(
            catalogue: s.catalogue, feed: s.feed, homeFeed: HomeFeed(database: s.database), shared: shared
        ).register(on: pages)
        PlaylistPages(playlists: s.playlists, shared: shared).register(on: pages)
        LibraryPages(catalogue: s.catalogue, feed: s.feed, library: s.library).register(on: pages)
        ReactionPages(catalogue: s.catalogue).register(on: pages)
        ListenSettingsPages(player: s.player).register(on: pages)
        NotificationPages(
            notifications: s.notifications,
            unsubscribeLinks: UnsubscribeLinks(links: s.links, baseURL: s.configuration.resolvedBaseURL),
            timeZone: s.configuration.timeZone
        ).register(on: pages)
        PicksPages(feed: s.feed).register(on: pages)
        ReportPages(reports: s.reports).register(on: pages)
        RadioPages(
            catalogue: s.catalogue, liveRadio: s.liveRadio, player: s.player, radio: s.radio, stations: s.stations,
            timeZone: s.configuration.timeZone, baseURL: s.configuration.resolvedBaseURL
        ).register(on: pages)
    }
}
