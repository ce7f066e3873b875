import DenKit

/// A small VIPER module: greets a name given in the route or typed into the form.
public let greeterModule = ModuleDefinition(
    id: "greeter", version: "1.0.0", summary: "Greets you (an example built outside Den)",
    routes: [
        RouteDefinition("hello", builder: GreeterBuilder.self),
        RouteDefinition("hello/<string:name>", builder: GreeterBuilder.self),
    ])
