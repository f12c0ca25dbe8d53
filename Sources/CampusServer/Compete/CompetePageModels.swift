import Compete
import Foundation
import Localization

/// The models of the competition pages (templates `compete*`, partial `compete-items`).

/// A competition in a list (`compete-items`, the library).
struct CompetitionItem: Sendable {
    var id: Int64
    var name: String
    var metricName: String
    var active: Bool
    var joined: Bool
    var participants: Int
    /// "5 participants", in the page's language.
    var participantsText: String
    var owner: String
    var url: String
    var myResult: String?
    var rank: Int?
    var reuseURL: String
    var deleteURL: String

    init(_ visible: CompeteService.Visible, rank: Int? = nil, t: Translator) {
        let c = visible.competition
        id = c.id
        name = c.name
        metricName = CompeteText(t: t).metric(c.metric)
        active = c.isActive
        joined = visible.isJoined
        participants = visible.row.participants
        participantsText = t.plural("{count} participant", "{count} participants", visible.row.participants)
        owner = visible.row.ownerName
        url = SiteRoutes.competition.path(c.id)
        myResult = visible.row.myEntry?.result.map { CompeteText(t: t).result($0, metric: c.metric, unit: c.unit) }
        self.rank = rank
        reuseURL = SiteRoutes.newCompetition.path(query: [("from", String(c.id))])
        deleteURL = SiteRoutes.deleteCompetition.path(c.id)
    }
}

/// A record (a best result) and who holds it.
struct RecordView: Sendable {
    struct Holder: Sendable {
        var name: String
        var competition: String
        var url: String
    }

    var metric: String
    var unit: String
    var value: String
    var holders: [Holder]
    /// The series' latest run's name, on the records page.
    var series: String

    init(_ record: Record, _ text: CompeteText) {
        metric = text.metric(record.metric)
        unit = text.unit(record.unit, metric: record.metric)
        value = text.result(record.value, metric: record.metric, unit: record.unit)
        holders = record.holders.map {
            Holder(
                name: $0.participantName, competition: $0.competitionName,
                url: SiteRoutes.competition.path($0.competitionID))
        }
        series = record.holders.max { $0.at < $1.at }?.competitionName ?? ""
    }
}

struct CompeteHomePage: PageModel {
    static let template = "compete"
    static let section: SiteSection? = .compete

    var q: String
    var competitions: [CompetitionItem]
    var total: Int
    var empty: Bool
    var isOrganizer: Bool
}

struct CompeteLibraryPage: PageModel {
    static let template = "compete-library"
    static let section: SiteSection? = .compete

    var competitions: [CompetitionItem]
    var empty: Bool
}

struct CompeteMinePage: PageModel {
    static let template = "compete-mine"
    static let section: SiteSection? = .compete

    var active: [CompetitionItem]
    var inactive: [CompetitionItem]
    var noActive: Bool
    var noInactive: Bool
}

struct CompeteHistoryPage: PageModel {
    static let template = "compete-history"
    static let section: SiteSection? = .compete

    var joined: [CompetitionItem]
    var previous: [CompetitionItem]
    var noJoined: Bool
    var noPrevious: Bool
}

struct CompeteStatsPage: PageModel {
    static let template = "compete-stats"
    static let section: SiteSection? = .compete

    var kilometres: String
    var minutes: String
    var competitions: Int
    var bests: [RecordView]
    var hasBests: Bool
    var charts: [ResultsChart.Chart]
    var hasResults: Bool
}

struct CompeteRecordsPage: PageModel {
    static let template = "compete-records"
    static let section: SiteSection? = .compete

    var allTime: [RecordView]
    var series: [RecordView]
    var empty: Bool
}

/// Creating, reusing and editing a competition.
struct CompetitionFormPage: PageModel {
    static let template = "compete-form"
    static let section: SiteSection? = .compete

    struct MetricChoice: Sendable {
        var value: String
        var name: String
        var rule: String
        var checked: Bool
    }

    var title: String
    var submit: String
    var action: String
    var cancel: String?
    var from: Int64?
    var name: String
    var description: String
    var unit: String
    var startsAt: String
    var endsAt: String
    var participantUploads: Bool
    var metrics: [MetricChoice]
    var categoryRules: [Choice]
    /// One category per line ("Juniors: 16-19" by age).
    var categories: String
    var teamChoices: [Choice]
    var teamBest: String
    var kinds: [Choice]
    /// Only a new competition chooses between a race and a challenge.
    var choosesKind: Bool
    var faculty: String
    var sports: [Choice]
    /// A time race's course length in km (the sport's speed checks times against it).
    var courseKm: String
    var errors = FieldErrors()

    /// One option of a `<select>`.
    struct Choice: Sendable {
        var value: String
        var name: String
        var checked: Bool
    }
}

/// One competition: its scoreboard, the participant's actions and the organizer's panel.
struct CompetitionPage: PageModel {
    static let template = "compete-detail"
    static let section: SiteSection? = .compete

    struct RankingRow: Sendable {
        var rank: Int?
        var name: String
        /// The participant's page (nil for the viewer's own row).
        var url: String?
        var me: Bool
        var result: String?
        /// "Best lap: 4:58", where the result was entered as laps.
        var bestLap: String?
        /// A flagged result waits for an organizer.
        var underReview: Bool
    }

