package com.example.identity.client;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Slice;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountIds;
import com.example.identity.account.Caller;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.ListQuery;
import com.example.identity.common.Names;
import com.example.identity.crypto.Secrets;
import com.example.identity.outbound.OutboundSettings;

/**
 * OAuth applications: register, rotate the secret, revoke. The dashboard, the management routes and
 * the authorization server all go through here. A secret exists in plain text only in the value this
 * service returns when it makes one.
 */
@Service
public class ClientService {

    /** Decisions §24: {@code invitados} for an application that is not {@code nativa} or {@code dispositivo}. */
    public static final String GUESTS_ONLY_PUBLIC = "Solo las aplicaciones de tipo nativa o dispositivo admiten invitados";

    private final AccountIds accountIds;
    private final OAuthClientRepository clients;
    private final ClientLogoutUris logoutUris;
    private final DatabaseRegisteredClientRepository registrations;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final OutboundSettings outbound;

    ClientService(OAuthClientRepository clients, ClientLogoutUris logoutUris,
            DatabaseRegisteredClientRepository registrations, Clock clock, ApplicationEventPublisher events,
            OutboundSettings outbound, AccountIds accountIds) {
        this.accountIds = accountIds;
        this.clients = clients;
        this.logoutUris = logoutUris;
        this.registrations = registrations;
        this.clock = clock;
        this.events = events;
        this.outbound = outbound;
    }

    /**
     * Registers an application with a fresh {@code client_id} (144 random bits, URL-safe) and
     * {@code client_secret} (32 random bytes as 64 hex characters).
     *
     * @throws InvalidRegistrationException naming the field and the Spanish reason
     */
    @Transactional
    public NewCredentials register(long ownerId, String name, String redirectUri) {
        return register(ownerId, name, redirectUri, List.of());
    }

    /**
     * As {@link #register(long, String, String)}, with the {@code post_logout_redirect_uri}s to which a logout
     * may send the browser back (decisions §12.7): the same rules as {@code redirect_uri}, at most
     * {@link ClientLogoutUris#MAX}, repeats counted once.
     */
    @Transactional
    public NewCredentials register(long ownerId, String name, String redirectUri, List<String> postLogoutRedirectUris) {
        return register(ownerId, name, redirectUri, postLogoutRedirectUris, ClientType.WEB);
    }

    /**
     * As above, of a given type (decisions §16): a {@link ClientType#NATIVE native} application gets no secret
     * ({@code clientSecret} is null) and its redirect URI follows {@link RedirectUriRule#nativeProblemWith}; a
     * {@link ClientType#DEVICE device} one has neither a secret nor a redirect URI.
     */
    @Transactional
    public NewCredentials register(long ownerId, String name, String redirectUri, List<String> postLogoutRedirectUris,
            ClientType type) {
        return register(ownerId, name, redirectUri, postLogoutRedirectUris, type, null);
    }

    /**
     * As above, with the application's {@code backchannel_logout_uri} (OpenID Connect Back-Channel Logout 1.0,
     * decisions §20; null or empty: none), under the rules of a {@code redirect_uri}, and, since the service POSTs
     * there, to a host a receiver may have, as a {@code webhook_url} (outbound/ReceiverAddresses: not this machine,
     * unless {@code identity.outbound.allow-loopback}, nor a private, link-local, shared or reserved network); not for
     * a device application.
     */
    @Transactional
    public NewCredentials register(long ownerId, String name, String redirectUri, List<String> postLogoutRedirectUris,
            ClientType type, String backChannelLogoutUri) {
        return register(ownerId, name, redirectUri, postLogoutRedirectUris, type, backChannelLogoutUri,
                SenderConstraints.NONE);
    }

    /** As below, for an application that accepts no guests. */
    @Transactional
    public NewCredentials register(long ownerId, String name, String redirectUri, List<String> postLogoutRedirectUris,
            ClientType type, String backChannelLogoutUri, SenderConstraints constraints) {
        return register(ownerId, name, redirectUri, postLogoutRedirectUris, type, backChannelLogoutUri, constraints,
                false);
    }

