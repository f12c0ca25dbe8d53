/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Live tracking from the phone (issue 41): each participant's positions, one row per
    /// millisecond (a position sent twice is kept once), and their track's figures, kept up to
    /// date with each batch. `batch` counts a track's batches: live pages on other instances
    /// read the positions of the batches they have not sent. Leaving the competition (or being
    /// removed from it) takes the track along.
    static let liveTracking = Migration(
        version: 39, name: "Live tracking",
        statements: [
            """
            CREATE TABLE trackings (
                competition_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                distance_m DOUBLE PRECISION NOT NULL,
                moving_s DOUBLE PRECISION NOT NULL,
                points INTEGER NOT NULL,
                first_at BIGINT,
                first_latitude DOUBLE PRECISION,
                first_longitude DOUBLE PRECISION,
                last_at BIGINT,
                last_latitude DOUBLE PRECISION,
                last_longitude DOUBLE PRECISION,
                last_elevation DOUBLE PRECISION,
                batch BIGINT NOT NULL,
                started_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                finished_at BIGINT,
                PRIMARY KEY (competition_id, user_id),
                FOREIGN KEY (competition_id, user_id) REFERENCES entries(competition_id, user_id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE tracking_points (
                competition_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                recorded_at BIGINT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                elevation DOUBLE PRECISION,
                batch BIGINT NOT NULL,
                PRIMARY KEY (competition_id, user_id, recorded_at),
                FOREIGN KEY (competition_id, user_id) REFERENCES trackings(competition_id, user_id) ON DELETE CASCADE
            )
            """,
        ])
}
