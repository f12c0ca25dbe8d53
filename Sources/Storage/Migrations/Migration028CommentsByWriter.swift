/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// A user writes at most a number of comments (`ListenerLimits.comments`, issue 35): counting
    /// a writer's comments, at every new one, reads this index instead of the whole table.
    static let commentsByWriter = Migration(
        version: 28, name: "comments by writer",
        statements: [
            "CREATE INDEX comments_user ON comments (user_id)"
        ])
}
