import Testing

/// The server suites of free rooms, conflicts, buildings, electives and the timetable pages run
/// one test at a time: each starts a server and imports fixtures, and a whole run of the suite on
/// two cores leaves requests of other tests waiting past the test client's 20 seconds when too
/// many servers work at once.
@Suite(.serialized) enum TimetableServerSuites {}
