/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// The media catalogue and what listeners keep (seed 001). A parent (album, podcast,
    /// audiobook, programme) is found again by `source` when the library is scanned or a feed
    /// imported again, so ids of unchanged things never change. A library file is found again by
    /// its path inside the library. What a listener keeps goes with their account.
    static let listen = Migration(
        version: 4, name: "listen",
        statements: [
            """
            CREATE TABLE authors (
                id {{id}},
                name TEXT NOT NULL,
                search_key TEXT NOT NULL UNIQUE
            )
            """,
            """
            CREATE TABLE genres (
                id {{id}},
                name TEXT NOT NULL,
                search_key TEXT NOT NULL UNIQUE
            )
            """,
            """
            CREATE TABLE parents (
                id {{id}},
                kind TEXT NOT NULL CHECK (kind IN ('album', 'podcast', 'audiobook', 'programme')),
                title TEXT NOT NULL,
                search_key TEXT NOT NULL,
                author_id BIGINT REFERENCES authors(id) ON DELETE SET NULL,
                genre_id BIGINT REFERENCES genres(id) ON DELETE SET NULL,
                year INTEGER,
                description TEXT NOT NULL,
                source TEXT NOT NULL UNIQUE,
                feed_url TEXT,
                cover TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX parents_kind ON parents (kind, search_key)",
            "CREATE INDEX parents_author ON parents (author_id)",
            "CREATE INDEX parents_genre ON parents (genre_id)",
            """
            CREATE TABLE media (
                id {{id}},
                kind TEXT NOT NULL CHECK (
                    kind IN ('track', 'podcast_episode', 'audiobook_chapter', 'programme_episode')),
                parent_id BIGINT NOT NULL REFERENCES parents(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                search_key TEXT NOT NULL,
                author_id BIGINT REFERENCES authors(id) ON DELETE SET NULL,
                genre_id BIGINT REFERENCES genres(id) ON DELETE SET NULL,
                disc INTEGER NOT NULL,
                number INTEGER NOT NULL,
                duration DOUBLE PRECISION NOT NULL,
                explicit BOOLEAN NOT NULL,
                description TEXT NOT NULL,
                published_at BIGINT,
                path TEXT UNIQUE,
                url TEXT,
                guid TEXT,
                size BIGINT NOT NULL,
                modified_at BIGINT NOT NULL,
                content_type TEXT NOT NULL,
                bitrate INTEGER,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX media_parent ON media (parent_id, disc, number)",
            "CREATE INDEX media_search ON media (search_key)",
            "CREATE INDEX media_author ON media (author_id)",
            "CREATE INDEX media_genre ON media (genre_id)",
            "CREATE UNIQUE INDEX media_guid ON media (parent_id, guid)",
            """
            CREATE TABLE stations (
                id {{id}},
                name TEXT NOT NULL,
                region TEXT NOT NULL,
                description TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE player_states (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                state TEXT NOT NULL,
                version BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE listening_history (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                media_id BIGINT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                outcome TEXT NOT NULL CHECK (outcome IN ('ended', 'skipped', 'paused')),
                position DOUBLE PRECISION NOT NULL,
                at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX listening_history_user ON listening_history (user_id, at)",
            "CREATE INDEX listening_history_media ON listening_history (media_id)",
            """
            CREATE TABLE resume_positions (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                media_id BIGINT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                position DOUBLE PRECISION NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, media_id)
            )
            """,
            """
            CREATE TABLE marks (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                target TEXT NOT NULL,
                mark TEXT NOT NULL CHECK (mark IN ('like', 'hide')),
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, target)
            )
            """,
            "CREATE INDEX marks_target ON marks (target, mark)",
            """
            CREATE TABLE ratings (
                parent_id BIGINT NOT NULL REFERENCES parents(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (parent_id, user_id)
            )
            """,
            """
            CREATE TABLE comments (
                id {{id}},
                parent_id BIGINT NOT NULL REFERENCES parents(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX comments_parent ON comments (parent_id, created_at)",
            """
            CREATE TABLE playlists (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (
                    kind IN ('track', 'podcast_episode', 'audiobook_chapter', 'programme_episode')),
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX playlists_user ON playlists (user_id, updated_at)",
            """
            CREATE TABLE playlist_items (
                playlist_id BIGINT NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
                media_id BIGINT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                PRIMARY KEY (playlist_id, media_id)
            )
            """,
            """
            CREATE TABLE listen_settings (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                settings TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE feed_blocks (
                id {{id}},
                position INTEGER NOT NULL,
                type TEXT NOT NULL,
                title TEXT NOT NULL,
                highlight BOOLEAN NOT NULL,
                source TEXT NOT NULL,
                item_limit INTEGER NOT NULL,
                genre_id BIGINT REFERENCES genres(id) ON DELETE CASCADE,
                updated_at BIGINT NOT NULL
            )
            """,
        ])
}
