package com.example.identity.federation;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountLocks;
import com.example.identity.account.AccountService;
import com.example.identity.account.UnprovenAddressProved;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.passkey.Passkeys;
import com.example.identity.registration.IdentitySignUp;

/**
 * The identities of other providers linked to accounts (decisions §19, table {@code linked_identities}):
 * a (provider, subject) pair belongs to at most one account. Removing a link is refused when it is the
 * account's last way to log in: no password of its own, no passkey, no other link.
 */
@Component
public class LinkedIdentities implements IdentitySignUp.Links {

    private final JdbcTemplate jdbc;
    private final AccountService accounts;
    private final Passkeys passkeys;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final ObjectProvider<ClientRegistrationRepository> registrations;
    private final SteamSettings steam;
    private final AccountLocks locks;

    LinkedIdentities(JdbcTemplate jdbc, AccountService accounts, Passkeys passkeys, ApplicationEventPublisher events,
            Clock clock, ObjectProvider<ClientRegistrationRepository> registrations, SteamSettings steam, AccountLocks locks) {
        this.locks = locks;
        this.registrations = registrations;
        this.steam = steam;
        this.jdbc = jdbc;
        this.accounts = accounts;
        this.passkeys = passkeys;
        this.events = events;
        this.clock = clock;
    }

    /** One linked identity, as {@code /cuenta/seguridad} lists it. */
    public record Link(long id, String provider, String subject, Instant linkedAt, Instant lastUsedAt) {
    }

    /** The account that {@code subject} of {@code provider} logs in to, if linked; its last use recorded. */
    @Transactional
    public Optional<Long> userOf(String provider, String subject) {
        List<Long> found = jdbc.queryForList("select user_id from linked_identities where provider = ? and subject = ?",
                Long.class, provider, subject);
        found.stream().findFirst().ifPresent(user -> jdbc.update("update linked_identities set last_used_at = ? "
                + "where provider = ? and subject = ?", Timestamp.from(clock.instant()), provider, subject));
        return found.stream().findFirst();
    }

    /**
     * Links {@code subject} of {@code provider} to the account (audited).
     *
     * @return false when that identity is already linked (to this account or another)
     */
    @Override
    @Transactional
    public boolean link(long userId, String provider, String subject) {
        Instant now = clock.instant();
        try {
            jdbc.update("insert into linked_identities (provider, subject, user_id, linked_at, last_used_at) "
                    + "values (?, ?, ?, ?, ?)", provider, subject, userId, Timestamp.from(now), Timestamp.from(now));
        }
        catch (DuplicateKeyException taken) {
            return false;
        }
        events.publishEvent(new AuditEvent(AuditEvent.Type.IDENTITY_LINKED, "usuario #" + userId + ": " + provider));
        return true;
    }

    @Transactional(readOnly = true)
    public List<Link> of(long userId) {
        return jdbc.query("select id, provider, subject, linked_at, last_used_at from linked_identities where user_id = ? "
                + "order by linked_at, id", (rs, n) -> new Link(rs.getLong(1), rs.getString(2), rs.getString(3),
                        rs.getObject(4, OffsetDateTime.class).toInstant(),
                        rs.getObject(5, OffsetDateTime.class) == null ? null : rs.getObject(5, OffsetDateTime.class).toInstant()),
                userId);
    }

    /**
     * A recovery proved the address of an account whose address nobody had proved (D44): the identities linked to
     * it before were linked without that proof (a provider's unverified address before D44, or whoever held an
     * account an admin made), so they go, audited, and the owner's mail names them.
     */
    @EventListener
    void onUnprovenAddressProved(UnprovenAddressProved event) {
        List<String> providers = jdbc.queryForList("select provider from linked_identities where user_id = ? "
                + "order by linked_at, id", String.class, event.userId());
        if (providers.isEmpty()) {
            return;
        }
        jdbc.update("delete from linked_identities where user_id = ?", event.userId());
        for (String provider : providers) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.IDENTITY_UNLINKED,
                    "usuario #" + event.userId() + ": " + provider + " (vinculada antes de demostrar el correo)"));
            event.unlinked(ProviderButtons.of(registrations, steam).stream().filter(p -> p.id().equals(provider))
                    .map(ProviderButtons.Provider::name).findFirst().orElse(provider));
        }
    }

    /** What an unlink did. */
    public enum Unlinked { REMOVED, NOT_FOUND, LAST_WAY_TO_LOG_IN }

    /** Removes one of the account's links, unless it is the last way to log in (audited). */
    @Transactional
    public Unlinked unlink(long userId, long linkId) {
        UserAccount user = accounts.findById(userId).orElse(null);
        List<String> provider = jdbc.queryForList("select provider from linked_identities where id = ? and user_id = ?",
                String.class, linkId, userId);
        if (user == null || provider.isEmpty()) {
            return Unlinked.NOT_FOUND;
        }
        // the account's rows are taken one request at a time: two unlinks cannot each leave the other's last
        locks.lock(userId);
        long links = jdbc.queryForObject("select count(*) from linked_identities where user_id = ?", Long.class, userId);
        if (!user.isPasswordSet() && links <= 1 && !passkeys.hasAny(user.getCorreo())) {
            return Unlinked.LAST_WAY_TO_LOG_IN;
        }
        jdbc.update("delete from linked_identities where id = ? and user_id = ?", linkId, userId);
        events.publishEvent(new AuditEvent(AuditEvent.Type.IDENTITY_UNLINKED, "usuario #" + userId + ": " + provider.get(0)));
        return Unlinked.REMOVED;
    }
}
