/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// The notification centre (issue 39). `change_notices` holds the schedule changes an import
    /// recorded (in the same transaction) that nobody has been told of yet; the server turns each
    /// into notifications and deletes it in one transaction. `notifications` is every user's inbox
    /// (`cause` says what a message is about, once per user: a change batch, a lesson's reminder,
    /// a task's deadline; `in_inbox` false for one that only goes out by push or mail);
    /// `notification_settings` a user's channels per topic where they differ from the defaults;
    /// `notification_profiles` their quiet hours, time zone, lead times and digest choice;
    /// `push_subscriptions` their browsers' Web Push subscriptions; `notification_deliveries` the
    /// queue of what goes out by push (one row per subscription) or mail: due, claimed by an
    /// instance, sent, or failed for good, with the attempts and the last error.
    static let notifications = Migration(
        version: 32, name: "notifications",
        statements: [
            "CREATE TABLE change_notices (change_id BIGINT PRIMARY KEY)",
            """
            CREATE TABLE notifications (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                topic TEXT NOT NULL,
                cause TEXT NOT NULL,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                link TEXT,
                in_inbox BOOLEAN NOT NULL,
                late BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                read_at BIGINT,
                UNIQUE (user_id, cause)
            )
            """,
            "CREATE INDEX notifications_user ON notifications (user_id, id)",
            "CREATE INDEX notifications_created_at ON notifications (created_at)",
            """
            CREATE TABLE notification_settings (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                topic TEXT NOT NULL,
                inbox BOOLEAN NOT NULL,
                push BOOLEAN NOT NULL,
                email BOOLEAN NOT NULL,
                PRIMARY KEY (user_id, topic)
            )
            """,
            """
            CREATE TABLE notification_profiles (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                lesson_minutes INTEGER NOT NULL,
                exam_days INTEGER NOT NULL,
                quiet_start INTEGER,
                quiet_end INTEGER,
                time_zone TEXT,
                email_digest BOOLEAN NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE push_subscriptions (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                endpoint TEXT NOT NULL UNIQUE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                expires_at BIGINT,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id)",
            """
            CREATE TABLE notification_deliveries (
                id {{id}},
                notification_id BIGINT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
                channel TEXT NOT NULL CHECK (channel IN ('push', 'email')),
                subscription_id BIGINT REFERENCES push_subscriptions(id) ON DELETE CASCADE,
                due_at BIGINT NOT NULL,
                expires_at BIGINT,
                attempts INTEGER NOT NULL DEFAULT 0,
                claimed_at BIGINT,
                claimed_by TEXT,
                sent_at BIGINT,
                failed_at BIGINT,
                last_error TEXT
            )
            """,
            "CREATE INDEX notification_deliveries_due ON notification_deliveries (due_at) WHERE sent_at IS NULL AND failed_at IS NULL",
            "CREATE INDEX notification_deliveries_notification ON notification_deliveries (notification_id)",
        ])
}
