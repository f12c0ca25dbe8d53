/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    static let timetable = Migration(
        version: 2, name: "timetable",
        statements: [
            """
            CREATE TABLE faculties (
                id BIGINT PRIMARY KEY,
                name TEXT,
                abbreviation TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE specialities (
                id BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                abbreviation TEXT NOT NULL,
                code TEXT,
                faculty_id BIGINT,
                education_form_id BIGINT,
                education_form_name TEXT
            )
            """,
            """
            CREATE TABLE departments (
                abbreviation TEXT PRIMARY KEY,
                name TEXT,
                iis_id BIGINT
            )
            """,
            """
            CREATE TABLE rooms (
                id {{id}},
                name TEXT NOT NULL,
                building INTEGER,
                building_key INTEGER NOT NULL,
                floor INTEGER,
                type_name TEXT,
                type_abbreviation TEXT,
                capacity INTEGER,
                note TEXT,
                department TEXT,
                off_campus BOOLEAN NOT NULL,
                iis_id BIGINT,
                UNIQUE (name, building_key)
            )
            """,
            """
            CREATE TABLE study_groups (
                name TEXT PRIMARY KEY,
                title TEXT,
                course INTEGER,
                faculty_id BIGINT,
                speciality_id BIGINT,
                education_degree INTEGER,
                student_count INTEGER,
                iis_id BIGINT,
                lessons_start INTEGER,
                lessons_end INTEGER,
                exams_start INTEGER,
                exams_end INTEGER,
                last_update INTEGER,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE teachers (
                id {{id}},
                url_id TEXT NOT NULL UNIQUE,
                first_name TEXT NOT NULL,
                middle_name TEXT,
                last_name TEXT NOT NULL,
                rank TEXT,
                degree TEXT,
                degree_abbreviation TEXT,
                photo_url TEXT,
                email TEXT,
                iis_id BIGINT,
                lessons_start INTEGER,
                lessons_end INTEGER,
                exams_start INTEGER,
                exams_end INTEGER,
                last_update INTEGER,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE teacher_departments (
                teacher_id BIGINT NOT NULL REFERENCES teachers(id) ON DELETE CASCADE,
                department TEXT NOT NULL,
                PRIMARY KEY (teacher_id, department)
            )
            """,
            """
            CREATE TABLE teacher_cards (
                teacher_id BIGINT PRIMARY KEY REFERENCES teachers(id) ON DELETE CASCADE,
                description TEXT,
                subject TEXT,
                marks_attendance TEXT,
                automatic_pass BOOLEAN
            )
            """,
            """
            CREATE TABLE lesson_types (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                abbreviation TEXT NOT NULL,
                colour TEXT NOT NULL,
                is_exam BOOLEAN NOT NULL
            )
            """,
            """
            CREATE TABLE lessons (
                id {{id}},
                identity_hash TEXT NOT NULL UNIQUE,
                subject TEXT NOT NULL,
                subject_full TEXT,
                type_id TEXT,
                start_minute INTEGER NOT NULL,
                end_minute INTEGER NOT NULL,
                weekday INTEGER,
                weeks INTEGER NOT NULL,
                subgroup INTEGER NOT NULL,
                start_day INTEGER,
                end_day INTEGER,
                date_day INTEGER,
                note TEXT,
                announcement BOOLEAN NOT NULL,
                exam BOOLEAN NOT NULL
            )
            """,
            """
            CREATE TABLE lesson_groups (
                lesson_id BIGINT NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
                group_name TEXT NOT NULL REFERENCES study_groups(name) ON DELETE CASCADE,
                PRIMARY KEY (lesson_id, group_name)
            )
            """,
            "CREATE INDEX lesson_groups_group ON lesson_groups (group_name)",
            """
            CREATE TABLE lesson_teachers (
                lesson_id BIGINT NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
                teacher_id BIGINT NOT NULL REFERENCES teachers(id) ON DELETE CASCADE,
                from_teacher_schedule BOOLEAN NOT NULL,
                PRIMARY KEY (lesson_id, teacher_id)
            )
            """,
            "CREATE INDEX lesson_teachers_teacher ON lesson_teachers (teacher_id)",
            """
            CREATE TABLE lesson_rooms (
                lesson_id BIGINT NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
                room_id BIGINT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
                PRIMARY KEY (lesson_id, room_id)
            )
            """,
            "CREATE INDEX lesson_rooms_room ON lesson_rooms (room_id)",
            """
            CREATE TABLE subjects (
                id BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                faculty TEXT,
                speciality TEXT NOT NULL,
                year INTEGER NOT NULL,
                trimester INTEGER,
                kind TEXT NOT NULL,
                number_of_groups INTEGER NOT NULL
            )
            """,
        ])
}
