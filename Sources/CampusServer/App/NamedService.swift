import ServiceLifecycle

/// A background service named by its type. ServiceLifecycle names each service of a group by
/// `"\(service)"` and keeps the name for the group's life; for a struct that is a dump of every
/// stored property, and a service holding the account or listen service (and through them the
/// languages' catalogues) made a name of about a megabyte: 1.7 MB of an idle server's heap
/// (docs/BENCHMARKS.md). Classes are named by their type already.
protocol NamedService: Service, CustomStringConvertible {}

extension NamedService {
    var description: String { String(describing: Self.self) }
}