    /**
     * As above, with what the application requires of its own requests (decisions §28): pushed authorization
     * requests ({@code par_obligatorio}, {@code web} and {@code nativa} only) and DPoP-bound tokens
     * ({@code dpop_obligatorio}, not a {@code servidor}); and whether it accepts guest players ({@code guests},
     * {@code POST /oauth/invitado.php}, decisions §24: {@code nativa} and {@code dispositivo} only).
     */
    @Transactional
    public NewCredentials register(long ownerId, String name, String redirectUri, List<String> postLogoutRedirectUris,
            ClientType type, String backChannelLogoutUri, SenderConstraints constraints, boolean guests) {
        constraints.check(type);
        if (guests && !type.isPublic()) {
            throw new InvalidRegistrationException("invitados", GUESTS_ONLY_PUBLIC);
        }
        String backChannel = RegistrationUris.backChannel(backChannelLogoutUri, type, outbound.allowLoopback());
        String cleanName = validName(name);
        redirectUri = RegistrationUris.redirectUri(redirectUri, type);
        var logoutUris = RegistrationUris.logoutUris(postLogoutRedirectUris);
        NewCredentials created = save(ownerId, cleanName, redirectUri, newClientId(),
                type.isPublic() ? null : Secrets.randomHex(32), type);
        this.logoutUris.add(created.clientId(), logoutUris);
        if (backChannel != null) {
            clients.findByClientId(created.clientId()).orElseThrow().setBackChannelLogoutUri(backChannel);
        }
        if (!constraints.equals(SenderConstraints.NONE)) {
            clients.findByClientId(created.clientId()).orElseThrow().require(constraints);
        }
        if (guests) {
            clients.findByClientId(created.clientId()).orElseThrow().acceptGuests();
        }
        events.publishEvent(new AuditEvent(AuditEvent.Type.CLIENT_CREATED, created.clientId()));
        return created;
    }

    /** The demo application of decisions §9, with its publicly known id and secret. */
    @Transactional
    NewCredentials registerDemo(long ownerId, String name, String redirectUri, String clientId, String secret,
            String postLogoutRedirectUri) {
        NewCredentials created = save(ownerId, name, redirectUri, clientId, secret, ClientType.WEB);
        logoutUris.add(clientId, List.of(postLogoutRedirectUri));
        clients.findByClientId(clientId).orElseThrow().setFirstParty(true);
        return created;
    }

