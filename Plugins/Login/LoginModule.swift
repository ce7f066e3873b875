import DenKit

/// Login: log in (and out), create an account, reset a forgotten password with a token, change
/// the password. The host's route guard opens `login?next=<route>` for a guarded route; after a
/// login the module goes on to `next`.
public let loginModule = ModuleDefinition(
    id: "login",
    version: "1.0.0",
    summary: "Log in and out, create an account, reset or change a password",
    routes: [
        RouteDefinition(LoginRoutes.logIn, builder: LoginBuilder.self),
        RouteDefinition(LoginRoutes.register, builder: LoginBuilder.self),
        RouteDefinition(LoginRoutes.reset, builder: LoginBuilder.self),
        RouteDefinition(LoginRoutes.changePassword, requiresLogin: true, builder: LoginBuilder.self),
    ])