    /// A challenge's participant: logging activities, and theirs so far.
    struct ChallengePanel: Sendable {
        struct Row: Sendable {
            var value: String
            var at: String
            var note: String
            var deleteURL: String?
        }

        var addURL: String?
        var placeholder: String
        /// The form's default date and time (now).
        var now: String
        var activities: [Row]
        var empty: Bool
    }

    /// The participant's flagged result, and their appeal while they may.
    struct MyReview: Sendable {
        var message: String
        var rejected: Bool
        var appealURL: String?
    }

    /// A flagged result in the organizer's queue.
    struct ReviewRow: Sendable {
        var name: String
        var value: String
        var reasons: String
        var status: String
        var note: String?
        var appeal: String?
        var decideURL: String?
    }

    struct LapRecords: Sendable {
        struct Row: Sendable {
            var lap: String
            var value: String
            var holders: String
        }

        var rows: [Row]
    }

    struct ParticipantRow: Sendable {
        var userId: Int64
        var name: String
        var email: String
        var value: String
        var track: String?
        /// The participant's live track's figures, and the form that makes it their result.
        var liveTrack: String?
        var confirmTrackingURL: String?
        var resultURL: String
        /// Laps or splits, for time and distance competitions.
        var lapsURL: String?
        var laps: String
        /// Category and team, where the competition has them.
        var entryURL: String?
        var category: String
        var team: String
        var trackURL: String
        var kickURL: String
    }

    /// The signed-in participant's live tracking from the phone (tracking.js sends the positions).
    struct TrackingPanel: Sendable {
        var sendURL: String
        var finishURL: String
        /// The track so far ("3.2 km, moving 0:15:00"), nil before the first position.
        var state: String?
        var finished: Bool
        /// Where the competition takes participants' own results, finishing makes the track theirs.
        var becomesResult: Bool
        var decimalSeparator: String
    }

    /// What the competition's organizer (or an admin) sees.
    struct Organizer: Sendable {
        /// A co-organizer, with a link to remove them for the owner (or to step down for themselves).
        struct CoOrganizerRow: Sendable {
            var name: String
            var email: String
            var removeURL: String?
            var isMe: Bool
        }

        /// The owner or an admin: deleting, (de)activating and the co-organizers.
        var canOwn: Bool
        var organizers: [CoOrganizerRow]
        var addOrganizerURL: String
        var editURL: String
        var activateURL: String
        var deactivateURL: String
        var exportURL: String
        var reuseURL: String
        var deleteURL: String
        var participantsList: [ParticipantRow]
        var noParticipants: Bool
        /// The categories an organizer puts entries into (nil: a free name, by group, or none).
        var categoryChoices: [String]?
        var hasCategories: Bool
        var hasTeams: Bool
        var reviews: [ReviewRow]
        var hasReviews: Bool
        var placeholder: String
    }

    var id: Int64
    var me: Int64
    var name: String
    var description: String?
    var metricName: String
    var rule: String
    var active: Bool
    var inactive: Bool
    var owner: String
    var participants: Int
    var startsAt: String?
    var endsAt: String?
    var templateUrl: String?
    var canJoin: Bool
    var canLeave: Bool
    var canUpload: Bool
    var joinURL: String
    var leaveURL: String
    var myTrackURL: String
    /// The live map, for whoever may watch the tracks (a competition of distance or time).
    var liveMapURL: String?
    /// The competition's chat, for its organizers and participants.
    var chatURL: String?
    var hasLinks: Bool
    var tracking: TrackingPanel?
    var best: RecordView?
    var seriesBest: RecordView?
    /// Joining with a category, team or birth date, or changing them once joined.
    struct EntryPanel: Sendable {
        var action: String
        var joining: Bool
        /// The participant picks a category from the list.
        var chooses: Bool
        var categories: [CompetitionFormPage.Choice]
        /// Categories go by age: the birth date.
        var asksBirth: Bool
        var bornOn: String
        var hasTeams: Bool
        var team: String
        /// The category the participant is in, where it is not theirs to choose.
        var category: String?
        /// Whether there is a field to fill in.
        var editable: Bool
    }

    struct Tab: Sendable {
        var name: String
        var url: String
        var current: Bool
    }

    struct Teams: Sendable {
        struct Row: Sendable {
            var rank: Int?
            var team: String
            var score: String?
            var members: String
        }

        var rule: String
        var rows: [Row]
        var empty: Bool
    }

    var entry: EntryPanel?
    var categoryTabs: [Tab]
    var hasCategoryTabs: Bool
    /// The category whose ranking is shown (ranks within it).
    var category: String?
    var teams: Teams?
    var lapRecords: LapRecords?
    /// "Best lap: {lap}" for the live scoreboard (campus.js).
    var bestLapPattern: String
    var myReview: MyReview?
    var challenge: ChallengePanel?
    /// "under review", for the live scoreboard (campus.js).
    var underReviewText: String
    var liveURL: String
    var version: Int64
    /// The friends view or a category's: no live updates, whose events carry the whole
    /// ranking's first places only.
    var staticView: Bool
    /// Only the viewer and whom they follow (`?view=friends`): no live updates, whose events
    /// carry the first places only.
    var friendsView: Bool
    var everyoneURL: String
    var friendsURL: String
    /// A participant's page with `{userId}` for their id, for the live scoreboard's links.
    var personPattern: String
    var ranking: [RankingRow]
    var rankingMore: Int?
    var noEntries: Bool
    var canManage: Organizer?
}
