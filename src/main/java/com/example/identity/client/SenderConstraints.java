package com.example.identity.client;

/**
 * What an application requires of its own requests (decisions §28): that its authorization requests be pushed first
 * ({@code par_obligatorio}, RFC 9126: {@code /oauth/authorize.php} then takes only a {@code request_uri} of
 * {@code /oauth/par.php}) and that its tokens be bound to a DPoP key ({@code dpop_obligatorio}, RFC 9449: every
 * token request carries a proof). Neither by default: existing applications work as before.
 *
 * @param pushedRequests {@code par_obligatorio}: {@code web} and {@code nativa} applications only
 * @param dpop {@code dpop_obligatorio}: not a {@code servidor} (its own token is not bound)
 */
public record SenderConstraints(boolean pushedRequests, boolean dpop) {

    /** What every application had before decisions §28: neither. */
    public static final SenderConstraints NONE = new SenderConstraints(false, false);

    static final String PAR_ONLY_WITH_REDIRECT = "Solo las aplicaciones de tipo web o nativa envían solicitudes de "
            + "autorización: par_obligatorio no se aplica";
    static final String NO_DPOP_FOR_SERVERS = "El token propio de una aplicación de tipo servidor no se liga a una "
            + "clave: dpop_obligatorio no se aplica";

    /**
     * Refuses what the type cannot have, naming the field.
     *
     * @throws ClientService.InvalidRegistrationException {@code par_obligatorio} for a {@code dispositivo} or
     *     {@code servidor}, {@code dpop_obligatorio} for a {@code servidor}
     */
    void check(ClientType type) {
        if (pushedRequests && !type.hasRedirectUri()) {
            throw new ClientService.InvalidRegistrationException("par_obligatorio", PAR_ONLY_WITH_REDIRECT);
        }
        if (dpop && type == ClientType.SERVER) {
            throw new ClientService.InvalidRegistrationException("dpop_obligatorio", NO_DPOP_FOR_SERVERS);
        }
    }
}