    /**
     * An admin marks an application first-party (no consent page) or third-party (decisions §12.6); the
     * change is audited and reaches every instance's client cache at commit.
     *
     * @return false when there is no such application
     */
    @Transactional
    public boolean setFirstParty(Caller admin, String clientId, boolean firstParty) {
        if (!admin.admin()) {
            throw new IllegalArgumentException("only an admin decides which applications are first-party");
        }
        return clients.findByClientId(clientId).map(c -> {
            registrations.evict(c.getClientId());
            if (c.setFirstParty(firstParty)) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.CLIENT_FIRST_PARTY_CHANGED,
                        c.getClientId() + (firstParty ? ": primera parte" : ": tercera parte")));
            }
            return true;
        }).orElse(false);
    }

    private NewCredentials save(long ownerId, String name, String redirectUri, String clientId, String secret,
            ClientType type) {
        OAuthClient client = clients.save(new OAuthClient(clientId, name, redirectUri,
                secret == null ? null : Secrets.sha256Hex(secret), ownerId, clock.instant(), type));
        return new NewCredentials(client.getClientId(), secret, client.getName(), client.getRedirectUri());
    }

    /** A new secret for an active application; the old one stops working at once. */
    @Transactional
    public Optional<NewCredentials> rotateSecret(String clientId) {
        // a public (native) application has no secret to rotate
        return clients.findByClientId(clientId).filter(c -> !c.isRevoked() && !c.getType().isPublic()).map(client -> {
            String secret = Secrets.randomHex(32);
            registrations.evict(client.getClientId());
            client.rotateSecret(Secrets.sha256Hex(secret), clock.instant());
            events.publishEvent(new AuditEvent(AuditEvent.Type.CLIENT_SECRET_ROTATED, client.getClientId()));
            return new NewCredentials(client.getClientId(), secret, client.getName(), client.getRedirectUri());
        });
    }

    /**
     * An application's row was changed outside this class (the import of the old system's changes,
     * migration/): every instance reads it again, here at once and elsewhere when the caller's transaction
     * commits, as after a rotation here.
     */
    public void changedOutside(String clientId) {
        registrations.evict(clientId);
    }

    /**
     * Revokes an application: both OAuth endpoints refuse it from now on with {@code client_revoked}, and
     * every live access token issued to it is revoked.
     *
     * @return false when there is no such application
     */
    @Transactional
    public boolean revoke(String clientId) {
        Optional<OAuthClient> client = clients.findByClientId(clientId);
        client.ifPresent(c -> {
            registrations.evict(c.getClientId());
            if (c.revoke(clock.instant())) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.CLIENT_REVOKED, c.getClientId()));
            }
            events.publishEvent(new ClientRevoked(c.getClientId()));
        });
        return client.isPresent();
    }

    /** The applications {@code caller} may see: their own, or all for an admin; newest first. */
    @Transactional(readOnly = true)
    public List<OAuthClient> visibleTo(Caller caller) {
        return caller.admin() ? listAll() : listForOwner(caller.userId());
    }

    /** Rotates the secret of an application {@code caller} may change; empty when unknown, not theirs, or revoked. */
    @Transactional
    public Optional<NewCredentials> rotateSecretAs(Caller caller, String clientId) {
        return visible(caller, clientId).flatMap(c -> rotateSecret(c.getClientId()));
    }

    /**
     * Revokes an application {@code caller} may change; false when unknown or not theirs. An admin revoking
     * someone else's application leaves an audit line of its own, naming the owner.
     */
    @Transactional
    public boolean revokeAs(Caller caller, String clientId) {
        return visible(caller, clientId).map(c -> {
            if (caller.admin() && c.getOwnerId() != caller.userId() && !c.isRevoked()) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.CLIENT_REVOKED_BY_ADMIN,
                        "aplicación " + c.getClientId() + " de usuario #" + c.getOwnerId()));
            }
            return revoke(c.getClientId());
        }).orElse(false);
    }

    private Optional<OAuthClient> visible(Caller caller, String clientId) {
        if (clientId == null || clientId.isEmpty() || clientId.length() > 100) {
            return Optional.empty();
        }
        return clients.findByClientId(clientId).filter(c -> caller.mayActOn(c.getOwnerId()));
    }

    @Transactional(readOnly = true)
    public Optional<OAuthClient> findByClientId(String clientId) {
        return clients.findByClientId(clientId);
    }

    @Transactional(readOnly = true)
    public List<OAuthClient> listForOwner(long ownerId) {
        return clients.findByOwnerIdOrderByCreatedAtDesc(ownerId);
    }

    /**
     * One page of the applications {@code caller} may see (their own, or all for an admin), newest first;
     * with a search, those whose name or client id contains it, or owned by the account whose e-mail it is.
     */
    @Transactional(readOnly = true)
    public Slice<OAuthClient> page(Caller caller, ListQuery query) {
        if (!query.searching()) {
            return caller.admin() ? clients.findAllByOrderByCreatedAtDescIdDesc(query.pageable())
                    : clients.findByOwnerIdOrderByCreatedAtDescIdDesc(caller.userId(), query.pageable());
        }
        Long owner = caller.admin() ? accountIds.ofEmail(query.email()) : null;
        return caller.admin() ? clients.search(query.pattern(), owner == null ? -1 : owner, query.pageable())
                : clients.searchOwn(caller.userId(), query.pattern(), query.pageable());
    }

    @Transactional(readOnly = true)
    public List<OAuthClient> listAll() {
        return clients.findAllByOrderByCreatedAtDesc();
    }

    /** The name rule shared with tokens ({@link Names}), in the API's words. */
    private static String validName(String name) {
        Names.problemWith(name).ifPresent(problem -> {
            throw new InvalidRegistrationException("name", switch (problem) {
                case MISSING -> "Falta el parámetro name";
                case TOO_LONG -> "name demasiado largo";
                case INVALID -> "name inválido";
            });
        });
        return Names.clean(name);
    }

    private static String newClientId() {
        return Secrets.randomUrlSafe(18);
    }

    /**
     * Credentials as they are shown once: {@code clientSecret} is the plain secret. Serializable: the
     * dashboard hands it to the next page as a flash attribute, which lives in the session, in the
     * database (Spring Session JDBC), until that page is shown.
     */
    public record NewCredentials(String clientId, String clientSecret, String name, String redirectUri)
            implements java.io.Serializable {
        @Override
        public String toString() {
            return "NewCredentials[clientId=" + clientId + ", clientSecret=<hidden>]";
        }
    }

    /** A registration refused: {@code field} is the form field, {@code message} the Spanish reason. */
    public static class InvalidRegistrationException extends RuntimeException {

        private final String field;

        public InvalidRegistrationException(String field, String message) {
            super(message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }
}
