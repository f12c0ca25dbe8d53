/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Several instances (issue 38): the jobs that run on one instance at a time hold a lease
    /// (`job_leases`, one row per job, renewed while held) and say when each run began and
    /// ended (`job_runs`); the radio's announcements get a heartbeat in milliseconds, so that an
    /// instance that stopped saying it holds a mount is noticed within two seconds.
    static let sharedJobs = Migration(
        version: 30, name: "shared jobs",
        statements: [
            """
            CREATE TABLE job_leases (
                name TEXT PRIMARY KEY,
                holder TEXT NOT NULL,
                expires_at BIGINT NOT NULL,
                last_started_at BIGINT,
                last_finished_at BIGINT,
                last_outcome TEXT
            )
            """,
            """
            CREATE TABLE job_runs (
                name TEXT NOT NULL,
                instance TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                finished_at BIGINT,
                outcome TEXT,
                PRIMARY KEY (name, instance, started_at)
            )
            """,
            "CREATE INDEX job_runs_started_at ON job_runs (started_at)",
            "ALTER TABLE radio_sources ADD COLUMN heartbeat_at BIGINT NOT NULL DEFAULT 0",
            "DELETE FROM settings WHERE key = 'iis.sync.lease'",
        ])
}
