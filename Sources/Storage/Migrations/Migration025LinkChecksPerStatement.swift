/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// On PostgreSQL, a lesson's links to its groups, teachers and rooms keep their references
    /// with triggers that check a whole statement's rows at once, instead of foreign keys that
    /// check each row (issue 15, item 5). A foreign key runs a query, with its own executor, for
    /// every row a statement inserts: half of the server's work in an IIS import of 114,500
    /// links. The triggers keep what the foreign keys kept, the same way:
    /// - after an INSERT statement into a link table, every lesson, group, teacher and room its
    ///   rows name must exist, and is locked `FOR KEY SHARE` (what a foreign key's check locks,
    ///   so that a concurrent delete waits for the import, or the import fails on a delete
    ///   that went first);
    /// - a link whose lesson, group, teacher or room is changed must name one that exists;
    /// - after a DELETE statement of lessons, groups, teachers or rooms their links are deleted
    ///   (`ON DELETE CASCADE`);
    /// - a lesson's, group's, teacher's or room's key cannot change while a link names the old
    ///   one (`NO ACTION`), and the table cannot be truncated while it has links.
    /// SQLite keeps its foreign keys: it checks them inside its own engine, cheaply.
    static let linkChecksPerStatement = Migration(
        version: 25, name: "link checks per statement",
        statements: linkCheckFunctions + LinkReference.all.flatMap(\.statements) + [
            truncateTrigger(on: "lessons", links: ["lesson_groups", "lesson_teachers", "lesson_rooms"]),
            truncateTrigger(on: "study_groups", links: ["lesson_groups"]),
            truncateTrigger(on: "teachers", links: ["lesson_teachers"]),
            truncateTrigger(on: "rooms", links: ["lesson_rooms"]),
        ],
        onlyOn: .postgres)

    /// One column of a link table and the key it names.
    private struct LinkReference {
        var link: String
        var column: String
        var parent: String
        var key: String

        static let all = [
            LinkReference(link: "lesson_groups", column: "lesson_id", parent: "lessons", key: "id"),
            LinkReference(link: "lesson_groups", column: "group_name", parent: "study_groups", key: "name"),
            LinkReference(link: "lesson_teachers", column: "lesson_id", parent: "lessons", key: "id"),
            LinkReference(link: "lesson_teachers", column: "teacher_id", parent: "teachers", key: "id"),
            LinkReference(link: "lesson_rooms", column: "lesson_id", parent: "lessons", key: "id"),
            LinkReference(link: "lesson_rooms", column: "room_id", parent: "rooms", key: "id"),
        ]

        /// The foreign key made by step 2, and the triggers that take its place.
        var statements: [String] {
            let arguments = "'\(parent)', '\(key)', '\(link)', '\(column)'"
            return [
                "ALTER TABLE \(link) DROP CONSTRAINT \(link)_\(column)_fkey",
                """
                CREATE TRIGGER \(column)_exists AFTER INSERT ON \(link) REFERENCING NEW TABLE AS new_links
                FOR EACH STATEMENT EXECUTE FUNCTION campus_links_refer(\(arguments))
                """,
                """
                CREATE TRIGGER \(column)_changed AFTER UPDATE ON \(link) FOR EACH ROW
                WHEN (OLD.\(column) IS DISTINCT FROM NEW.\(column)) EXECUTE FUNCTION campus_link_changed(\(arguments))
                """,
                """
                CREATE TRIGGER delete_\(link) AFTER DELETE ON \(parent) REFERENCING OLD TABLE AS old_rows
                FOR EACH STATEMENT EXECUTE FUNCTION campus_delete_links(\(arguments))
                """,
                """
                CREATE TRIGGER keep_\(link) AFTER UPDATE ON \(parent) FOR EACH ROW
                WHEN (OLD.\(key) IS DISTINCT FROM NEW.\(key)) EXECUTE FUNCTION campus_key_kept(\(arguments))
                """,
            ]
        }
    }

    /// The triggers' functions; each takes the parent table, its key, the link table and its
    /// column as arguments.
    private static let linkCheckFunctions = [
        """
        CREATE FUNCTION campus_links_refer() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            found bigint;
            named bigint;
        BEGIN
            EXECUTE format(
                'SELECT (SELECT count(*) FROM (SELECT 1 FROM %1$I WHERE %2$I IN (SELECT %3$I FROM new_links) '
                    'FOR KEY SHARE) locked), (SELECT count(DISTINCT %3$I) FROM new_links)',
                TG_ARGV[0], TG_ARGV[1], TG_ARGV[3]) INTO found, named;
            IF found <> named THEN
                RAISE foreign_key_violation USING MESSAGE = format(
                    'insert into %s: %s names a row of %s that does not exist', TG_ARGV[2], TG_ARGV[3], TG_ARGV[0]);
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION campus_link_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            hit integer;
        BEGIN
            EXECUTE format('SELECT 1 FROM %I WHERE %I = ($1).%I FOR KEY SHARE', TG_ARGV[0], TG_ARGV[1], TG_ARGV[3])
                INTO hit USING NEW;
            IF hit IS NULL THEN
                RAISE foreign_key_violation USING MESSAGE = format(
                    'update of %s: %s names a row of %s that does not exist', TG_ARGV[2], TG_ARGV[3], TG_ARGV[0]);
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION campus_delete_links() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            EXECUTE format('DELETE FROM %I WHERE %I IN (SELECT %I FROM old_rows)', TG_ARGV[2], TG_ARGV[3], TG_ARGV[1]);
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION campus_key_kept() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            hit integer;
        BEGIN
            EXECUTE format('SELECT 1 FROM %I WHERE %I = ($1).%I LIMIT 1', TG_ARGV[2], TG_ARGV[3], TG_ARGV[1])
                INTO hit USING OLD;
            IF hit IS NOT NULL THEN
                RAISE foreign_key_violation USING MESSAGE = format(
                    'update of %s: %s still names the old %s', TG_ARGV[0], TG_ARGV[2], TG_ARGV[1]);
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION campus_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            link text;
            hit integer;
        BEGIN
            FOREACH link IN ARRAY TG_ARGV LOOP
                EXECUTE format('SELECT 1 FROM %I LIMIT 1', link) INTO hit;
                IF hit IS NOT NULL THEN
                    RAISE foreign_key_violation USING MESSAGE = format(
                        'truncate %s: %s has rows that name it', TG_TABLE_NAME, link);
                END IF;
            END LOOP;
            RETURN NULL;
        END $$
        """,
    ]

    private static func truncateTrigger(on parent: String, links: [String]) -> String {
        """
        CREATE TRIGGER refuse_truncate BEFORE TRUNCATE ON \(parent)
        FOR EACH STATEMENT EXECUTE FUNCTION campus_refuse_truncate(\(links.map { "'\($0)'" }.joined(separator: ", ")))
        """
    }
}
