import Foundation
import Synchronization

/// The console's signed-in sessions, in memory: a random ID in an HttpOnly, SameSite=Strict
/// cookie names one, and each carries its own anti-forgery token that every form posts back.
/// A restart signs everyone out, which is what an operator tool should do.
final class ConsoleSessions: Sendable {
    /// One session.
    struct Session: Sendable {
        /// The token each form posts in its `csrf` field.
        let csrfToken: String
        /// When it stops being accepted.
        let expiresAt: ContinuousClock.Instant
        /// A message for the next page (the result of an action), shown once.
        var flash: String?
    }

    /// Most sessions at once; a new one past it replaces the one closest to expiry.
    static let sessionCountMax = 64
    /// How long a session lasts, in seconds: one working day.
    static let lifetimeSeconds = 8 * 60 * 60
    /// Most failed sign-ins accepted per window before the console answers 429.
    static let signInFailureCountMax = 10
    /// The window of that count, in seconds.
    static let signInFailureWindowSeconds = 60
    /// Longest flash message kept, in characters.
    static let flashCharacterCountMax = 512

    private struct State {
        var sessions: [String: Session] = [:]
        var failures: [ContinuousClock.Instant] = []
    }

    private let state = Mutex(State())

    /// Opens a session; returns its cookie value and its anti-forgery token.
    func open() -> (id: String, csrfToken: String) {
        let id = Self.randomToken()
        let session = Session(
            csrfToken: Self.randomToken(), expiresAt: .now + .seconds(Self.lifetimeSeconds), flash: nil)
        state.withLock { state in
            let now = ContinuousClock.now
            state.sessions = state.sessions.filter { $0.value.expiresAt > now }
            if state.sessions.count >= Self.sessionCountMax,
                let oldest = state.sessions.min(by: { $0.value.expiresAt < $1.value.expiresAt })?.key
            {
                state.sessions[oldest] = nil
            }
            state.sessions[id] = session
            assert(state.sessions.count <= Self.sessionCountMax)
        }
        return (id, session.csrfToken)
    }

    /// The live session `id` names, if any.
    func session(_ id: String) -> Session? {
        state.withLock { state in
            guard let session = state.sessions[id] else { return nil }
            guard session.expiresAt > .now else {
                state.sessions[id] = nil
                return nil
            }
            return session
        }
    }

    /// Leaves `text` for the session's next page.
    func setFlash(_ id: String, _ text: String) {
        state.withLock { $0.sessions[id]?.flash = String(text.prefix(Self.flashCharacterCountMax)) }
    }

    /// The session's flash message, removed.
    func takeFlash(_ id: String) -> String? {
        state.withLock { state in
            defer { state.sessions[id]?.flash = nil }
            return state.sessions[id]?.flash
        }
    }

    /// Ends a session.
    func close(_ id: String) {
        _ = state.withLock { $0.sessions.removeValue(forKey: id) }
    }

    /// Counts a failed sign-in, so that the token cannot be guessed at the server's speed.
    func recordSignInFailure() {
        state.withLock { state in
            state.failures.append(.now)
            if state.failures.count > Self.signInFailureCountMax { state.failures.removeFirst() }
        }
    }

    /// Whether sign-ins are refused for now: `signInFailureCountMax` failures within the window.
    func isSignInThrottled() -> Bool {
        state.withLock { state in
            let windowStart = ContinuousClock.now - .seconds(Self.signInFailureWindowSeconds)
            state.failures.removeAll { $0 < windowStart }
            return state.failures.count >= Self.signInFailureCountMax
        }
    }

    /// 32 random bytes from the system's generator, as hex.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
