import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// The listener's settings: sound quality, the endless queue, explicit content, radio region.
struct ListenSettingsPages: Sendable {
    let player: PlayerService

    /// The sound qualities a listener picks from, in the page's language.
    static func qualities(_ t: Translator) -> [(ListenSettings.SoundQuality, String)] {
        [
            (.original, t("Original files")), (.high, t("High (MP3 192 kbit/s)")),
            (.normal, t("Normal (MP3 128 kbit/s)")), (.low, t("Low, saves data (MP3 64 kbit/s)")),
        ]
    }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.listenSettings) { request, account in
            let settings = try await player.settings(for: account.user)
            return .page(
                ListenSettingsPage(
                    qualities: Self.qualities(request.t).map {
                        .init(value: $0.0.rawValue, name: $0.1, selected: $0.0 == settings.soundQuality)
                    },
                    endlessQueue: settings.endlessQueue, skipExplicit: settings.skipExplicit,
                    radioRegion: settings.radioRegion))
        }
        pages.form(SiteRoutes.listenSettings, SettingsForm.self, save)
    }

    struct SettingsForm: PageForm {
        var _csrf: String?
        var soundQuality: String?
        var endlessQueue: String?
        var skipExplicit: String?
        var radioRegion: String?
    }

    @Sendable func save(_ request: PageRequest, _ account: Authenticated, _ form: SettingsForm) async throws
        -> PageAnswer
    {
        let settings = ListenSettings(
            soundQuality: form.soundQuality.flatMap(ListenSettings.SoundQuality.init(rawValue:)) ?? .original,
            endlessQueue: form.endlessQueue != nil, skipExplicit: form.skipExplicit != nil,
            radioRegion: form.radioRegion ?? "")
        do {
            _ = try await player.saveSettings(settings, for: account.user)
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return .redirect(SiteRoutes.listenSettings.path, flash: request.t.detail(refusal), kind: .error)
        }
        return .redirect(SiteRoutes.listenSettings.path, flash: request.t("Settings saved."))
    }
}
