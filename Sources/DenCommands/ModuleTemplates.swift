/// The files `den new-module` writes: each template (Templates/*.mustache, built into `den` with
/// SwiftPM's `embedInCode`, so an installed den needs no template folder) and the path it is
/// written to, itself a template. Mustache renders both (ModuleGenerator).
enum ModuleTemplates {
    struct File {
        var path: String
        var template: [UInt8]
    }

    static let files: [File] = [
        File(path: "Package.swift", template: PackageResources.Package_swift_mustache),
        File(path: "README.md", template: PackageResources.README_md_mustache),
        File(path: ".gitignore", template: PackageResources.gitignore_mustache),
        File(path: "Sources/{{name}}Module/Builder/{{name}}Builder.swift", template: PackageResources.Builder_swift_mustache),
        File(path: "Sources/{{name}}Module/Entity/{{name}}Greeting.swift", template: PackageResources.Entity_swift_mustache),
        File(path: "Sources/{{name}}Module/Interactor/{{name}}Interactor.swift", template: PackageResources.Interactor_swift_mustache),
        File(path: "Sources/{{name}}Module/Presenter/{{name}}Presenter.swift", template: PackageResources.Presenter_swift_mustache),
        File(path: "Sources/{{name}}Module/Router/{{name}}Router.swift", template: PackageResources.Router_swift_mustache),
        File(path: "Sources/{{name}}Module/View/{{name}}View.swift", template: PackageResources.View_swift_mustache),
        File(path: "Sources/{{name}}Module/View/{{name}}ViewObject.swift", template: PackageResources.ViewObject_swift_mustache),
        File(path: "Sources/{{name}}Module/Services/{{name}}Services.swift", template: PackageResources.Services_swift_mustache),
        File(path: "Sources/{{name}}ModuleEntry/{{name}}ModuleEntry.swift", template: PackageResources.Entry_swift_mustache),
        File(path: "Sources/{{name}}Module/Manifest/manifest.c", template: PackageResources.manifest_c_mustache),
        File(path: "Sources/{{name}}Module/Manifest/module.json", template: PackageResources.module_json_mustache),
        File(path: "Tests/{{name}}ModuleTests/Mocks.swift", template: PackageResources.Mocks_swift_mustache),
        File(path: "Tests/{{name}}ModuleTests/{{name}}PresenterTests.swift", template: PackageResources.PresenterTests_swift_mustache),
        File(path: "Tests/{{name}}ModuleTests/{{name}}InteractorTests.swift", template: PackageResources.InteractorTests_swift_mustache),
        File(path: "Tests/{{name}}ModuleTests/{{name}}RouterTests.swift", template: PackageResources.RouterTests_swift_mustache),
        File(path: "Tests/{{name}}ModuleTests/{{name}}StackTests.swift", template: PackageResources.StackTests_swift_mustache),
    ]
}
