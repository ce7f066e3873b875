import Foundation

/// Interactor: the module's logic, here just cleaning up the name.
protocol GreeterInteractorInput: AnyObject {
    func greeting(for name: String) -> Greeting
}

final class GreeterInteractor: GreeterInteractorInput {
    func greeting(for name: String) -> Greeting {
        Greeting(name: String(name.trimmingCharacters(in: .whitespaces).prefix(40)))
    }
}
