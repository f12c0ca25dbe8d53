/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Laps (issue 41): the laps a result is made of, as a JSON array of numbers (lap times in
    /// seconds or lap distances in km), read and written whole with the entry's result, at most
    /// 200. NULL when the result was typed, came from a track, or is not there.
    static let laps = Migration(
        version: 43, name: "Laps",
        statements: [
            "ALTER TABLE entries ADD COLUMN laps TEXT"
        ])
}
