import Testing

/// The server suites of the catalogue, the listener's API and the Subsonic API run one test at a
/// time: each makes a library with ffmpeg and scans it into a server of its own, and with the
/// other suites on two cores, too many at once left requests waiting past the test client's 20
/// seconds (as `TimetableServerSuites` found for the timetable).
@Suite(.serialized) enum ListenServerSuites {}
