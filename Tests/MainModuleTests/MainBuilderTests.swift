import DenKit
import Foundation
import Testing
@testable import MainModule

@Suite("Main builder and instance")
struct MainBuilderTests {
    @Test("the module is 'main' 1.0.0 with the main route, the deep link (a string amount) and its settings")
    func definition() {
        #expect(mainModule.id == "main")
        #expect(mainModule.version == "1.0.0")
        #expect(mainModule.routes.map(\.pattern) == ["main", "convert/<string:amount>/<string:from>/<string:to>"])
        #expect(mainModule.settings.map(\.name) == ["rates_url", "fetch_timeout"])
        #expect(mainModule.settings.first?.defaultValue == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
        #expect(SettingsDeclaration(settings: mainModule.settings).problem == nil)
    }

    @Test("builds with the real host clients even when no host answers")
    func buildWithoutHost() throws {
        let instance = try MainBuilder.buildMain(context("main"))
        let reply = try instance.handle(.appear)
        #expect(reply.screen.field("from")?.value == "USD")
        #expect(reply.screen.field("to")?.value == "EUR")
        #expect(reply.screen.field("amount")?.value == "100")
        #expect(reply.effects.isEmpty)
        _ = try WireFormat.encode(reply)
    }

    @Test("the main route restores the last saved conversion")
    func restoresSaved() throws {
        let settings = MockSettingsStore([SettingsKey.lastConversion(of: testUser): #"{"from":"GBP","to":"JPY","amount":"7.5"}"#])
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies(settings))
        #expect(stack.presenter.state == SavedConversion(from: gbp, to: jpy, amount: "7.5"))
    }

    @Test("a saved conversion that is no longer valid gives the defaults and says so", arguments: [
        (#"{"from":"XAU","to":"JPY","amount":"7.5"}"#, "7.5 XAU → JPY, could not be restored: XAU is not in the rates"),
        (#"{"from":"GBP","to":"JPY","amount":"00"}"#, "00 GBP → JPY, could not be restored: the amount is not accepted"),
        ("junk", "could not be read back (the saved record is damaged)"),
    ])
    func invalidSaved(saved: String, said: String) throws {
        let settings = MockSettingsStore([SettingsKey.lastConversion(of: testUser): saved])
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies(settings))
        #expect(stack.presenter.state == SavedConversion(from: usd, to: eur, amount: "100"))
        let banners = try stack.instance.handle(.appear).screen.banners
        #expect(banners.contains { $0.text.contains(said) && $0.text.contains("100 USD → EUR") }, "\(banners)")
    }

    @Test("storage that cannot be read is said on the first screen")
    func unreadableSaved() throws {
        let settings = MockSettingsStore()
        settings.failReads = true
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies(settings))
        #expect(try stack.instance.handle(.appear).screen.banners.contains { $0.text.contains("could not be read back") })
    }

    @Test("the deep link opens Main with its values; lower-case codes are accepted", arguments: [
        ("12.5", "usd", "jpy", "USD", "JPY", "12.5"),
        ("100", "EUR", "gbp", "EUR", "GBP", "100"),
        ("0", "Chf", "CHF", "CHF", "CHF", "0"),
        ("05", "USD", "EUR", "USD", "EUR", "5"),
        // What the amount field accepts, the link accepts the same way.
        (".5", "USD", "EUR", "USD", "EUR", "0.5"),
        ("5.", "USD", "EUR", "USD", "EUR", "5."),
        ("1,5", "USD", "EUR", "USD", "EUR", "1.5"),
        (" 7 ", "USD", "EUR", "USD", "EUR", "7"),
    ])
    func deepLink(amount: String, from: String, to: String, expectedFrom: String, expectedTo: String,
                  expectedAmount: String) throws {
        let stack = try MainBuilder.assemble(link: conversionLink(amount: amount, from: from, to: to),
                                             dependencies: offlineDependencies())
        #expect(stack.presenter.state == SavedConversion(from: currency(expectedFrom), to: currency(expectedTo),
                                                         amount: expectedAmount))
        let screen = try stack.instance.handle(.appear).screen
        #expect(screen.field("from")?.value == expectedFrom)
        #expect(screen.field("amount")?.value == expectedAmount)
    }

    @Test("the deep link shows the converted amount")
    func deepLinkResult() throws {
        let instance = try MainBuilder.assemble(link: conversionLink(amount: "100", from: "usd", to: "eur"),
                                                dependencies: offlineDependencies()).instance
        #expect(try instance.handle(.appear).screen.texts.contains("100 USD = 89.08 EUR"))
    }

    @Test("an unknown currency is refused with the list of valid codes", arguments: [("XYZ", "EUR"), ("USD", "xyz"), ("US", "EUR")])
    func unknownCurrency(from: String, to: String) throws {
        let error = try #require(throws: ModuleError.self) {
            try MainBuilder.buildConvert(context("convert/1/\(from)/\(to)"), amount: "1", from: from, to: to)
        }
        guard case .invalidParameter(let message) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        let bad = from.count == 3 && from != "XYZ" ? to : from
        #expect(message.contains("'\(bad)'"))
        for code in try bundledRates().currencies.map(\.code) {
            #expect(message.contains(code))
        }
    }

    @Test("a deep-link amount the field refuses is refused with the field's reason",
          arguments: ["-5", "abc", "1e20", "1e3", "0.0000001", "00", "007", "00.5", "1.2.3", "1234567890123456"])
    func badAmount(amount: String) throws {
        let error = try #require(throws: ModuleError.self) {
            try MainBuilder.buildConvert(context("convert/\(amount)/USD/EUR"), amount: amount, from: "USD", to: "EUR")
        }
        guard case .invalidParameter(let message) = error else {
            Issue.record("expected invalidParameter, got \(error)")
            return
        }
        #expect(message.contains("amount '\(amount)' was not accepted"))
        let reason = try #require(throws: AmountRejection.self) { try AmountInput.parse(amount) }
        #expect(message.contains(reason.description))
    }

    @Test("a deep link with a missing value is refused by the registered route")
    func missingValue() throws {
        let partial = context("convert/1/USD", pattern: MainManifest.Routes.convertAmountFromTo, parameters: ["amount": "1", "from": "USD"])
        let route = try #require(mainModule.routes.first { $0.pattern == MainManifest.Routes.convertAmountFromTo })
        #expect(throws: ModuleError.self) { try route.build(partial) }
    }

    /// The builder takes the link's values from its typed parameters, which the generated
    /// registration read from the route once; it does not read the context again.
    @Test("the convert builder opens the values it is given, whatever the context holds")
    func convertUsesItsParameters() throws {
        let instance = try MainBuilder.buildConvert(context("convert/100/usd/eur"), amount: "100", from: "usd", to: "eur")
        let screen = try instance.handle(.appear).screen
        #expect(screen.field("from")?.value == "USD")
        #expect(screen.field("amount")?.value == "100")
        #expect(screen.texts.contains("100 USD = 89.08 EUR"))
        // Through the registration, from the route's own parameters.
        let route = try #require(mainModule.routes.first { $0.pattern == MainManifest.Routes.convertAmountFromTo })
        let viaRoute = try route.build(context("convert/12/chf/usd", pattern: MainManifest.Routes.convertAmountFromTo,
                                               parameters: ["amount": "12", "from": "chf", "to": "usd"]))
        let routed = try viaRoute.handle(.appear).screen
        #expect(routed.field("from")?.value == "CHF")
        #expect(routed.field("to")?.value == "USD")
        #expect(routed.field("amount")?.value == "12")
    }

    @Test("info through the instance emits navigate(about)")
    func infoEffect() throws {
        let instance = try MainBuilder.buildMain(context("main"))
        let reply = try instance.handle(.action(id: "info", fields: [:]))
        #expect(reply.effects == [.navigate("about")])
        #expect(try instance.handle(.appear).effects.isEmpty)
    }

    @Test("convert through the instance saves from, to and amount")
    func convertThroughInstance() throws {
        let settings = MockSettingsStore()
        let instance = try MainBuilder.assemble(dependencies: offlineDependencies(settings)).instance
        let reply = try instance.handle(.action(id: "convert", fields: ["from": "JPY", "to": "usd", "amount": "1000"]))
        #expect(reply.screen.field("amount")?.value == "1000")
        #expect(reply.screen.texts.contains("1000 JPY = 6.34 USD"))
        let saved = try JSONDecoder().decode(SavedConversion.self,
                                             from: Data(try #require(settings.values[SettingsKey.lastConversion(of: testUser)]).utf8))
        #expect(saved == SavedConversion(from: jpy, to: usd, amount: "1000"))
    }

    @Test("the choices submitted with any action survive a restart", arguments: ["convert", "reload", "info"])
    func choicesSurviveRestart(action: String) throws {
        let settings = MockSettingsStore()
        let before = try MainBuilder.assemble(dependencies: offlineDependencies(settings)).instance
        _ = try before.handle(.action(id: action, fields: ["from": "GBP", "to": "jpy", "amount": "7,5"]))
        let restarted = try MainBuilder.assemble(dependencies: offlineDependencies(settings))
        #expect(restarted.presenter.state == SavedConversion(from: gbp, to: jpy, amount: "7.5"))
        #expect(try restarted.instance.handle(.appear).screen.field("amount")?.value == "7.5")
    }

    @Test("swap's result survives a restart")
    func swapSurvivesRestart() throws {
        let settings = MockSettingsStore()
        let before = try MainBuilder.assemble(dependencies: offlineDependencies(settings)).instance
        _ = try before.handle(.action(id: "swap", fields: ["from": "GBP", "to": "JPY", "amount": "3"]))
        let restarted = try MainBuilder.assemble(dependencies: offlineDependencies(settings))
        #expect(restarted.presenter.state == SavedConversion(from: jpy, to: gbp, amount: "3"))
    }

    @Test("a destroyed instance frees its whole stack")
    func noLeaks() throws {
        weak var view: MainView?
        weak var presenter: MainPresenter?
        weak var interactor: MainInteractor?
        weak var router: MainRouter?
        weak var instance: VIPERInstance?
        try {
            let stack = try MainBuilder.assemble(dependencies: offlineDependencies())
            _ = try stack.instance.handle(.action(id: "swap", fields: ["amount": "3"]))
            _ = try stack.instance.handle(.action(id: "reload", fields: [:]))
            _ = try stack.instance.handle(.action(id: "info", fields: [:]))
            view = stack.view
            presenter = stack.presenter
            interactor = stack.interactor
            router = stack.router
            instance = stack.instance
            #expect(presenter != nil)
        }()
        #expect(instance == nil)
        #expect(view == nil)
        #expect(presenter == nil)
        #expect(interactor == nil)
        #expect(router == nil)
    }

    @Test("the ownership follows VIPERRoles: interactor → presenter and router → view are weak")
    func ownership() throws {
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies())
        #expect(stack.interactor.output === stack.presenter)
        #expect(stack.router.view === stack.view)
        #expect(stack.view.presenter === stack.presenter)
    }
}

