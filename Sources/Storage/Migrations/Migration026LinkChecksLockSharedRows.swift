/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// On PostgreSQL, the check after an INSERT into a link table (step 25) finds what the new
    /// links name in one anti-join, and locks `FOR KEY SHARE` only the rows another transaction
    /// wrote: a lesson, group, teacher or room this transaction inserted or updated itself is seen
    /// by nobody else until it commits (and an update holds a stronger lock already), so locking
    /// it guarded nothing, and cost a lock of every lesson an IIS import adds, in every link
    /// statement (issue 15, item 5). A row another transaction wrote is locked as before, and if
    /// it was deleted between the check and the lock (it is then not locked), the insert fails as
    /// a foreign key's check fails. Uses `pg_current_xact_id()` (PostgreSQL 13 or later).
    static let linkChecksLockSharedRows = Migration(
        version: 26, name: "link checks lock shared rows",
        statements: [
            """
            CREATE OR REPLACE FUNCTION campus_links_refer() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                missing bigint;
                shared bigint;
                locked bigint;
            BEGIN
                EXECUTE format(
                    'SELECT count(*) FILTER (WHERE p.%2$I IS NULL), '
                        'count(*) FILTER (WHERE p.xmin <> pg_current_xact_id()::xid) '
                        'FROM (SELECT DISTINCT %3$I AS k FROM new_links) n LEFT JOIN %1$I p ON p.%2$I = n.k',
                    TG_ARGV[0], TG_ARGV[1], TG_ARGV[3]) INTO missing, shared;
                IF missing = 0 AND shared > 0 THEN
                    EXECUTE format(
                        'SELECT count(*) FROM (SELECT 1 FROM %1$I WHERE %2$I IN (SELECT %3$I FROM new_links) '
                            'AND xmin <> pg_current_xact_id()::xid FOR KEY SHARE) locked',
                        TG_ARGV[0], TG_ARGV[1], TG_ARGV[3]) INTO locked;
                    missing := shared - locked;
                END IF;
                IF missing <> 0 THEN
                    RAISE foreign_key_violation USING MESSAGE = format(
                        'insert into %s: %s names a row of %s that does not exist', TG_ARGV[2], TG_ARGV[3], TG_ARGV[0]);
                END IF;
                RETURN NULL;
            END $$
            """
        ],
        onlyOn: .postgres)
}
