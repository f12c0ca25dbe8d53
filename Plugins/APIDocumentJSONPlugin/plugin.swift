import Foundation
import PackagePlugin

/// Makes `openapi.json`, a resource of the target, from the target's `openapi.yaml` with the
/// APIDocumentJSON tool, whenever the YAML changes.
@main struct APIDocumentJSONPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let input = target.directoryURL.appending(path: "openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "openapi.json")
        return [
            .buildCommand(
                displayName: "Writing \(target.name)'s openapi.yaml as JSON",
                executable: try context.tool(named: "APIDocumentJSON").url,
                arguments: [input.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [input], outputFiles: [output])
        ]
    }
}
