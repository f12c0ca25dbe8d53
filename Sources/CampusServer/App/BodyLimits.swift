import CampusHTTP
import Timetable

/// The bodies larger than a JSON or form request (``RouteProperties/defaultBodyLimit``, 1 MiB)
/// that routes declare: openapi.yaml says the API's in `x-campus-body-limit`, which a test
/// compares with these.
enum BodyLimits {
    /// Avatar images.
    static let avatar = 2 << 20
    /// A multipart form carrying an avatar, with room for the form's other fields.
    static let avatarForm = avatar + (64 << 10)
    /// A station's image.
    static let stationImage = 2 << 20
    /// A multipart form carrying a station's image.
    static let stationImageForm = stationImage + (64 << 10)
    /// An image of a home-feed block (a background, an ad's banner).
    static let libraryImage = 2 << 20
    /// A multipart form carrying a feed block's image.
    static let libraryImageForm = libraryImage + (64 << 10)
    /// GPX tracks.
    static let gpx = 10 << 20
    /// A multipart form carrying a GPX track.
    static let gpxForm = gpx + (64 << 10)
    /// A multipart form carrying a task's photo (``StudyTask/imageSize``).
    static let taskImageForm = StudyTask.imageSize + (64 << 10)
    /// A multipart form carrying a media file for the library (``LibraryService/uploadLimit``).
    static let mediaUploadForm = LibraryService.uploadLimit + (64 << 10)
}
