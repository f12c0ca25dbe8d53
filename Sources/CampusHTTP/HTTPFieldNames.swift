import HTTPTypes

/// Header names Campus reads or writes that HTTPTypes does not name.
extension HTTPField.Name {
    public static let xForwardedFor = Self("X-Forwarded-For")!
    public static let xCSRFToken = Self("X-CSRF-Token")!
    /// A form post's own key: the same post sent again is not done twice (the installed app's outbox).
    public static let idempotencyKey = Self("Idempotency-Key")!
    public static let xContentTypeOptions = Self("X-Content-Type-Options")!
    public static let xFrameOptions = Self("X-Frame-Options")!
    public static let referrerPolicy = Self("Referrer-Policy")!
    public static let contentSecurityPolicy = Self("Content-Security-Policy")!
    // Icecast's: a listener asks for in-stream metadata, a stream says what station it is.
    public static let icyMetadata = Self("Icy-MetaData")!
    public static let icyMetaint = Self("icy-metaint")!
    public static let icyName = Self("icy-name")!
    public static let icyGenre = Self("icy-genre")!
    public static let icyDescription = Self("icy-description")!
}
