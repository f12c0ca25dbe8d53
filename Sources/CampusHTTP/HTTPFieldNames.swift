import HTTPTypes

/// Header names Campus reads or writes that HTTPTypes does not name.
extension HTTPField.Name {
    public static let xForwardedFor = Self("X-Forwarded-For")!
    public static let xCSRFToken = Self("X-CSRF-Token")!
    public static let xContentTypeOptions = Self("X-Content-Type-Options")!
    public static let xFrameOptions = Self("X-Frame-Options")!
    public static let referrerPolicy = Self("Referrer-Policy")!
    public static let contentSecurityPolicy = Self("Content-Security-Policy")!
}
