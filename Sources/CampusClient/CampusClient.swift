// The generated Campus API client (see openapi.yaml). Create it with a transport, e.g.
// `Client(serverURL: url, transport: URLSessionTransport())` on iOS.
@_exported import CampusAPI
