/// Entity: a greeting for one name.
struct Greeting: Equatable {
    var name: String

    var text: String { name.isEmpty ? "Hello! Who are you?" : "Hello, \(name)!" }
}
