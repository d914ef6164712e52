package com.example.identity.client;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.example.identity.client.ClientService.InvalidRegistrationException;
import com.example.identity.outbound.ReceiverAddresses;

/**
 * The addresses of an application's registration, checked in {@link ClientService#register}'s order, each refusal
 * naming its field with the Spanish reason: the {@code backchannel_logout_uri} (decisions §20), the
 * {@code redirect_uri} by type (decisions §6, §16, §21) and the {@code post_logout_redirect_uri}s (§12.7).
 */
final class RegistrationUris {

    private RegistrationUris() {
    }

    /**
     * The {@code backchannel_logout_uri} (null or empty: none), under the rules of a {@code redirect_uri} and, since
     * the service POSTs there, of a receiver's host (outbound/ReceiverAddresses); not for a device application.
     */
    static String backChannel(String backChannelLogoutUri, ClientType type, boolean allowLoopback) {
        String backChannel = backChannelLogoutUri == null || backChannelLogoutUri.isEmpty() ? null : backChannelLogoutUri;
        if (backChannel != null) {
            if (!type.hasRedirectUri()) {
                throw new InvalidRegistrationException("backchannel_logout_uri",
                        "Una aplicación de tipo dispositivo no tiene backchannel_logout_uri");
            }
            RedirectUriRule.problemWith(backChannel).ifPresent(problem -> {
                throw new InvalidRegistrationException("backchannel_logout_uri",
                        problem.replace("redirect_uri", "backchannel_logout_uri"));
            });
            if (ReceiverAddresses.refusedHost(URI.create(backChannel).getHost(), allowLoopback)) {
                throw new InvalidRegistrationException("backchannel_logout_uri",
                        "backchannel_logout_uri inválido: no puede apuntar a una dirección local o privada");
            }
        }
        return backChannel;
    }

    /** The {@code redirect_uri} of an application of {@code type}: none for a device or a server. */
    static String redirectUri(String redirectUri, ClientType type) {
        if (!type.hasRedirectUri()) {
            // RFC 8628: a console is never redirected to, the user approves it at /activar; a server logs
            // nobody in (decisions §21)
            if (redirectUri != null && !redirectUri.isEmpty()) {
                throw new InvalidRegistrationException("redirect_uri",
                        "Una aplicación de tipo " + type.value() + " no tiene redirect_uri");
            }
            return null;
        }
        (type.isPublic() ? RedirectUriRule.nativeProblemWith(redirectUri) : RedirectUriRule.problemWith(redirectUri))
                .ifPresent(problem -> {
                    throw new InvalidRegistrationException("redirect_uri", problem);
                });
        return redirectUri;
    }

    /** The {@code post_logout_redirect_uri}s, each once, at most {@link ClientLogoutUris#MAX}. */
    static Set<String> logoutUris(List<String> postLogoutRedirectUris) {
        var logoutUris = new LinkedHashSet<>(postLogoutRedirectUris);
        if (logoutUris.size() > ClientLogoutUris.MAX) {
            throw new InvalidRegistrationException("post_logout_redirect_uri",
                    "Como máximo " + ClientLogoutUris.MAX + " post_logout_redirect_uri");
        }
        logoutUris.forEach(uri -> RedirectUriRule.problemWith(uri).ifPresent(problem -> {
            throw new InvalidRegistrationException("post_logout_redirect_uri",
                    problem.replace("redirect_uri", "post_logout_redirect_uri"));
        }));
        return logoutUris;
    }
}