@Suite("Hot-swap state")
struct MainStateTests {
    @Test("snapshot then restore into a new instance keeps from, to and amount")
    func roundTrip() throws {
        let old = try MainBuilder.assemble(dependencies: offlineDependencies())
        _ = try old.instance.handle(.action(id: "convert", fields: ["from": "GBP", "to": "JPY", "amount": "12,5"]))
        let bytes = try old.instance.snapshot()
        let json = try #require(String(data: bytes, encoding: .utf8))
        #expect(json == #"{"state":{"amount":"12.5","from":"GBP","to":"JPY"},"v":2}"#)

        let new = try MainBuilder.assemble(dependencies: offlineDependencies())
        try new.instance.restore(bytes)
        #expect(new.presenter.state == SavedConversion(from: gbp, to: jpy, amount: "12.5"))
        #expect(try new.instance.handle(.appear).screen.field("amount")?.value == "12.5")
    }

    @Test("state from an older version (v1, flat, before CodableState), or with unknown keys, is read")
    func tolerant() throws {
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies())
        try stack.instance.restore(Data(#"{"v":1,"from":"chf","to":"EUR","amount":"3","extra":true}"#.utf8))
        #expect(stack.presenter.state == SavedConversion(from: currency("CHF"), to: eur, amount: "3"))
        let current = try MainBuilder.assemble(dependencies: offlineDependencies())
        try current.instance.restore(Data(#"{"v":2,"state":{"from":"GBP","to":"EUR","amount":"4","extra":1},"more":true}"#.utf8))
        #expect(current.presenter.state == SavedConversion(from: gbp, to: eur, amount: "4"))
    }

    @Test("unreadable or invalid state is refused and the fresh state kept", arguments: [
        "", "junk", #"{"v":2,"from":"USD","to":"EUR","amount":"1"}"#, #"{"v":3,"state":{"from":"USD","to":"EUR","amount":"1"}}"#,
        #"{"v":1,"from":"XAU","to":"EUR","amount":"1"}"#, #"{"v":2,"state":{"from":"XAU","to":"EUR","amount":"1"}}"#,
        #"{"v":1,"from":"USD","to":"EUR","amount":"0.11.2"}"#, #"{"v":1,"from":"??","to":"EUR","amount":"1"}"#,
    ])
    func refused(state: String) throws {
        let stack = try MainBuilder.assemble(dependencies: offlineDependencies())
        #expect(throws: (any Error).self) { try stack.instance.restore(Data(state.utf8)) }
        #expect(stack.presenter.state == SavedConversion(from: usd, to: eur, amount: "100"))
    }
}
