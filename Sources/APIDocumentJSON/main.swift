// Writes openapi.yaml as JSON, at build time (Plugins/APIDocumentJSONPlugin runs it for the
// CampusAPI module): the server reads the JSON form at start, since reading the YAML was the
// longest step of the start (docs/BENCHMARKS.md). openapi.yaml stays the one document; this form
// is made from it on every build that changes it, never kept in the repository.
//
//     APIDocumentJSON openapi.yaml openapi.json
import Foundation
import Yams

/// A document read by Yams as JSON's values: mapping keys as text (`200:` is the key "200").
func jsonValue(_ value: Any) -> Any {
    switch value {
    case let mapping as [AnyHashable: Any]:
        var object: [String: Any] = [:]
        for (key, value) in mapping { object["\(key.base)"] = jsonValue(value) }
        return object
    case let sequence as [Any]:
        return sequence.map(jsonValue)
    default:
        return value
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: APIDocumentJSON openapi.yaml openapi.json\n".utf8))
    exit(2)
}
do {
    let yaml = try String(contentsOfFile: arguments[1], encoding: .utf8)
    guard let document = try Yams.load(yaml: yaml) else {
        FileHandle.standardError.write(Data("\(arguments[1]) is empty\n".utf8))
        exit(1)
    }
    let json = try JSONSerialization.data(
        withJSONObject: jsonValue(document), options: [.sortedKeys, .withoutEscapingSlashes])
    try json.write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("\(arguments[1]): \(error)\n".utf8))
    exit(1)
}
