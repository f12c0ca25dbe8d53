import CampusAPI
import Formats

/// A Schedule document as JSON, written by ``JSONWriter``: the bytes `JSONEncoder` with sorted
/// keys writes (a test compares them on the fixtures' weeks), in a tenth of its time. Each
/// object's keys are written in their sorted order; optional fields absent when nil.
enum ScheduleJSON {
    static func encode(_ schedule: Components.Schemas.Schedule) -> [UInt8] {
        var json = JSONWriter(capacity: 16 << 10)
        json.object { json in
            json.key("days")
            json.array(schedule.days) { json, day in write(day, &json) }
            json.field("from", schedule.from)
            json.field("subgroup", schedule.subgroup)
            json.field("timeZone", schedule.timeZone)
            json.field("to", schedule.to)
        }
        return json.bytes
    }

    static func write(_ day: Components.Schemas.ScheduleDay, _ json: inout JSONWriter) {
        json.object { json in
            json.field("date", day.date)
            json.key("lessons")
            json.array(day.lessons) { json, lesson in write(lesson, &json) }
            json.field("week", day.week)
            json.field("weekday", day.weekday)
            json.key("windows")
            json.array(day.windows) { json, window in
                json.object { json in
                    json.field("end", window.end)
                    json.field("message", window.message)
                    json.field("minutes", window.minutes)
                    json.field("start", window.start)
                }
            }
        }
    }

    static func write(_ lesson: Components.Schemas.Occurrence, _ json: inout JSONWriter) {
        json.object { json in
            json.field("announcement", lesson.announcement)
            json.field("date", lesson.date)
            json.field("end", lesson.end)
            json.field("exam", lesson.exam)
            json.key("groups")
            json.array(lesson.groups) { json, group in json.string(group) }
            json.field("lessonId", lesson.lessonId)
            json.field("note", lesson.note)
            json.key("rooms")
            json.array(lesson.rooms) { json, room in
                json.object { json in
                    json.field("id", room.id)
                    json.field("mapUrl", room.mapUrl)
                    json.field("name", room.name)
                }
            }
            json.field("start", lesson.start)
            json.field("subgroup", lesson.subgroup)
            json.field("subject", lesson.subject)
            json.field("subjectFullName", lesson.subjectFullName)
            json.key("teachers")
            json.array(lesson.teachers) { json, teacher in
                json.object { json in
                    json.field("name", teacher.name)
                    json.field("urlId", teacher.urlId)
                }
            }
            if let type = lesson._type {
                json.key("type")
                json.object { json in
                    json.field("abbreviation", type.abbreviation)
                    json.field("colour", type.colour)
                    json.field("exam", type.exam)
                    json.field("id", type.id)
                    json.field("name", type.name)
                }
            }
            if let weeks = lesson.weeks {
                json.key("weeks")
                json.array(weeks) { json, week in json.integer(week) }
            }
        }
    }
}
