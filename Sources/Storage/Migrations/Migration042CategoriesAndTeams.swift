/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Categories and teams (issue 41). A competition names its rule (`none`, `choice`, `age`,
    /// `group`) and its categories as a JSON array of `{name, minAge, maxAge}`: they are always
    /// read and written whole with the competition, at most 50, so a table of their own would
    /// only add a join. Teams are `off`, `sum` or `best` with `team_best` N. An entry keeps its
    /// category (as it was decided: chosen, from the age on the race day, or the group when
    /// joining), its team, and for age categories the birth date it was worked out from.
    static let categoriesAndTeams = Migration(
        version: 42, name: "Categories and teams",
        statements: [
            "ALTER TABLE competitions ADD COLUMN category_rule TEXT NOT NULL DEFAULT 'none'",
            "ALTER TABLE competitions ADD COLUMN categories TEXT NOT NULL DEFAULT '[]'",
            "ALTER TABLE competitions ADD COLUMN team_scoring TEXT NOT NULL DEFAULT 'off'",
            "ALTER TABLE competitions ADD COLUMN team_best INTEGER",
            "ALTER TABLE entries ADD COLUMN category TEXT",
            "ALTER TABLE entries ADD COLUMN team TEXT",
            "ALTER TABLE entries ADD COLUMN born_on TEXT",
        ])
}
