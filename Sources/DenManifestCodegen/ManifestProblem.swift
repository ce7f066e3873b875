/// What is wrong with a module.json, said the way a compiler says it: the file, the field, what
/// is wrong and what to do. The build tool prints `description` and fails the build.
package struct ManifestProblem: Error, Equatable, CustomStringConvertible {
    /// The module.json path as given to the tool.
    package var file: String
    /// Where in the document: `routes[1].pattern`, `exports[0].signature`, or `(document)`.
    package var field: String
    package var problem: String
    package var fix: String

    package init(file: String, field: String, problem: String, fix: String) {
        self.file = file
        self.field = field
        self.problem = problem
        self.fix = fix
    }

    /// `path: error: …` is the form SwiftPM and editors show as a build error on that file.
    package var description: String {
        "\(file): error: \(field): \(problem). \(fix)"
    }
}
